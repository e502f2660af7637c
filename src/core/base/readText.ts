/**
 * Reading a store file: apart from the writers (atomicWrite.ts and the guarded replace), so code
 * that only reads, such as the VS Code extension's views, loads no writer.
 */
import * as fs from 'node:fs';
import { decodeLossless } from './losslessText';

/** Reads a UTF-8 file, or undefined when it does not exist. */
export function readTextIfExists(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Reads a file as lossless text (see losslessText), or undefined when it does not exist. */
export function readTextLossless(file: string): string | undefined {
  try {
    return decodeLossless(fs.readFileSync(file));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

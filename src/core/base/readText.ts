/**
 * Reading a store file: apart from the writers (atomicWrite.ts and the guarded replace), so code
 * that only reads, such as the VS Code extension's views, loads no writer.
 *
 * Every read here refuses a symbolic link that leads out of the store (refuseReadingOutOfStore):
 * a cloned repository can commit `.lore/facts.md` as a link to a key or a credentials file, and
 * what Lore reads from its store goes into the index, the digest and what agents are handed. Such
 * a file reads as missing. Files outside every store are read as they are.
 */
import * as fs from 'node:fs';
import { decodeLossless } from './losslessText';
import { openInStore } from './storeLinks';

/** fs.readFileSync for a file that may lie in a store: a link out of the store reads as missing (ENOENT). */
export function readStoreFile(file: string): Buffer;
export function readStoreFile(file: string, encoding: 'utf8'): string;
export function readStoreFile(file: string, encoding?: 'utf8'): Buffer | string {
  const fd = openInStore(file);
  // A file in no store (an agent's session log, a prompt) is read by path, as ever.
  if (fd === undefined) return encoding ? fs.readFileSync(file, encoding) : fs.readFileSync(file);
  try {
    return encoding ? fs.readFileSync(fd, encoding) : fs.readFileSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** fs.openSync(file, 'r') for a file that may lie in a store, refusing a link out of it as readStoreFile does. */
export function openStoreFile(file: string): number {
  return openInStore(file) ?? fs.openSync(file, 'r');
}

/** Reads a UTF-8 file, or undefined when it does not exist. */
export function readTextIfExists(file: string): string | undefined {
  try {
    return readStoreFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Reads a file as lossless text (see losslessText), or undefined when it does not exist. */
export function readTextLossless(file: string): string | undefined {
  try {
    return decodeLossless(readStoreFile(file));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Crash-safe file replacement: write a temporary file beside the target, fsync it, rename it
 * over the target, fsync the directory. A crash at any point leaves either the old or the new
 * file, never a torn one.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { crashPoint } from '../util/crashPoints';

export interface AtomicWriteOptions {
  /** Skip the fsyncs (derived caches only: losing them costs a recomputation, not data). */
  durable?: boolean;
}

/** Atomically replaces `file` with `data`. */
export function writeFileAtomic(file: string, data: string | Buffer, options: AtomicWriteOptions = {}): void {
  const durable = options.durable ?? true;
  const dir = path.dirname(file);
  fs.mkdirSync(dir, { recursive: true });
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${Date.now().toString(36)}.tmp`);
  const fd = fs.openSync(tmp, 'w', 0o644);
  try {
    fs.writeSync(fd, typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
    if (durable) fs.fsyncSync(fd);
  } catch (error) {
    fs.closeSync(fd);
    fs.rmSync(tmp, { force: true });
    throw error;
  }
  fs.closeSync(fd);
  if (durable) crashPoint(`wrote ${path.basename(tmp)}`);
  try {
    fs.renameSync(tmp, file);
  } catch (error) {
    fs.rmSync(tmp, { force: true });
    throw error;
  }
  if (durable) {
    fsyncDirectory(dir);
    crashPoint(`renamed ${path.basename(file)}`);
  }
}

/** Makes a rename or unlink in `dir` durable. */
export function fsyncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    // Some file systems (and Windows) do not allow fsync on a directory; the rename still happened.
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** Reads a UTF-8 file, or undefined when it does not exist. */
export function readTextIfExists(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Removes temporary files a crashed writer left behind. */
export function removeStaleTempFiles(dir: string): void {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (name.startsWith('.') && name.endsWith('.tmp')) fs.rmSync(path.join(dir, name), { force: true });
  }
}

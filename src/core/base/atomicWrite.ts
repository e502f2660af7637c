/**
 * Crash-safe file replacement: write a temporary file beside the target, fsync it, rename it
 * over the target, fsync the directory. A crash at any point leaves either the old or the new
 * file, never a torn one.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { crashPoint } from './crashPoints';
import { listNames } from './walkTree';
import { refuseLinks } from './storeLinks';

export interface AtomicWriteOptions {
  /** Skip the fsyncs (derived caches only: losing them costs a recomputation, not data). */
  durable?: boolean;
}

/**
 * A write that stored fewer bytes than asked: on a full disk or over a file-size limit
 * (`ulimit -f`), `write` may succeed partly and the rest never comes. It carries the errno
 * code of the cause (ENOSPC when the system gave none) and the path of the file meant.
 */
class IncompleteWriteError extends Error {
  readonly code: string;
  constructor(
    readonly path: string,
    written: number,
    expected: number,
    cause?: NodeJS.ErrnoException,
  ) {
    const code = cause?.code ?? 'ENOSPC';
    super(
      `${path}: only ${written} of ${expected} bytes could be written (${cause?.code ?? 'short write'}${code === 'ENOSPC' ? ': the disk is full' : code === 'EFBIG' ? ': over the file-size limit' : ''})`,
    );
    this.name = 'IncompleteWriteError';
    this.code = code;
  }
}

/** Writes all of `data` at the file's current offset, or throws IncompleteWriteError. */
export function writeFully(fd: number, data: Buffer, file: string): void {
  let written = 0;
  while (written < data.length) {
    let n: number;
    try {
      n = fs.writeSync(fd, data, written, data.length - written);
    } catch (error) {
      throw new IncompleteWriteError(file, written, data.length, error as NodeJS.ErrnoException);
    }
    // A write that stores nothing without an error will never make progress.
    if (n <= 0) throw new IncompleteWriteError(file, written, data.length);
    written += n;
  }
}

/**
 * Writes `data` to a new hidden temporary file beside `file`, complete and verified (every byte
 * written, fsynced when durable, the size on disk checked), and returns its path. On any
 * failure the temporary file is removed and the error says which file it was for. Refuses a
 * `file` that is, or lies under, a link inside the store (storeLinks.ts).
 */
export function writeTempBeside(file: string, data: Buffer, durable: boolean): string {
  refuseLinks(file);
  const dir = path.dirname(file);
  fs.mkdirSync(dir, { recursive: true });
  const tmp = path.join(
    dir,
    `.${path.basename(file)}.${process.pid}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}.tmp`,
  );
  const fd = fs.openSync(tmp, 'wx', 0o644);
  try {
    writeFully(fd, data, file);
    if (durable) fs.fsyncSync(fd);
    const size = fs.fstatSync(fd).size;
    if (size !== data.length) throw new IncompleteWriteError(file, size, data.length);
    fs.closeSync(fd);
  } catch (error) {
    try {
      fs.closeSync(fd);
    } catch {
      // Already closed (the failure was the close itself).
    }
    fs.rmSync(tmp, { force: true });
    throw error;
  }
  return tmp;
}

/** Atomically replaces `file` with `data`. */
export function writeFileAtomic(file: string, data: string | Buffer, options: AtomicWriteOptions = {}): void {
  const durable = options.durable ?? true;
  const tmp = writeTempBeside(file, typeof data === 'string' ? Buffer.from(data, 'utf8') : data, durable);
  if (durable) crashPoint(`wrote ${path.basename(tmp)}`);
  try {
    fs.renameSync(tmp, file);
  } catch (error) {
    fs.rmSync(tmp, { force: true });
    throw error;
  }
  if (durable) {
    fsyncDirectory(path.dirname(file));
    crashPoint(`renamed ${path.basename(file)}`);
  }
}

/** Makes a file's bytes durable (written without an fsync, e.g. to fsync a batch together). */
export function fsyncFile(file: string): void {
  const fd = fs.openSync(file, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
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

/** Removes temporary files a crashed writer left behind. */
export function removeStaleTempFiles(dir: string): void {
  for (const name of listNames(dir)) {
    if (name.startsWith('.') && name.endsWith('.tmp')) fs.rmSync(path.join(dir, name), { force: true });
  }
}

/**
 * Adding lines at the end of a file someone may be editing, without replacing it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { crashPoint } from './crashPoints';
import { writeFully } from './atomicWrite';
import { sameVersion } from './fileVersion';
import { NO_FOLLOW, refuseLinks } from './storeLinks';

/** True when `next` is `current` with bytes added at the end. */
export function extendsBytes(next: Buffer, current: Buffer | undefined): boolean {
  return current !== undefined && current.length > 0 && next.length > current.length && next.subarray(0, current.length).equals(current);
}

/**
 * Appends `suffix` to the file through O_APPEND when it is still the version the snapshot read.
 * Unlike a rename, an append cannot undo a save that lands at the same instant: an appender's
 * line ends up before or after Lore's, an editor's save still holds everything it wrote (and
 * settle re-applies Lore's lines if that save dropped them). A short write (full disk, file-size
 * limit) is cut back off, so the file is as it was, and reported. Returns false when the file
 * changed since `version` was read.
 */
export function appendInPlace(file: string, version: fs.BigIntStats | undefined, suffix: Buffer, durable: boolean): boolean {
  refuseLinks(file);
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_APPEND | NO_FOLLOW); // Never creates: a file deleted meanwhile is a change.
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
  try {
    const before = fs.fstatSync(fd, { bigint: true });
    if (!version || !sameVersion(before, version)) return false;
    try {
      writeFully(fd, suffix, file);
      if (durable) fs.fsyncSync(fd);
    } catch (error) {
      cutPartialAppend(fd, Number(before.size), suffix);
      throw error;
    }
  } finally {
    fs.closeSync(fd);
  }
  if (durable) crashPoint(`appended ${path.basename(file)}`);
  touchFolder(path.dirname(file));
  return true;
}

/**
 * Sets a folder's modification time to now. An append changes no folder, unlike a write that
 * renames a new version in; touching it lets a reader that checks folder times instead of every
 * file's (the search index's freshness check) see the change.
 */
function touchFolder(dir: string): void {
  try {
    const now = new Date();
    fs.utimesSync(dir, now, now);
  } catch {
    // Not ours to change (another owner): such readers still check every file now and then.
  }
}

/** Removes the part of `suffix` a failed append left at `from`, if nothing else was written after it. */
function cutPartialAppend(fd: number, from: number, suffix: Buffer): void {
  try {
    const size = fs.fstatSync(fd).size;
    if (size <= from || size - from > suffix.length) return;
    const tail = Buffer.alloc(size - from);
    fs.readSync(fd, tail, 0, tail.length, from);
    if (tail.equals(suffix.subarray(0, tail.length))) fs.ftruncateSync(fd, from);
  } catch {
    // The original error is what the user needs to hear about.
  }
}

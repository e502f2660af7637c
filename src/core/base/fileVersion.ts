/**
 * Telling whether a file was written since it was read, and waiting a moment for it, without
 * leaving synchronous code (the writes that use this run under the store lock).
 */
import type * as fs from 'node:fs';

/** Same inode, size and modification time: the content has not been written since. */
export function sameVersion(a: fs.BigIntStats, b: fs.BigIntStats): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeNs === b.mtimeNs;
}

/** Blocks the thread for `ms` milliseconds (no-op for ms <= 0). */
export function sleepSync(ms: number): void {
  if (ms > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Telling whether a file was written since it was read, and waiting a moment for it, without
 * leaving synchronous code (the writes that use this run under the store lock).
 */
import type * as fs from 'node:fs';
import { clock } from './clock';

/** Same inode, size and modification time: the content has not been written since. */
export function sameVersion(a: fs.BigIntStats, b: fs.BigIntStats): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeNs === b.mtimeNs;
}

/** Blocks the thread for `ms` milliseconds (no-op for ms <= 0), on the engine's clock (util/clock). */
export function sleepSync(ms: number): void {
  clock().sleepSync(ms);
}

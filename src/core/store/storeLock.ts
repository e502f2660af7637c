/**
 * One writer at a time per store. The lock is a file created with O_EXCL that holds the
 * owner's pid and host; a lock whose process is gone (killed mid-harvest) is taken over at
 * once. We do not use an mtime-based lock library because a crashed run would then block the
 * next one until the lock goes stale, which is exactly when a user re-runs.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export interface StoreLock {
  release(): void;
}

export class StoreLockedError extends Error {
  constructor(readonly lockFile: string, readonly owner: string) {
    super(`the store is locked by another Lore process (${owner}); wait for it to finish, or delete ${lockFile} if that process is gone`);
    this.name = 'StoreLockedError';
  }
}

interface LockOwner {
  pid: number;
  host: string;
  at: string;
}

/** Whether process `pid` runs on this host (a process of another user counts as alive). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readOwner(file: string): LockOwner | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as LockOwner;
  } catch {
    return undefined;
  }
}

function tryAcquire(file: string): boolean {
  const owner: LockOwner = { pid: process.pid, host: os.hostname(), at: new Date().toISOString() };
  try {
    const fd = fs.openSync(file, 'wx');
    fs.writeSync(fd, JSON.stringify(owner));
    fs.closeSync(fd);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const current = readOwner(file);
  // A lock from a dead process on this host, or an unreadable (torn) one, is stale.
  const stale = !current || (current.host === os.hostname() && !isAlive(current.pid));
  if (!stale) return false;
  // Rename first so that two processes that both saw the stale lock cannot both take it.
  const grave = `${file}.stale.${process.pid}`;
  try {
    fs.renameSync(file, grave);
    fs.rmSync(grave, { force: true });
  } catch {
    return false;
  }
  return tryAcquire(file);
}

/** Takes the store lock, waiting up to `timeoutMs` for another process to release it. */
export async function acquireStoreLock(storeRoot: string, timeoutMs = 30_000): Promise<StoreLock> {
  const file = path.join(storeRoot, '.lock');
  fs.mkdirSync(storeRoot, { recursive: true });
  const deadline = Date.now() + timeoutMs;
  let delay = 25;
  while (!tryAcquire(file)) {
    if (Date.now() >= deadline) {
      const owner = readOwner(file);
      throw new StoreLockedError(file, owner ? `pid ${owner.pid} on ${owner.host} since ${owner.at}` : 'unknown owner');
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(delay * 2, 500);
  }
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      const owner = readOwner(file);
      if (owner?.pid === process.pid) fs.rmSync(file, { force: true });
    },
  };
}

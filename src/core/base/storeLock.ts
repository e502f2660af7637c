/**
 * One writer at a time per store. Inside one process (an MCP server answering parallel tool
 * calls, the extension host) writers queue behind each other in memory, so they never wait on
 * their own lock file; the lock file, created with O_EXCL and holding the owner's pid, host and
 * command, is only for other processes. A lock whose process is gone (killed mid-harvest) is
 * taken over at once. We do not use an mtime-based lock library because a crashed run would
 * then block the next one until the lock goes stale, which is exactly when a user re-runs.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { realPathOr } from './realPath';

export interface StoreLock {
  release(): void;
}

export class StoreLockedError extends Error {
  constructor(
    readonly lockFile: string,
    readonly owner: string,
    alive: boolean,
  ) {
    super(
      alive
        ? `the store is locked by another Lore process (${owner}); wait for it to finish, or stop that process, then run again`
        : `the store is locked by another Lore process (${owner}); if that process is no longer running, delete ${lockFile} and run again`,
    );
    this.name = 'StoreLockedError';
  }
}

interface LockOwner {
  pid: number;
  host: string;
  at: string;
  command?: string;
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

/** What this process is, as a person would recognise it in a process list: `lore mcp`, `code`... */
function ownCommand(): string {
  const script = process.argv[1] ? path.basename(process.argv[1]).replace(/\.js$/, '') : '';
  return [script === 'cli' ? 'lore' : script || path.basename(process.execPath), ...process.argv.slice(2, 4)].join(' ').slice(0, 80);
}

function tryAcquire(file: string): boolean {
  const owner: LockOwner = { pid: process.pid, host: os.hostname(), at: new Date().toISOString(), command: ownCommand() };
  try {
    const fd = fs.openSync(file, 'wx');
    fs.writeSync(fd, JSON.stringify(owner));
    fs.closeSync(fd);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const current = readOwner(file);
  // Stale: from a dead process on this host, unreadable (torn), or this very process's own (the
  // in-process queue lets only one writer at a time reach the file, so no live writer of ours has it).
  const here = current?.host === os.hostname();
  const stale = !current || (here && (current.pid === process.pid || !isAlive(current.pid)));
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

/** The writers of this process queued per store: each waits for the one before it to release. */
const queues = new Map<string, Promise<void>>();

function storeKey(storeRoot: string): string {
  return realPathOr(storeRoot, path.resolve(storeRoot));
}

/**
 * Takes the store lock: first this process's turn (no time limit: the writer before it in this
 * process always finishes), then the lock file, waiting up to `timeoutMs` for another process
 * to release it.
 */
export async function acquireStoreLock(storeRoot: string, timeoutMs = 30_000): Promise<StoreLock> {
  const file = path.join(storeRoot, '.lock');
  fs.mkdirSync(storeRoot, { recursive: true });
  const key = storeKey(storeRoot);
  const before = queues.get(key) ?? Promise.resolve();
  let leave!: () => void;
  const turn = new Promise<void>((resolve) => (leave = resolve));
  const tail = before.then(() => turn);
  queues.set(key, tail);
  const leaveQueue = () => {
    leave();
    if (queues.get(key) === tail) queues.delete(key);
  };
  await before;
  try {
    const deadline = Date.now() + timeoutMs;
    let delay = 25;
    while (!tryAcquire(file)) {
      if (Date.now() >= deadline) {
        const owner = readOwner(file);
        const alive = owner !== undefined && owner.host === os.hostname() && isAlive(owner.pid);
        const who = owner
          ? `pid ${owner.pid}${owner.command ? ` (${owner.command})` : ''} on ${owner.host} since ${owner.at}`
          : 'unknown owner';
        throw new StoreLockedError(file, who, alive);
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, 500);
    }
  } catch (error) {
    leaveQueue();
    throw error;
  }
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      try {
        const owner = readOwner(file);
        if (owner?.pid === process.pid) fs.rmSync(file, { force: true });
      } finally {
        leaveQueue();
      }
    },
  };
}

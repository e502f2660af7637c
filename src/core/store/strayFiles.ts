/**
 * What a killed Lore process leaves behind in the store: the temporary file of an atomic write
 * (`.<name>.<pid>.<stamp>.tmp`, see atomicWrite.ts) anywhere in it, and the grave of a lock it
 * was taking over (`.lock.stale.<pid>`). The next run that takes the store lock removes them, but
 * only those whose process is gone (a temporary file of a live process is a write in flight).
 * The stale `.lock` itself is taken over by storeLock.ts and goes when that run releases it.
 */
import { removeNoFollow } from '../base/storeLinks';
import * as path from 'node:path';
import { walkTree } from '../base/walkTree';
import { isAlive } from '../base/storeLock';
import type { StorePaths } from './storePaths';

/** Lore's temporary files and lock graves, with the pid that wrote them. */
const STRAY = [/^\..+\.(\d+)\.[0-9a-z]+\.tmp$/, /^\.lock\.stale\.(\d+)$/];

/** Folders never looked into: git's, the search index's own (SQLite keeps its journal there). */
const SKIP = new Set(['.git', '.index', 'node_modules']);

/** Removes the stray files of dead Lore processes from the store; returns the store-relative ones removed. */
export function removeStrayFiles(paths: StorePaths): string[] {
  const removed: string[] = [];
  walkTree(paths.root, {
    enter: (entry) => !SKIP.has(entry.name),
    file: (entry, full) => {
      if (!entry.isFile()) return;
      const pid = STRAY.map((pattern) => pattern.exec(entry.name)?.[1]).find((p) => p !== undefined);
      if (pid === undefined || Number(pid) === process.pid || isAlive(Number(pid))) return;
      try {
        removeNoFollow(full, { force: true });
        removed.push(path.relative(paths.root, full).split(path.sep).join('/'));
      } catch {
        // Left for the next run: a stray file is never worth failing a write for.
      }
    },
  });
  return removed;
}

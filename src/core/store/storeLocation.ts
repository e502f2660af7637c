/**
 * Where a store is, found the way git finds `.git`: the nearest `.lore/` folder in a folder or
 * one of its parents. Finding never creates anything: a store that is not there is reported, and
 * only `lore init` (or a write the user asked for) makes one.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { STORE_DIR_NAME } from './storePaths';

/** True when `dir` exists and is a folder. */
export function isDirectory(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** The nearest `.lore/` folder in `start` or above it, if any. */
export function nearestStoreDir(start: string): string | undefined {
  return nearestExisting(start, STORE_DIR_NAME);
}

/**
 * The nearest folder named by the relative path `relative` in `start` or above it: how a
 * relative `--root .lore` keeps working when an agent starts the server in a subfolder.
 */
export function nearestExisting(start: string, relative: string): string | undefined {
  let dir = path.resolve(start);
  for (;;) {
    const candidate = path.resolve(dir, relative);
    if (isDirectory(candidate)) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

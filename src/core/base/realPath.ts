/**
 * A path with its links resolved, for telling two spellings of one file or folder apart from two
 * files (a store named by a linked path, a prompt file reached through a link).
 */
import * as fs from 'node:fs';

/** The real path of `file`, or `fallback` when it cannot be resolved (missing, unreadable, a loop). */
export function realPathOr<T>(file: string, fallback: T): string | T {
  try {
    return fs.realpathSync(file);
  } catch {
    return fallback;
  }
}

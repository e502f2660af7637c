/**
 * Where a day's journal lives in a store; its format (parse, merge, render) is
 * model/journalFormat.ts.
 */
import * as path from 'node:path';
import { JOURNAL_DIR } from '../../model/journalFormat';
import type { StorePaths } from '../storePaths';

/** Absolute path of the journal of `date`. */
export function journalPath(paths: StorePaths, date: string): string {
  return path.join(paths.root, JOURNAL_DIR, `${date}.md`);
}

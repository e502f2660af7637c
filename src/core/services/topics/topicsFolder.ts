/**
 * Where a store's topics live, and whether it has any: what the Topics view asks at activation,
 * answered by one readdir without loading the topics' code (dist/topicsLibrary.js in VS Code).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { StorePaths } from '../../store/storePaths';

/** The topics folder of a store. */
export function topicsDir(paths: StorePaths): string {
  return path.join(paths.root, 'topics');
}

/** The topic files' names (`*.md`), in name order; none when the folder is missing or unreadable. */
export function topicFileNames(paths: StorePaths): string[] {
  try {
    return fs
      .readdirSync(topicsDir(paths))
      .filter((n) => n.endsWith('.md'))
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  } catch {
    return [];
  }
}

/**
 * Where archived knowledge lives: `archive/knowledge/<category>.md`, inside the store's archive/
 * (where reclaimed conversations also go). Apart from knowledgeArchive.ts so that the search
 * index, which only skips the folder, loads nothing else.
 */
import * as path from 'node:path';
import { CATEGORY_FILES, type CategoryFileKey } from '../../model/categories';
import type { StorePaths } from '../storePaths';

/** The folder of archived knowledge. */
export function knowledgeArchiveDir(paths: StorePaths): string {
  return path.join(paths.archive, 'knowledge');
}

/** The archive file of a category. */
export function archiveFileOf(paths: StorePaths, category: CategoryFileKey): string {
  return path.join(knowledgeArchiveDir(paths), CATEGORY_FILES[category].file);
}

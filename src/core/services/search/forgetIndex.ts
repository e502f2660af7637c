/**
 * The search index after a forget: brought up to date (the forgotten lines and transcripts leave
 * it) and purged, so the words are not left in the database's free pages or merged-away FTS5
 * segments. Only a store that has an index (`.index/`) is touched: a forget never builds one.
 */
import * as fs from 'node:fs';
import type { StorePaths } from '../../store/storePaths';
import { lazy } from '../../base/lazy';

const searchIndexModule = lazy(() => require('./searchIndex') as typeof import('./searchIndex'));

/** Updates and purges the store's index, when it has one. */
export async function purgeStoreIndex(paths: StorePaths): Promise<void> {
  if (!fs.existsSync(paths.index)) return;
  // Loaded only here: the index brings the SQLite driver.
  const { SearchIndex } = searchIndexModule();
  const index = SearchIndex.open(paths, { embedder: null, oneShot: true });
  try {
    await index.purge();
  } finally {
    index.close();
  }
}

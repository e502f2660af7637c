/**
 * A query against the search index as it is on disk, for callers that must answer in
 * milliseconds and must not write (`lore hook` before every prompt): no refresh, no build, no
 * fallback engine. With no index yet (or no SQLite driver able to load, or the index locked
 * past a short wait, or built by another schema version or flag rules) the answer is undefined and the caller
 * goes without hits; the next `lore search`, `lore mcp` or the extension builds or refreshes it.
 *
 * An index that is not refreshed may be behind the files. Each hit is checked against its file:
 * when the file's mtime and size are still the ones indexed, the hit stands; otherwise the file
 * is read again and the hit is kept only if its item is still there (with its line as it is
 * now), so an item a person deleted or rewrote is never handed out from a stale index.
 */
import * as fs from 'node:fs';
import { rank } from './hybrid';
import { tieredLexical } from './lexicalTiers';
import { indexDatabaseFile } from './openEngine';
import { parseQuery } from './queryParser';
import { SqliteBackend } from './sqliteBackend';
import { loadSqlite, type SqliteDatabase } from '../../base/sqliteDriver';
import { INDEX_USER_VERSION } from './sqliteSchema';
import { extractDocs } from './extractDocs';
import { statSource } from './sourceFiles';
import type { SearchCategory, SearchFilter, StoredDoc } from './searchTypes';
import type { StorePaths } from '../../store/storePaths';
import { readStoreFile } from '../../base/readText';

/** How long to wait for a writer's lock: a hook goes without hits rather than wait. */
const BUSY_TIMEOUT_MS = 250;
/** A changed file larger than this is not re-read to confirm its hits (they are left out). */
const MAX_RECHECK_BYTES = 4 * 1024 * 1024;

export interface IndexAsIsOptions {
  /** Hits to return at most. */
  limit: number;
  categories?: SearchCategory[];
}

/** A hit as the index holds it, confirmed against its file. */
export type IndexedHit = Pick<StoredDoc, 'category' | 'text' | 'file' | 'line' | 'source' | 'date' | 'notedPath' | 'flagged'>;

/**
 * Ranked hits for `query` from the existing index, confirmed against the files; undefined when
 * there is no index this can read now (see the module comment). Throws only on a bug: the
 * caller treats any error as "no hits".
 */
export function searchIndexAsIs(paths: StorePaths, query: string, options: IndexAsIsOptions): IndexedHit[] | undefined {
  const file = indexDatabaseFile(paths);
  if (!fs.existsSync(file)) return undefined;
  const sqlite = loadSqlite();
  if (!sqlite.driver) return undefined;
  let db: SqliteDatabase;
  try {
    db = sqlite.driver.open(file, { fileMustExist: true, busyTimeoutMs: BUSY_TIMEOUT_MS });
  } catch {
    return undefined;
  }
  try {
    if (db.pragma('user_version') !== INDEX_USER_VERSION) return undefined;
    const backend = new SqliteBackend(db, file);
    const filter: SearchFilter = { categories: options.categories };
    // A few more than asked: some may turn out stale.
    const pool = options.limit * 2;
    const { candidates } = tieredLexical(
      parseQuery(query),
      (q, step) => backend.query(q, { ...step, rankCap: Math.max(step.rankCap, pool) }, filter, pool).hits,
    );
    const ranked = rank(candidates, undefined).slice(0, pool);
    const docs = backend.getDocs(ranked.map((c) => c.id));
    return confirm(paths, db, docs).slice(0, options.limit);
  } catch {
    // Locked past the wait, or damaged: no hits this time; the next refresh elsewhere repairs it.
    return undefined;
  } finally {
    db.close();
  }
}

/** The docs whose items are still in their files, with their current lines, in the given order. */
function confirm(paths: StorePaths, db: SqliteDatabase, docs: StoredDoc[]): IndexedHit[] {
  const state = db.prepare('SELECT mtime, size FROM sources WHERE rel = ?');
  const current = new Map<string, Map<string, number | undefined> | 'unchanged' | 'gone'>();
  const hits: IndexedHit[] = [];
  for (const doc of docs) {
    let items = current.get(doc.file);
    if (items === undefined) {
      items = fileItems(paths, doc.file, state.get(doc.file) as { mtime: number; size: number } | undefined);
      current.set(doc.file, items);
    }
    if (items === 'gone') continue;
    const hit: IndexedHit = {
      category: doc.category,
      text: doc.text,
      file: doc.file,
      line: doc.line,
      source: doc.source,
      date: doc.date,
      notedPath: doc.notedPath,
      flagged: doc.flagged,
    };
    if (items === 'unchanged') hits.push(hit);
    else if (items.has(itemKey(doc))) hits.push({ ...hit, line: items.get(itemKey(doc)) });
  }
  return hits;
}

function itemKey(doc: { category: string; text: string; source?: string; date?: string; notedPath?: string }): string {
  return `${doc.category}\n${doc.notedPath ?? ''}\n${doc.source ?? ''}\n${doc.date ?? ''}\n${doc.text}`;
}

/** 'unchanged' when the file is as indexed, 'gone' when it cannot be confirmed, else its items now. */
function fileItems(
  paths: StorePaths,
  rel: string,
  indexed: { mtime: number; size: number } | undefined,
): Map<string, number | undefined> | 'unchanged' | 'gone' {
  const info = statSource(paths, rel);
  if (!info || !indexed) return 'gone';
  // A racy mtime was recorded as -1 (never equal): the content decides then.
  if (indexed.mtime === info.mtimeMs && indexed.size === info.size) return 'unchanged';
  if (info.size > MAX_RECHECK_BYTES) return 'gone';
  let text: string;
  try {
    text = readStoreFile(info.abs, 'utf8');
  } catch {
    return 'gone';
  }
  const items = new Map<string, number | undefined>();
  // Only where each item is now: the hit keeps the flag the index gave it, so the rules need not run here.
  for (const doc of extractDocs(info, text, { flags: false })) if (!items.has(itemKey(doc))) items.set(itemKey(doc), doc.line);
  return items;
}

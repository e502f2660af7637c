/**
 * The schema of `<store>/.index/lore.sqlite`: a regular `docs` table mirrored into an FTS5
 * external-content table (porter stemming, unicode61 folding, prefix indexes of 2–5 characters
 * for search-as-you-type: without them a 4-letter prefix merged the lists of every word it
 * starts, 3–4× slower, for 20% more index), a `sources` table for incremental updates and a
 * `vectors` table of float32 blobs keyed by model and content hash.
 */
import { lazy } from '../../base/lazy';
import type { SearchCategory, StoredDoc } from './searchTypes';
import type { SqliteDatabase } from '../../base/sqliteDriver';

// Only outside a bundle (see rulesHash).
const instructionFlags = lazy(() => require('../../model/safety/instructionFlags') as typeof import('../../model/safety/instructionFlags'));

/** Bumped whenever the schema or what is indexed changes; an older index is rebuilt (8: documents and paths redacted; 10: item ids). */
export const SCHEMA_VERSION = 10;

/**
 * The index's `user_version`: the schema, and a 20-bit hash of the planted-instruction rules its
 * `flagged` column was computed with. Agents' replies trust `flagged = 0` without running the
 * rules again, so an index flagged by other rules (an older Lore's) is rebuilt, and a hook reading
 * it as it is goes without hits until then: no item older rules let through is served as clean.
 */
export const INDEX_USER_VERSION = SCHEMA_VERSION * 0x100000 + (rulesHash() & 0xfffff);

/**
 * instructionRulesHash(), written into each bundle by esbuild.mjs (`define`): loading the rules to
 * hash them was a twentieth of a one-shot `lore search`. Undefined outside a bundle (tests, a
 * watch build), where the rules are hashed here.
 */
declare const LORE_INSTRUCTION_RULES_HASH: number | undefined;

function rulesHash(): number {
  return typeof LORE_INSTRUCTION_RULES_HASH === 'number' ? LORE_INSTRUCTION_RULES_HASH : instructionFlags().instructionRulesHash();
}

/**
 * How FTS5 ranks a match, for every full-text table Lore keeps (knowledge `fts`, `task_fts`):
 * bm25 over a text column and a `context` column (noted path, section, conversation title; a
 * task's goal) weighted 0.3 against it. Lower is better, as FTS5's `rank`.
 */
export const FTS_RANK = 'bm25(1.0, 0.3)';
/** In-memory pending-term buffer of FTS5: fewer segments to merge in a full build (default 1 MB). */
const FTS_HASH_BYTES = 16 * 1024 * 1024;

/**
 * FTS5's own segment merging, at its defaults, for every write: automerge merges a bounded step
 * at each commit, in proportion to what it wrote, and crisismerge caps the segments of each level,
 * so an index built in any number of transactions, of any size and on any machine load, keeps a
 * few dozen segments, far below FTS5's limit of 2,000 (past which every write fails with
 * "database or disk is full"). Measured on a build of 6,000 transactions: no slower, and no
 * longer commits, than with merging held off until the end. Earlier Lore versions held them off
 * during a build (0 and 1999), and one that died then left them so: they are set back at open.
 */
const FTS_MERGE_SETTINGS: Record<string, number> = { automerge: 4, crisismerge: 16 };

/** Facts about the index as a whole (sourceStamps.ts), a value per key. */
const META_TABLE = 'CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS sources(rel TEXT PRIMARY KEY, mtime REAL NOT NULL, size INTEGER NOT NULL, hash TEXT NOT NULL, docs INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS docs(id INTEGER PRIMARY KEY, file TEXT NOT NULL, line INTEGER, category TEXT NOT NULL, text TEXT NOT NULL,
  context TEXT NOT NULL, source TEXT, date TEXT, noted_path TEXT, section TEXT, hash TEXT NOT NULL, flagged INTEGER NOT NULL DEFAULT 0, item TEXT);
CREATE INDEX IF NOT EXISTS docs_file ON docs(file);
CREATE INDEX IF NOT EXISTS docs_noted ON docs(noted_path) WHERE noted_path IS NOT NULL;
CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(text, context, content='docs', content_rowid='id', tokenize='porter unicode61', prefix='2 3 4 5');
CREATE TABLE IF NOT EXISTS vectors(model TEXT NOT NULL, hash TEXT NOT NULL, dim INTEGER NOT NULL, vec BLOB NOT NULL, PRIMARY KEY(model, hash)) WITHOUT ROWID;
`;

/** Creates the schema, dropping an index built by another schema version or flagged by other rules. */
export function initSchema(db: SqliteDatabase): void {
  const version = db.pragma('user_version') as number;
  if (version !== INDEX_USER_VERSION) {
    db.exec(
      'DROP TABLE IF EXISTS fts; DROP TABLE IF EXISTS docs; DROP TABLE IF EXISTS sources; DROP TABLE IF EXISTS vectors; DROP TABLE IF EXISTS meta;',
    );
    db.exec(SCHEMA);
    db.prepare("INSERT INTO fts(fts, rank) VALUES ('rank', ?)").run(FTS_RANK);
    db.prepare("INSERT INTO fts(fts, rank) VALUES ('hashsize', ?)").run(BigInt(FTS_HASH_BYTES));
    db.pragma(`user_version = ${INDEX_USER_VERSION}`);
  }
  // Outside the version: an index of this version made before the table existed gains it.
  db.exec(META_TABLE);
  // Touch every table so a damaged file shows up now, not in the middle of a search (a row, not a
  // count: counting read all of sources, 40 ms of a one-shot search at 100,000 files; damage
  // deeper in a table is found in use, where the index is rebuilt as for the others).
  db.prepare('SELECT rel FROM sources LIMIT 1').get();
  db.prepare('SELECT count(*) FROM fts WHERE rowid = 0').get();
  restoreMergeSettings(db);
}

/** Sets FTS5's merge settings back where another process left them changed (see FTS_MERGE_SETTINGS). */
function restoreMergeSettings(db: SqliteDatabase): void {
  const rows = db.prepare("SELECT k, v FROM fts_config WHERE k IN ('automerge', 'crisismerge')").all() as Array<{ k: string; v: unknown }>;
  for (const { k, v } of rows) {
    if (Number(v) === FTS_MERGE_SETTINGS[k]) continue;
    try {
      db.prepare('INSERT INTO fts(fts, rank) VALUES (?, ?)').run(k, BigInt(FTS_MERGE_SETTINGS[k]));
    } catch {
      // Locked or read-only: the next open sets them back.
    }
  }
}

/** A `docs` row. */
export interface DocRow {
  id: number;
  file: string;
  line: number | null;
  category: string;
  text: string;
  context: string;
  source: string | null;
  date: string | null;
  noted_path: string | null;
  section: string | null;
  hash: string;
  flagged: number;
  item: string | null;
}

/** The `docs` columns, as selected with the alias `d`. */
export const DOC_COLUMNS =
  'd.id, d.file, d.line, d.category, d.text, d.context, d.source, d.date, d.noted_path, d.section, d.hash, d.flagged, d.item';

export function toDoc(row: DocRow): StoredDoc {
  return {
    id: row.id,
    file: row.file,
    line: row.line ?? undefined,
    category: row.category as SearchCategory,
    text: row.text,
    context: row.context,
    source: row.source ?? undefined,
    date: row.date ?? undefined,
    notedPath: row.noted_path ?? undefined,
    section: row.section ?? undefined,
    hash: row.hash,
    flagged: row.flagged === 1,
    item: row.item ?? undefined,
  };
}

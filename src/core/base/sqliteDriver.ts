/**
 * Loading better-sqlite3 and opening the index database without ever making search fatal. The
 * native module is required lazily (so a host where it cannot load still runs the rest of Lore),
 * a database that is corrupt or not a database is deleted and recreated (it is derived data),
 * and a locked one is reported so the caller can fall back instead of waiting forever.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { lazy } from './lazy';

/** The database class of better-sqlite3. */
export type SqliteDatabase = BetterSqlite3.Database;
/** A prepared statement with positional parameters. */
export type SqliteStatement = BetterSqlite3.Statement<unknown[], unknown>;
type DatabaseConstructor = typeof BetterSqlite3;

// Resolved at run time from node_modules (esbuild keeps it external): its .node binary must load from there.
const betterSqlite3 = lazy(() => require('better-sqlite3') as typeof import('better-sqlite3'));

let loaded: { driver?: DatabaseConstructor; error?: string } | undefined;

/**
 * better-sqlite3 with FTS5, or the reason it is unavailable. Loaded once per process; the check
 * runs a tiny FTS5 table in memory because a build without FTS5 is as useless here as none.
 */
export function loadSqlite(): { driver?: DatabaseConstructor; error?: string } {
  if (loaded) return loaded;
  try {
    const driver: DatabaseConstructor = betterSqlite3();
    const probe = new driver(':memory:');
    try {
      probe.exec("CREATE VIRTUAL TABLE probe USING fts5(x, tokenize='porter unicode61')");
    } finally {
      probe.close();
    }
    loaded = { driver };
  } catch (error) {
    loaded = { error: firstLine((error as Error).message) };
  }
  return loaded;
}

function firstLine(text: string): string {
  return text.split('\n')[0].slice(0, 300);
}

/** The SQLite result code of an error (`SQLITE_BUSY`, …), if it is one. */
export function sqliteCode(error: unknown): string {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' ? code : '';
}

/** Corruption: the file is not a database or a page is damaged. Rebuilding fixes it. */
export function isCorruption(error: unknown): boolean {
  return /^SQLITE_(CORRUPT|NOTADB)/.test(sqliteCode(error));
}

/** Another connection holds a lock we could not get within the busy timeout. */
export function isLocked(error: unknown): boolean {
  return /^SQLITE_(BUSY|LOCKED)/.test(sqliteCode(error));
}

/** Raised when the index is locked by someone else, so the caller falls back. */
export class IndexLockedError extends Error {
  constructor(file: string, cause: unknown) {
    super(`the search index ${file} is locked by another process (${firstLine((cause as Error).message)})`);
    this.name = 'IndexLockedError';
  }
}

/** Removes a database and its WAL and shared-memory files. */
export function deleteDatabaseFiles(file: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(file + suffix, { force: true });
}

export interface OpenOptions {
  busyTimeoutMs: number;
  /** Creates or migrates the schema; runs on every open. */
  init(db: SqliteDatabase): void;
  /** Told when a damaged database was deleted and recreated. */
  onRebuilt?(reason: string): void;
}

/**
 * Opens (creating if needed) the database at `file` in WAL mode and runs `init`. A corrupt file
 * is deleted and created afresh, once; a lock held past the busy timeout raises IndexLockedError.
 */
export function openDatabase(driver: DatabaseConstructor, file: string, options: OpenOptions): SqliteDatabase {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  for (let attempt = 0; ; attempt++) {
    let db: SqliteDatabase | undefined;
    try {
      db = new driver(file, { timeout: options.busyTimeoutMs });
      db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs))}`);
      db.pragma('journal_mode = WAL');
      // The index is derivable: losing the last transactions on power loss costs a re-index.
      db.pragma('synchronous = NORMAL');
      // A full build writes tens of MB in one transaction; a larger page cache (allocated only
      // as used) keeps the FTS b-trees from spilling. Negative means KiB.
      db.pragma('cache_size = -32768');
      options.init(db);
      return db;
    } catch (error) {
      try {
        db?.close();
      } catch {
        // Closing a half-open handle may fail too; the file is dealt with below.
      }
      if (isLocked(error)) throw new IndexLockedError(file, error);
      if (!isCorruption(error) || attempt > 0) throw error;
      deleteDatabaseFiles(file);
      options.onRebuilt?.(`the search index was damaged (${sqliteCode(error)}) and is rebuilt`);
    }
  }
}

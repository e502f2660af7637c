/**
 * The database the task side tables live in: the store's SQLite index through better-sqlite3
 * (WAL), as the knowledge search uses it. Where better-sqlite3 cannot load (a host without the
 * native module), Node's own SQLite (`node:sqlite`, Node 22.13+) opens the same file instead, so
 * task memory keeps its exact filters rather than failing; the reason is kept for the reply.
 * Only the small surface the task tables use is exposed, the same over both drivers.
 */
import * as path from 'node:path';
import type { StorePaths } from '../../store/storePaths';
import { ensureIndexDir, indexDatabaseFile } from '../search/openEngine';
import { loadSqlite, openDatabase, type SqliteDatabase } from '../../base/sqliteDriver';
import { lazy } from '../../base/lazy';

const sqliteModule = lazy(() => require('node:sqlite') as typeof import('node:sqlite'));

/** A prepared statement: positional parameters, rows as plain objects. */
export interface TaskStatement {
  all(...params: unknown[]): unknown[];
  get(...params: unknown[]): unknown;
  run(...params: unknown[]): unknown;
}

/** The database of the task tables. */
export interface TaskDb {
  prepare(sql: string): TaskStatement;
  exec(sql: string): void;
  /** `fn` in one transaction (rolled back when it throws). */
  transaction<T>(fn: () => T): T;
  close(): void;
  /** Which driver serves it, and why when it is not better-sqlite3. */
  readonly driver: string;
}

const BUSY_TIMEOUT_MS = 5000;

function fromBetterSqlite(db: SqliteDatabase): TaskDb {
  return {
    prepare: (sql) => db.prepare(sql) as unknown as TaskStatement,
    exec: (sql) => void db.exec(sql),
    transaction: (fn) => db.transaction(fn)(),
    close: () => db.close(),
    driver: 'better-sqlite3',
  };
}

function fromNodeSqlite(file: string, why: string): TaskDb {
  const { DatabaseSync } = sqliteModule();
  const db = new DatabaseSync(file);
  db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;`);
  return {
    prepare: (sql) => db.prepare(sql) as unknown as TaskStatement,
    exec: (sql) => db.exec(sql),
    transaction: (fn) => {
      db.exec('BEGIN IMMEDIATE');
      try {
        const result = fn();
        db.exec('COMMIT');
        return result;
      } catch (error) {
        db.exec('ROLLBACK');
        throw error;
      }
    },
    close: () => db.close(),
    driver: `node:sqlite (${why})`,
  };
}

/**
 * Opens the index database for the task tables and runs `init`. `LORE_TASKS_SQLITE=node` asks for
 * node:sqlite (what a host without better-sqlite3 gets); otherwise better-sqlite3, then node:sqlite.
 */
export function openTaskDb(paths: StorePaths, init: (db: TaskDb) => void, env: NodeJS.ProcessEnv = process.env): TaskDb {
  ensureIndexDir(paths);
  const file = indexDatabaseFile(paths);
  const forced = env.LORE_TASKS_SQLITE?.trim().toLowerCase() === 'node';
  const sqlite = forced ? { error: 'forced by LORE_TASKS_SQLITE=node' } : loadSqlite();
  if (sqlite.driver) return fromBetterSqlite(openDatabase(sqlite.driver, file, { busyTimeoutMs: BUSY_TIMEOUT_MS, init: (db) => init(fromBetterSqlite(db)) }));
  let db: TaskDb;
  try {
    db = fromNodeSqlite(path.resolve(file), forced ? 'forced by LORE_TASKS_SQLITE=node' : `better-sqlite3 could not load: ${sqlite.error}`);
  } catch (error) {
    throw new Error(`better-sqlite3 could not load (${sqlite.error}) and node:sqlite is not available (${(error as Error).message.split('\n')[0]})`, { cause: error });
  }
  init(db);
  return db;
}

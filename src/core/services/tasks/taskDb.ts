/**
 * The database the task side tables live in: the store's SQLite index (WAL), opened through the
 * same driver as the knowledge search (better-sqlite3, else node:sqlite; search/sqliteDriver.ts),
 * so task memory keeps its exact filters on a host without the native module. Which driver
 * serves, and why when it is not better-sqlite3, is kept for the reply.
 */
import type { StorePaths } from '../../store/storePaths';
import { ensureIndexDir, indexDatabaseFile } from '../search/openEngine';
import { loadSqlite, openDatabase, type SqliteDatabase, type SqliteStatement } from '../../base/sqliteDriver';

/** A prepared statement: positional parameters, rows as plain objects. */
export type TaskStatement = SqliteStatement;

/** The database of the task tables. */
export interface TaskDb extends SqliteDatabase {
  /** Which driver serves it, and why when it is not better-sqlite3. */
  readonly driver: string;
}

const BUSY_TIMEOUT_MS = 5000;

/**
 * Opens the index database for the task tables and runs `init`. `LORE_SQLITE_DRIVER=node` asks for
 * node:sqlite (what a host without better-sqlite3 gets); otherwise better-sqlite3, then node:sqlite.
 */
export function openTaskDb(paths: StorePaths, init: (db: TaskDb) => void, env: NodeJS.ProcessEnv = process.env): TaskDb {
  ensureIndexDir(paths);
  const sqlite = loadSqlite(env);
  if (!sqlite.driver) throw new Error(sqlite.error);
  const { name, why } = sqlite.driver;
  const driver = why ? `${name} (${why})` : name;
  const withDriver = (db: SqliteDatabase): TaskDb => Object.assign(Object.create(db) as SqliteDatabase, { driver });
  return withDriver(
    openDatabase(sqlite.driver, indexDatabaseFile(paths), { busyTimeoutMs: BUSY_TIMEOUT_MS, init: (db) => init(withDriver(db)) }),
  );
}

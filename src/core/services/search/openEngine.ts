/**
 * Choosing where the index lives: the SQLite file `.index/lore.sqlite` when a driver loads and
 * the file opens, else the same SQLite schema in memory (rebuilt from the files once per
 * process), always with a sentence saying which and why (the extension shows it). Both are the
 * one engine, FTS5; only where it keeps its pages differs.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { StorePaths } from '../../store/storePaths';
import { mkdirNoFollow, refuseLinks } from '../../base/storeLinks';
import { writeFileAtomic } from '../../base/atomicWrite';
import { NoIndexBackend, type LexicalBackend } from './lexicalBackend';
import { SqliteBackend } from './sqliteBackend';
import { initSchema } from './sqliteSchema';
import { IndexLockedError, deleteDatabaseFiles, loadSqlite, openDatabase, openMemoryDatabase } from '../../base/sqliteDriver';
import { FileVectorStore, SqliteVectorStore, type VectorStore } from './vectorStore';

/** Where to keep the index; `auto` is the file, with memory when it cannot be used. */
export type BackendChoice = 'auto' | 'memory';

/** The index database of a store. */
export function indexDatabaseFile(paths: StorePaths): string {
  return path.join(paths.index, 'lore.sqlite');
}

/** The in-memory index's vector file (vectors survive restarts without the database file too). */
function fallbackVectorFile(paths: StorePaths): string {
  return path.join(paths.index, 'vectors.bin');
}

export interface Engine {
  lexical: LexicalBackend;
  vectors: VectorStore;
  reason: string;
  /** True when the file was passed over only for a lock: worth trying again later. */
  locked?: boolean;
}

export interface EngineOptions {
  backend?: BackendChoice;
  env?: NodeJS.ProcessEnv;
  busyTimeoutMs?: number;
  log?: (message: string) => void;
}

/** The default wait for a lock held by another Lore process before falling back. */
const DEFAULT_BUSY_TIMEOUT_MS = 2000;

/** The backend asked for by the options, else by LORE_SEARCH_BACKEND, else auto. */
function requestedBackend(options: EngineOptions): { choice: BackendChoice; by: string } {
  if (options.backend && options.backend !== 'auto') return { choice: options.backend, by: `option backend: '${options.backend}'` };
  const env = (options.env ?? process.env).LORE_SEARCH_BACKEND?.trim().toLowerCase();
  if (env === 'memory') return { choice: env, by: `LORE_SEARCH_BACKEND=${env}` };
  return { choice: 'auto', by: 'default' };
}

/**
 * Creates `.index/` with a `.gitignore` of its own, so the derived index stays out of git even
 * in a store whose own .gitignore is missing (one created by `lore mcp` in a bare folder).
 */
export function ensureIndexDir(paths: StorePaths): void {
  const ignore = path.join(paths.index, '.gitignore');
  refuseLinks(ignore); // A linked .index/ would put the database wherever the link names.
  mkdirNoFollow(paths.index);
  if (!fs.existsSync(ignore)) writeFileAtomic(ignore, '# Derived by Lore: rebuilt when deleted\n*\n', { durable: false });
}

/** The index in memory, for when its file cannot serve; no index at all when SQLite cannot load. */
export function fallbackEngine(paths: StorePaths, reason: string, env?: NodeJS.ProcessEnv): Engine {
  const vectors = new FileVectorStore(fallbackVectorFile(paths), () => ensureIndexDir(paths));
  const sqlite = loadSqlite(env);
  if (!sqlite.driver) return { lexical: new NoIndexBackend(), vectors, reason: `search is unavailable: ${sqlite.error}` };
  const db = openMemoryDatabase(sqlite.driver, initSchema);
  return {
    lexical: new SqliteBackend(db, 'memory', 'memory'),
    vectors,
    reason: `${reason}; using an in-memory index${driverNote(sqlite.driver)}`,
  };
}

/** Opens the engine the options ask for. Never throws: every failure becomes the in-memory index. */
export function openEngine(paths: StorePaths, options: EngineOptions = {}): Engine {
  const { choice, by } = requestedBackend(options);
  if (choice === 'memory') return fallbackEngine(paths, `forced by ${by}`, options.env);
  const sqlite = loadSqlite(options.env);
  if (!sqlite.driver) return fallbackEngine(paths, '', options.env);
  const file = indexDatabaseFile(paths);
  try {
    ensureIndexDir(paths);
    const db = openDatabase(sqlite.driver, file, {
      busyTimeoutMs: options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS,
      init: initSchema,
      onRebuilt: (why) => options.log?.(why),
    });
    return {
      lexical: new SqliteBackend(db, file),
      vectors: new SqliteVectorStore(db),
      reason: `SQLite FTS5 index at ${file}${driverNote(sqlite.driver)}`,
    };
  } catch (error) {
    return { ...fallbackEngine(paths, describe(error), options.env), locked: error instanceof IndexLockedError };
  }
}

/** Says so when node:sqlite serves, and why. */
function driverNote(driver: { name: string; why: string }): string {
  return driver.name === 'better-sqlite3' ? '' : ` (through node:sqlite: ${driver.why})`;
}

/**
 * Deletes the database after corruption showed up in use (not at open) and opens a fresh one.
 * The caller re-syncs it from the files.
 */
export function reopenAfterCorruption(paths: StorePaths, current: Engine, options: EngineOptions): Engine {
  current.lexical.close();
  try {
    deleteDatabaseFiles(indexDatabaseFile(paths));
  } catch (error) {
    return fallbackEngine(paths, `the damaged index could not be deleted (${describe(error)})`, options.env);
  }
  options.log?.('the search index was damaged and is rebuilt');
  return openEngine(paths, options);
}

function describe(error: unknown): string {
  const message = String((error as Error)?.message ?? error).split('\n')[0];
  return /locked by another process/.test(message) ? message : `the index could not be opened (${message})`;
}

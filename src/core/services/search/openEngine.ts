/**
 * Choosing the lexical engine: SQLite when better-sqlite3 loads and the database opens, else the
 * minisearch fallback, always with a sentence saying which and why (the extension shows it).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { StorePaths } from '../../store/storePaths';
import { refuseLinks } from '../../base/storeLinks';
import type { LexicalBackend } from './lexicalBackend';
import { MiniSearchBackend } from './miniSearchBackend';
import { SqliteBackend } from './sqliteBackend';
import { initSchema } from './sqliteSchema';
import { IndexLockedError, deleteDatabaseFiles, loadSqlite, openDatabase } from '../../base/sqliteDriver';
import { FileVectorStore, SqliteVectorStore, type VectorStore } from './vectorStore';

/** Which engine to use; `auto` is SQLite with the fallback. */
export type BackendChoice = 'auto' | 'sqlite' | 'minisearch';

/** The index database of a store. */
export function indexDatabaseFile(paths: StorePaths): string {
  return path.join(paths.index, 'lore.sqlite');
}

/** The fallback's vector file (vectors survive restarts without SQLite too). */
function fallbackVectorFile(paths: StorePaths): string {
  return path.join(paths.index, 'vectors.bin');
}

export interface Engine {
  lexical: LexicalBackend;
  vectors: VectorStore;
  reason: string;
  /** True when SQLite was passed over only for a lock: worth trying again later. */
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
  if (env === 'minisearch' || env === 'sqlite') return { choice: env, by: `LORE_SEARCH_BACKEND=${env}` };
  return { choice: 'auto', by: 'default' };
}

/**
 * Creates `.index/` with a `.gitignore` of its own, so the derived index stays out of git even
 * in a store whose own .gitignore is missing (one created by `lore mcp` in a bare folder).
 */
export function ensureIndexDir(paths: StorePaths): void {
  const ignore = path.join(paths.index, '.gitignore');
  refuseLinks(ignore); // A linked .index/ would put the database wherever the link names.
  fs.mkdirSync(paths.index, { recursive: true });
  if (!fs.existsSync(ignore)) fs.writeFileSync(ignore, '# Derived by Lore: rebuilt when deleted\n*\n');
}

/** The in-memory engine, for when SQLite cannot serve. */
export function fallbackEngine(paths: StorePaths, reason: string): Engine {
  return { lexical: new MiniSearchBackend(), vectors: new FileVectorStore(fallbackVectorFile(paths), () => ensureIndexDir(paths)), reason };
}

/** Opens the engine the options ask for. Never throws: every failure becomes the fallback. */
export function openEngine(paths: StorePaths, options: EngineOptions = {}): Engine {
  const { choice, by } = requestedBackend(options);
  if (choice === 'minisearch') return fallbackEngine(paths, `in-memory minisearch index, forced by ${by}`);
  const sqlite = loadSqlite();
  if (!sqlite.driver) return fallbackEngine(paths, `better-sqlite3 could not load (${sqlite.error}); using the in-memory minisearch fallback`);
  const file = indexDatabaseFile(paths);
  try {
    ensureIndexDir(paths);
    const db = openDatabase(sqlite.driver, file, {
      busyTimeoutMs: options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS,
      init: initSchema,
      onRebuilt: (why) => options.log?.(why),
    });
    return { lexical: new SqliteBackend(db, file), vectors: new SqliteVectorStore(db), reason: `SQLite FTS5 index at ${file}` };
  } catch (error) {
    return { ...fallbackEngine(paths, `${describe(error)}; using the in-memory minisearch fallback`), locked: error instanceof IndexLockedError };
  }
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
    return fallbackEngine(paths, `the damaged index could not be deleted (${describe(error)}); using the in-memory minisearch fallback`);
  }
  options.log?.('the search index was damaged and is rebuilt');
  return openEngine(paths, options);
}

function describe(error: unknown): string {
  const message = String((error as Error)?.message ?? error).split('\n')[0];
  return /locked by another process/.test(message) ? message : `the index could not be opened (${message})`;
}

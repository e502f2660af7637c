/**
 * SQLite for every part of Lore that needs it (the search index, the task tables, OpenCode's
 * database): better-sqlite3 where the native module loads, else Node's own `node:sqlite` (Node
 * 22.13+; both have FTS5; a one-shot search takes it first, see preferBuiltinSqlite), behind one
 * small interface, so no caller knows or cares which one serves. Drivers are loaded lazily (a host where neither loads still runs the rest of Lore), a
 * database that is corrupt or not a database is deleted and recreated (it is derived data), and
 * a locked one is reported so the caller can answer from memory instead of waiting forever.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { lazy } from './lazy';

// Resolved at run time from node_modules (esbuild keeps it external): its .node binary must load from there.
const betterSqlite3 = lazy(() => require('better-sqlite3') as typeof BetterSqlite3);
const nodeSqliteModule = lazy(() => require('node:sqlite') as typeof import('node:sqlite'));

/** A prepared statement with positional parameters; rows as plain objects unless asked. */
export interface SqliteStatement {
  run(...params: unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  /** Rows as arrays of their column values, in column order. */
  values(...params: unknown[]): unknown[][];
  iterate(...params: unknown[]): Iterable<unknown>;
}

/** An open database, the same over both drivers. */
export interface SqliteDatabase {
  prepare(sql: string): SqliteStatement;
  exec(sql: string): void;
  /** Runs `PRAGMA <pragma>` and returns the first column of its first row (undefined: no row). */
  pragma(pragma: string): unknown;
  /** `fn` in one write transaction (BEGIN IMMEDIATE; a savepoint when nested), rolled back when it throws. */
  transaction<T>(fn: () => T): T;
  readonly open: boolean;
  close(): void;
}

export interface OpenFlags {
  readonly?: boolean;
  fileMustExist?: boolean;
  /** How long a statement waits for another connection's lock before SQLITE_BUSY. */
  busyTimeoutMs?: number;
}

/** A driver that loaded and has FTS5. */
export interface SqliteDriver {
  readonly name: 'better-sqlite3' | 'node:sqlite';
  /** Why this driver and not better-sqlite3 (empty for better-sqlite3). */
  readonly why: string;
  open(file: string, flags?: OpenFlags): SqliteDatabase;
}

/** Set to `node` to use node:sqlite even where better-sqlite3 loads (what a host without it gets). */
export const DRIVER_ENV = 'LORE_SQLITE_DRIVER';

const loaded = new Map<string, { driver?: SqliteDriver; error?: string }>();

/** Set by preferBuiltinSqlite. */
let builtinFirst = false;

/** The first Node whose node:sqlite loads without an ExperimentalWarning (Node 22 prints one at every load). */
const QUIET_BUILTIN_NODE = 24;

/**
 * For a process that runs one short command (dist/search.js): node:sqlite first, better-sqlite3
 * when it cannot serve. Loading better-sqlite3's native module was a tenth of a one-shot `lore
 * search`; Node's own module loads in about a millisecond. Only on Node 24 and later, where it
 * loads silently. Process-wide and called before any database opens, because one process must not
 * open a file through two SQLite libraries: each keeps its own POSIX locks, and closing the file
 * in one drops the locks the other holds.
 */
export function preferBuiltinSqlite(nodeVersion = process.versions.node): void {
  if (Number(nodeVersion.split('.')[0]) >= QUIET_BUILTIN_NODE && loaded.size === 0) builtinFirst = true;
}

/**
 * A SQLite driver with FTS5, or why there is none. better-sqlite3 first, node:sqlite second
 * (first after preferBuiltinSqlite); each is loaded and checked once per process with a tiny FTS5
 * table in memory, because a build without FTS5 is as useless here as none.
 */
export function loadSqlite(env: NodeJS.ProcessEnv = process.env): { driver?: SqliteDriver; error?: string } {
  const forced = env[DRIVER_ENV]?.trim().toLowerCase() === 'node';
  const key = forced ? 'forced' : builtinFirst ? 'builtin first' : 'native first';
  const known = loaded.get(key);
  if (known) return known;
  const preferred = !forced && builtinFirst ? tryDriver(() => nodeSqlite('preferred for a one-shot command: it loads faster')) : undefined;
  let result = preferred?.driver ? preferred : forced ? undefined : tryDriver(betterSqlite);
  if (!result?.driver) {
    const why = result ? `better-sqlite3 could not load: ${result.error}` : `forced by ${DRIVER_ENV}=node`;
    const tried = result ? `better-sqlite3 could not load (${result.error}) and node:sqlite` : `node:sqlite (${why})`;
    const builtin = preferred ?? tryDriver(() => nodeSqlite(why));
    result = builtin.driver
      ? builtin
      : {
          error: `${tried} is not available (${builtin.error}); Lore's search and task memory need Node 22.13 or later, or better-sqlite3 built for this Node`,
        };
  }
  loaded.set(key, result);
  return result;
}

function tryDriver(make: () => SqliteDriver): { driver?: SqliteDriver; error?: string } {
  try {
    const driver = make();
    const probe = driver.open(':memory:');
    try {
      probe.exec("CREATE VIRTUAL TABLE probe USING fts5(x, tokenize='porter unicode61')");
    } finally {
      probe.close();
    }
    return { driver };
  } catch (error) {
    return { error: firstLine((error as Error).message) };
  }
}

function betterSqlite(): SqliteDriver {
  const Database = betterSqlite3();
  return {
    name: 'better-sqlite3',
    why: '',
    open(file, flags = {}) {
      const db = new Database(file, {
        readonly: flags.readonly ?? false,
        fileMustExist: flags.fileMustExist ?? false,
        ...(flags.busyTimeoutMs === undefined ? {} : { timeout: flags.busyTimeoutMs }),
      });
      const raw = new Map<string, BetterSqlite3.Statement<unknown[], unknown>>();
      return {
        prepare(sql) {
          const statement = db.prepare<unknown[]>(sql);
          return {
            run: (...params) => statement.run(...params),
            get: (...params) => statement.get(...params),
            all: (...params) => statement.all(...params),
            values(...params) {
              // raw() switches a statement for good: a second one answers in arrays.
              let arrays = raw.get(sql);
              if (!arrays) raw.set(sql, (arrays = db.prepare<unknown[]>(sql).raw(true)));
              return arrays.all(...params) as unknown[][];
            },
            iterate: (...params) => statement.iterate(...params),
          };
        },
        exec: (sql) => void db.exec(sql),
        pragma: (pragma) => db.pragma(pragma, { simple: true }),
        // IMMEDIATE takes the write lock up front: two writers never deadlock upgrading a read lock.
        transaction: (fn) => db.transaction(fn).immediate(),
        get open() {
          return db.open;
        },
        close: () => db.close(),
      };
    },
  };
}

function nodeSqlite(why: string): SqliteDriver {
  const { DatabaseSync } = nodeSqliteModule();
  return {
    name: 'node:sqlite',
    why,
    open(file, flags = {}) {
      if (flags.fileMustExist && file !== ':memory:' && !fs.existsSync(file))
        throw Object.assign(new Error(`unable to open database file ${file}`), { code: 'SQLITE_CANTOPEN' });
      const db = new DatabaseSync(file, { readOnly: flags.readonly ?? false });
      let open = true;
      let depth = 0;
      if (flags.busyTimeoutMs !== undefined) db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(flags.busyTimeoutMs))}`);
      return {
        prepare(sql) {
          const statement = db.prepare(sql);
          const params = (values: unknown[]) => values as import('node:sqlite').SQLInputValue[];
          return {
            run: (...values) => statement.run(...params(values)),
            // Rows as plain objects, as better-sqlite3 gives them (node:sqlite's have no prototype).
            get: (...values) => plain(statement.get(...params(values))),
            all: (...values) => statement.all(...params(values)).map(plain),
            values: (...values) => statement.all(...params(values)).map((row) => Object.values(row)),
            iterate: function* (...values) {
              for (const row of statement.iterate(...params(values))) yield plain(row);
            },
          };
        },
        exec: (sql) => db.exec(sql),
        pragma(pragma) {
          const row = db.prepare(`PRAGMA ${pragma}`).get();
          return row ? Object.values(row)[0] : undefined;
        },
        transaction<T>(fn: () => T): T {
          const name = `lore_${depth}`;
          db.exec(depth === 0 ? 'BEGIN IMMEDIATE' : `SAVEPOINT ${name}`);
          depth++;
          try {
            const result = fn();
            depth--;
            db.exec(depth === 0 ? 'COMMIT' : `RELEASE ${name}`);
            return result;
          } catch (error) {
            depth--;
            db.exec(depth === 0 ? 'ROLLBACK' : `ROLLBACK TO ${name}; RELEASE ${name}`);
            throw error;
          }
        },
        get open() {
          return open;
        },
        close() {
          open = false;
          db.close();
        },
      };
    },
  };
}

function plain(row: object | undefined): object | undefined {
  return row && { ...row };
}

function firstLine(text: string): string {
  return text.split('\n')[0].slice(0, 300);
}

/** Primary result codes by number: node:sqlite reports `errcode`, better-sqlite3 the name. */
const CODE_NAMES: Record<number, string> = {
  5: 'SQLITE_BUSY',
  6: 'SQLITE_LOCKED',
  8: 'SQLITE_READONLY',
  10: 'SQLITE_IOERR',
  11: 'SQLITE_CORRUPT',
  13: 'SQLITE_FULL',
  14: 'SQLITE_CANTOPEN',
  26: 'SQLITE_NOTADB',
};

/** The SQLite result code of an error (`SQLITE_BUSY`, …), if it is one; either driver's. */
export function sqliteCode(error: unknown): string {
  const { code, errcode } = (error ?? {}) as { code?: unknown; errcode?: unknown };
  if (typeof code === 'string' && code.startsWith('SQLITE_')) return code;
  if (typeof errcode === 'number') return CODE_NAMES[errcode & 0xff] ?? 'SQLITE_ERROR';
  return typeof code === 'string' && code !== 'ERR_SQLITE_ERROR' ? code : '';
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
export function openDatabase(driver: SqliteDriver, file: string, options: OpenOptions): SqliteDatabase {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  for (let attempt = 0; ; attempt++) {
    let db: SqliteDatabase | undefined;
    try {
      db = driver.open(file, { busyTimeoutMs: options.busyTimeoutMs });
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

/** A database in memory with `init` run: the index when its file cannot be used. */
export function openMemoryDatabase(driver: SqliteDriver, init: (db: SqliteDatabase) => void): SqliteDatabase {
  const db = driver.open(':memory:');
  init(db);
  return db;
}

/**
 * OpenCode keeps a session in many files or rows, never in one file. Up to 1.1 it wrote a storage
 * folder (`~/.local/share/opencode/storage/`): `session/<project>/<session>.json`,
 * `message/<session>/<message>.json`, `part/<message>/<part>.json`. Since 1.2.0 it migrates that
 * folder once into `opencode.db` (`opencode-<channel>.db` for other release channels; tables
 * `session`, `message` and `part`, the message and part bodies as JSON in `data`), leaves the
 * folder behind as it was and writes only the database. (2.x adds `session_v2` tables, which are
 * not read here.) This module lists the sessions of either and
 * assembles each into the document `opencode export` writes (opencode.ts reads it), serialised
 * canonically: keys sorted, messages and parts in id order (OpenCode's ids sort by creation), and
 * only fields both stores hold, so one session gives the same bytes, and so the same sha256 in
 * the ledger, from the folder and from the database it was migrated into.
 * Subagent sessions (those with a parent) are not listed: what they found is their parent's
 * task output. Read-only; the database is opened read-only. Written from anomalyco/opencode
 * packages/opencode/src/storage/json-migration.ts (read in 2026-11).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { canonicalJson } from '../../base/canonicalJson';
import { loadSqlite } from '../../base/sqliteDriver';
import { isObject, type JsonObject } from './importSupport';
import { readStoreFile } from '../../base/readText';

/** Where an OpenCode session is read from. */
export interface OpenCodeSessionSource {
  kind: 'opencode-storage' | 'opencode-db';
  /** The storage folder or the database file. */
  root: string;
  id: string;
}

/** One listed session: the path that names it in reports and the ledger, and where to read it. */
export interface OpenCodeSessionEntry {
  path: string;
  source: OpenCodeSessionSource;
  /** The folder OpenCode ran in, as the database records it (which workspace the session is of). */
  directory?: string;
}

/** A session assembled as an `opencode export` document. */
export interface AssembledSession {
  text: string;
  /** The newest write among its files or rows (ms). */
  mtimeMs: number;
}

/** The name OpenCode gives its storage folder. */
export const OPENCODE_STORAGE_NAME = 'storage';
/** OpenCode's database file name. */
export const OPENCODE_DB_NAME = 'opencode.db';

/** Whether `dir` is an OpenCode storage folder: it holds `session/` and `message/`. */
export function isOpenCodeStorageFolder(dir: string): boolean {
  return isDirectory(path.join(dir, 'session')) && isDirectory(path.join(dir, 'message'));
}

/** Whether `file` is named like OpenCode's database: `opencode.db`, `opencode-<channel>.db`. */
export function isOpenCodeDatabase(file: string): boolean {
  return /^opencode(?:-[\w.-]+)?\.db$/.test(path.basename(file));
}

/**
 * The top-level sessions of a storage folder, each named by its session file. A session that is
 * also in the `opencode.db` beside the folder is left to the database: OpenCode migrated it there
 * and went on writing there, so the folder's copy may be an older, shorter one.
 */
export function listStorageSessions(root: string): OpenCodeSessionEntry[] {
  const migrated = migratedSessionIds(path.join(path.dirname(root), OPENCODE_DB_NAME));
  const out: OpenCodeSessionEntry[] = [];
  const sessions = path.join(root, 'session');
  for (const project of sortedNames(sessions)) {
    const dir = path.join(sessions, project);
    if (!isDirectory(dir)) continue;
    for (const name of sortedNames(dir)) {
      if (!name.endsWith('.json')) continue;
      const id = name.slice(0, -'.json'.length);
      const info = readJson(path.join(dir, name));
      // A file that does not parse is still listed: reading it reports it unrecognized, never silently gone.
      if ((info && typeof info.parentID === 'string') || migrated.has(id)) continue;
      out.push({ path: path.join(dir, name), source: { kind: 'opencode-storage', root, id } });
    }
  }
  return out;
}

/** The top-level sessions of a database, each named `<db>#<session id>`. Throws when it cannot be read. */
export function listDatabaseSessions(file: string): OpenCodeSessionEntry[] {
  return withDatabase(file, (db) =>
    (
      db.prepare('SELECT id, directory FROM session WHERE parent_id IS NULL ORDER BY id').all() as Array<{
        id: string;
        directory: string | null;
      }>
    ).map(({ id, directory }) => ({
      path: databaseSessionPath(file, id),
      source: { kind: 'opencode-db' as const, root: file, id },
      directory: directory ?? undefined,
    })),
  );
}

/** How a database session is named in reports, the ledger and `--from`: `<db>#<session id>`. */
export function databaseSessionPath(file: string, id: string): string {
  return `${file}#${id}`;
}

/** The database and session id a `<db>#<session id>` name stands for, when it is one. */
export function parseDatabaseSessionPath(name: string): { file: string; id: string } | undefined {
  const at = name.lastIndexOf('#');
  if (at <= 0) return undefined;
  const file = name.slice(0, at);
  const id = name.slice(at + 1);
  return isOpenCodeDatabase(file) && /^[\w-]+$/.test(id) ? { file, id } : undefined;
}

/** Every session id of a database, or none when there is no database or it cannot be read. */
function migratedSessionIds(file: string): Set<string> {
  if (!fs.existsSync(file)) return new Set();
  try {
    return withDatabase(file, (db) => new Set((db.prepare('SELECT id FROM session').all() as Array<{ id: string }>).map((row) => row.id)));
  } catch {
    // The database is listed on its own and its problem reported there; the folder is read as it is.
    return new Set();
  }
}

/** Reads one session. Throws when its store cannot be read. */
export function assembleSession(source: OpenCodeSessionSource): AssembledSession {
  return source.kind === 'opencode-db' ? assembleFromDatabase(source.root, source.id) : assembleFromStorage(source.root, source.id);
}

function assembleFromStorage(root: string, id: string): AssembledSession {
  let mtimeMs = 0;
  const read = (file: string): JsonObject | undefined => {
    try {
      mtimeMs = Math.max(mtimeMs, fs.statSync(file).mtimeMs);
    } catch {
      return undefined;
    }
    return readJson(file);
  };
  const sessionFile = sortedNames(path.join(root, 'session'))
    .map((project) => path.join(root, 'session', project, `${id}.json`))
    .find((file) => fs.existsSync(file));
  if (!sessionFile) throw new Error(`OpenCode session ${id} is gone from ${root}`);
  const raw = read(sessionFile) ?? {};
  // The folder names the project, as OpenCode's own migration takes it.
  const info = sessionInfo({ ...raw, id, projectID: path.basename(path.dirname(sessionFile)) });
  const messages: JsonObject[] = [];
  const messageDir = path.join(root, 'message', id);
  for (const name of sortedNames(messageDir)) {
    if (!name.endsWith('.json')) continue;
    const messageId = name.slice(0, -'.json'.length);
    const message = read(path.join(messageDir, name));
    if (!message) continue;
    const parts: JsonObject[] = [];
    const partDir = path.join(root, 'part', messageId);
    for (const partName of sortedNames(partDir)) {
      if (!partName.endsWith('.json')) continue;
      const part = read(path.join(partDir, partName));
      if (part) parts.push(withoutKeys({ ...part, id: partName.slice(0, -'.json'.length) }, ['messageID', 'sessionID']));
    }
    messages.push({ info: withoutKeys({ ...message, id: messageId }, ['sessionID']), parts });
  }
  return { text: canonicalJson({ info, messages }), mtimeMs };
}

function assembleFromDatabase(file: string, id: string): AssembledSession {
  return withDatabase(file, (db) => {
    const row = db
      .prepare('SELECT id, project_id, parent_id, directory, title, version, time_created, time_updated FROM session WHERE id = ?')
      .get(id) as
      | {
          id: string;
          project_id: string;
          parent_id: string | null;
          directory: string;
          title: string;
          version: string;
          time_created: number;
          time_updated: number;
        }
      | undefined;
    if (!row) throw new Error(`OpenCode session ${id} is gone from ${file}`);
    let mtimeMs = row.time_updated;
    const info = sessionInfo({
      id: row.id,
      projectID: row.project_id,
      parentID: row.parent_id ?? undefined,
      directory: row.directory,
      title: row.title,
      version: row.version,
      time: { created: row.time_created, updated: row.time_updated },
    });
    const parts = new Map<string, JsonObject[]>();
    for (const part of db
      .prepare('SELECT id, message_id, time_updated, data FROM part WHERE session_id = ? ORDER BY id')
      .iterate(id) as Iterable<{ id: string; message_id: string; time_updated: number; data: string }>) {
      mtimeMs = Math.max(mtimeMs, part.time_updated);
      const list = parts.get(part.message_id) ?? [];
      list.push({ ...parseData(part.data), id: part.id });
      parts.set(part.message_id, list);
    }
    const messages: JsonObject[] = [];
    for (const message of db
      .prepare('SELECT id, time_updated, data FROM message WHERE session_id = ? ORDER BY id')
      .iterate(id) as Iterable<{ id: string; time_updated: number; data: string }>) {
      mtimeMs = Math.max(mtimeMs, message.time_updated);
      messages.push({ info: { ...parseData(message.data), id: message.id }, parts: parts.get(message.id) ?? [] });
    }
    return { text: canonicalJson({ info, messages }), mtimeMs };
  });
}

/** The session fields both stores hold (the database keeps the rest in other columns, or not at all). */
function sessionInfo(data: JsonObject): JsonObject {
  const time = isObject(data.time) ? data.time : {};
  return {
    id: data.id,
    projectID: data.projectID,
    parentID: typeof data.parentID === 'string' ? data.parentID : undefined,
    directory: data.directory,
    title: data.title,
    version: data.version,
    time: { created: time.created, updated: time.updated },
  };
}

function withDatabase<T>(file: string, use: (db: import('../../base/sqliteDriver').SqliteDatabase) => T): T {
  const { driver, error } = loadSqlite();
  if (!driver) throw new Error(`cannot read the OpenCode database: SQLite is unavailable (${error})`);
  const db = driver.open(file, { readonly: true, fileMustExist: true });
  try {
    return use(db);
  } finally {
    db.close();
  }
}

function parseData(data: string): JsonObject {
  try {
    const value: unknown = JSON.parse(data);
    return isObject(value) ? value : {};
  } catch {
    return {};
  }
}

function readJson(file: string): JsonObject | undefined {
  try {
    const value: unknown = JSON.parse(readStoreFile(file, 'utf8'));
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function withoutKeys(value: JsonObject, keys: string[]): JsonObject {
  const out = { ...value };
  for (const key of keys) delete out[key];
  return out;
}

function sortedNames(dir: string): string[] {
  try {
    return fs.readdirSync(dir).sort();
  } catch {
    return [];
  }
}

function isDirectory(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Conversations that are not one file. Some tools keep every session in a store of their own,
 * one session spread over many files or rows: OpenCode's storage folder and its database. A scan
 * expands such a store into one source per session, and reading that source gives the session's
 * assembled bytes, which stand for it exactly as a file's bytes do: their sha256 is its identity
 * in the ledger, their size its raw size. An assembled source is never reclaimed: the store
 * belongs to its tool, like any file read from outside the inbox.
 */
import * as path from 'node:path';
import {
  OPENCODE_STORAGE_NAME,
  assembleSession,
  isOpenCodeDatabase,
  isOpenCodeStorageFolder,
  listDatabaseSessions,
  listStorageSessions,
  parseDatabaseSessionPath,
  type OpenCodeSessionSource,
} from './opencodeStore';

/** How to read a conversation assembled from a tool's store. */
export type AssembledSource = OpenCodeSessionSource;

/** One session of a store, as the scan lists it. */
export interface AssembledEntry {
  path: string;
  assembled: AssembledSource;
}

/**
 * The sessions of a folder that is a tool's store, or undefined when it is an ordinary folder.
 * `named`: only a folder with the store's own name (OpenCode's `storage`) is looked into, which
 * spares a walk two stat calls per folder (a tenth of a large scan's time); a folder named on
 * the command line is looked into whatever its name.
 */
export function storeFolderSessions(dir: string, { named = false } = {}): AssembledEntry[] | undefined {
  if (named && path.basename(dir) !== OPENCODE_STORAGE_NAME) return undefined;
  if (!isOpenCodeStorageFolder(dir)) return undefined;
  return listStorageSessions(dir).map(({ path, source }) => ({ path, assembled: source }));
}

/** Whether a file name is a tool's store (a database a scan expands into its sessions). */
export function isStoreFileName(name: string): boolean {
  return isOpenCodeDatabase(name);
}

/**
 * The sessions of a file that is a tool's store (a database), or the one session a store's session
 * file stands for (`storage/session/<project>/<id>.json`, as discovery lists OpenCode's sessions);
 * undefined for any other file. Throws when a database cannot be read.
 */
export function storeFileSessions(file: string): AssembledEntry[] | undefined {
  const session = assembledSourceAt(file);
  if (session) return [{ path: file, assembled: session }];
  if (!isOpenCodeDatabase(file)) return undefined;
  return listDatabaseSessions(file).map(({ path, source }) => ({ path, assembled: source }));
}

/**
 * How to read the session `file` names, when it is one of a store's: a storage session file, or
 * `<db>#<session id>` (how a database session is listed); else undefined.
 */
export function assembledSourceAt(file: string): AssembledSource | undefined {
  const inDatabase = parseDatabaseSessionPath(file);
  if (inDatabase) return { kind: 'opencode-db', root: path.resolve(inDatabase.file), id: inDatabase.id };
  const storage = path.dirname(path.dirname(path.dirname(file)));
  if (!file.endsWith('.json') || path.basename(path.dirname(path.dirname(file))) !== 'session' || !isOpenCodeStorageFolder(storage))
    return undefined;
  return { kind: 'opencode-storage', root: storage, id: path.basename(file, '.json') };
}

/** An assembled session's bytes and the time its newest piece was written. Throws when its store cannot be read. */
export function readAssembledSource(source: AssembledSource): { buffer: Buffer; mtimeMs: number } {
  const session = assembleSession(source);
  return { buffer: Buffer.from(session.text, 'utf8'), mtimeMs: session.mtimeMs };
}

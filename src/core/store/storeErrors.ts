/**
 * File-system failures on store files, told as what happened and what to do. Node's own
 * messages are terse and often lack the path (`EISDIR: illegal operation on a directory, read`),
 * so the CLI's top-level handler and the extension's error display both go through
 * `describeFileError`, and `checkStoreEntries` names a misplaced folder before anything is written.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CATEGORY_FILES } from '../model/categories';
import type { StorePaths } from './storePaths';
import { StoreEntryError } from '../base/storeLinks';

type ErrnoLike = { code?: unknown; path?: unknown; dest?: unknown; message?: unknown };

/**
 * What went wrong with `file` (or the path the error names) and what to do about it, for a Node
 * errno error; undefined for any other error, so that callers fall back to its own message.
 */
export function describeFileError(error: unknown, file?: string): string | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const { code, path: errorPath, dest, message } = error as ErrnoLike;
  if (typeof code !== 'string') return undefined;
  // A failed rename names the temporary file as `path`; the file in the way is `dest`.
  const named = file ?? (typeof dest === 'string' ? dest : undefined) ?? (typeof errorPath === 'string' ? errorPath : undefined);
  // Without a path, Node's own message is all there is to go on: keep it.
  const target = named ?? `a file Lore needs (${String(message ?? code)})`;
  switch (code) {
    case 'EISDIR':
      return `${target} is a folder, not a file: move it away and run again.`;
    case 'ENOTDIR':
      return `${target}: part of this path is a file where a folder should be: move that file away and run again.`;
    case 'EACCES':
    case 'EPERM':
      return `permission denied: ${target}. Give yourself read and write access to it, or use another store, and run again.`;
    case 'EROFS':
      return `${target} is on a read-only file system: use a store on a writable disk.`;
    case 'ENOSPC':
    case 'EDQUOT':
      return `the disk is ${code === 'ENOSPC' ? 'full' : 'over its quota'} (${named ?? 'writing the store'}). Nothing was reclaimed and the files written before are intact; free some space and run again.`;
    case 'EFBIG':
      return `a file would exceed the file-size limit (${named ?? 'writing the store'}; see \`ulimit -f\`). Nothing was reclaimed and the files written before are intact; raise the limit and run again.`;
    case 'EMFILE':
    case 'ENFILE':
      return `too many open files (${target}): close other programs or raise the limit (ulimit -n) and run again.`;
    case 'ENAMETOOLONG':
      return `${target}: the name is too long for the file system.`;
    case 'ELOOP':
      return `${target}: too many levels of symbolic links (a link pointing to itself?): fix the link and run again.`;
    case 'EBUSY':
      return `${target} is busy (held by another program): close that program and run again.`;
    case 'EIO':
      return `input/output error on ${target}: the disk may be failing; check it and run again.`;
    default:
      return undefined;
  }
}

/**
 * Whether a failure is the disk's or the store's files' rather than the data's: a Node errno error,
 * a write the disk cut short and a file another program keeps changing carry a `code`; a folder
 * where a file should be is a StoreEntryError. Anything else (Maximum call stack size exceeded, an
 * invalid string length) came from what was being written. The harvest keeps the model's replies
 * after a failure of the store, and drops them after any other, so that a reply that cannot be
 * written never fails every later harvest the same way.
 */
export function isStoreFault(error: unknown): boolean {
  return error instanceof StoreEntryError || (!!error && typeof error === 'object' && typeof (error as ErrnoLike).code === 'string');
}

/**
 * Throws a StoreEntryError when one of the store's own files (category files, ledger, digest,
 * config) is a folder or one of its folders is a file. Reading such an entry fails with an
 * error that names no path, and only after the lock is taken and some work done; checking first
 * means the message names the entry and nothing has been written or reclaimed.
 */
export function checkStoreEntries(paths: StorePaths): void {
  const files = [...Object.values(CATEGORY_FILES).map((c) => path.join(paths.root, c.file)), paths.ledger, paths.digest, paths.config];
  for (const file of files) {
    if (fs.statSync(file, { throwIfNoEntry: false })?.isDirectory()) throw new StoreEntryError(file, 'file');
  }
  for (const dir of [paths.inbox, paths.files, paths.prompts, paths.archive]) {
    const stat = fs.statSync(dir, { throwIfNoEntry: false });
    if (stat && !stat.isDirectory()) throw new StoreEntryError(dir, 'folder');
  }
}

/** `error` with `file` as its path when it is an errno error that names none (Node's EISDIR on a read). */
export function withPath(error: unknown, file: string): unknown {
  if (error && typeof error === 'object' && typeof (error as ErrnoLike).code === 'string' && (error as ErrnoLike).path === undefined) {
    (error as ErrnoLike).path = file;
  }
  return error;
}

/**
 * describeFileError for an error met while working on the store `paths`: when Node names no
 * path (EISDIR on a read), the store entry of the wrong kind is found and named instead.
 */
export function describeStoreError(error: unknown, paths: StorePaths | undefined): string | undefined {
  const { code, path: errorPath } = (error ?? {}) as ErrnoLike;
  if (paths && errorPath === undefined && (code === 'EISDIR' || code === 'ENOTDIR')) {
    try {
      checkStoreEntries(paths);
    } catch (found) {
      if (found instanceof StoreEntryError) return found.message;
    }
  }
  return describeFileError(error);
}

/**
 * The one rule for finding a file's note file in a NoteIndex, for every process: by
 * device:inode (the note file's name) when the recorded path or content agrees, else by the
 * recorded path, else by content fingerprint among note files of the same recorded size whose
 * own path no longer holds them. A hit by path or fingerprint means the key is out of date (git
 * checkout, atomic save, a move outside the editor): `needsRepair` tells the caller to re-key.
 * Costs a stat or two and map lookups; the file is hashed only when a note file recorded its
 * size for another path.
 */
import type * as fs from 'node:fs';
import * as path from 'node:path';
import { fileIdOf, noteFileNameFor, statRegularFile } from '../base/fileIdentity';
import type { IndexEntry, NoteIndex } from './noteIndex';
import { isInside, workspaceRelative, type StorePaths } from './storePaths';

export interface LocatedNotes {
  absolute: string;
  /** Workspace-relative path with forward slashes. */
  relative: string;
  stat: fs.BigIntStats;
  entry: IndexEntry;
  via: 'inode' | 'path' | 'fingerprint';
  /** True when the note file's key or recorded path no longer matches the file. */
  needsRepair: boolean;
}

export interface LocateOptions {
  /** Also try the content fingerprint. Default true. */
  byContent?: boolean;
  /** The file's content fingerprint (`sha256:…`; undefined when unreadable), computed at most once per call. */
  fingerprint: () => string | undefined;
  /**
   * Check each entry against its note file before trusting it (an index read back from disk may
   * be older than a hand edit). The server's live index, patched from file events, skips it.
   */
  verify?: boolean;
}

export function locateNotes(
  paths: StorePaths,
  index: NoteIndex,
  absolute: string,
  options: LocateOptions,
  stat = statRegularFile(absolute),
): LocatedNotes | undefined {
  if (!stat || isInside(paths.root, absolute)) return undefined;
  const check = (entries: IndexEntry[]): IndexEntry[] =>
    options.verify ? entries.map((e) => index.fresh(e.name)).filter((e): e is IndexEntry => e !== undefined) : entries;
  let hash: { value: string | undefined } | undefined;
  const fingerprint = () => (hash ??= { value: options.fingerprint() }).value;
  const byContent = options.byContent !== false;
  const relative = workspaceRelative(paths, absolute);
  const name = noteFileNameFor(fileIdOf(stat));
  const direct = options.verify ? index.fresh(name) : index.get(name);
  // An inode number alone may have been reused by a new file: the recorded path or content must agree.
  if (
    direct &&
    (!direct.meta.path ||
      direct.meta.path === relative ||
      (byContent && direct.meta.fingerprint !== '' && direct.meta.fingerprint === fingerprint()))
  ) {
    return { absolute, relative, stat, entry: direct, via: 'inode', needsRepair: direct.meta.path !== relative };
  }

  const byPath = check(index.withRecordedPath(relative)).find((e) => e.meta.path === relative);
  if (byPath) return { absolute, relative, stat, entry: byPath, via: 'path', needsRepair: true };

  if (!byContent) return undefined;
  // Same content means same size: only hash when some note file recorded this size for
  // another path whose file no longer holds it.
  const size = Number(stat.size);
  const candidates = check(index.withRecordedSize(size)).filter(
    (e) => e.meta.size === size && e.meta.fingerprint && e.meta.path !== relative && e.name !== direct?.name,
  );
  if (candidates.length === 0) return undefined;
  const match = candidates.find((e) => e.meta.fingerprint === fingerprint() && !pathStillHolds(paths, e));
  return match ? { absolute, relative, stat, entry: match, via: 'fingerprint', needsRepair: true } : undefined;
}

/** True when the entry's recorded path still exists and carries the entry's inode. */
function pathStillHolds(paths: StorePaths, entry: IndexEntry): boolean {
  if (!entry.meta.path) return false;
  const stat = statRegularFile(path.resolve(paths.workspace, entry.meta.path));
  return stat !== undefined && fileIdOf(stat) === entry.meta.fileId;
}

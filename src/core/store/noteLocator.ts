/**
 * The one rule for finding a file's note file in a NoteIndex, for every process: by the file's
 * device:inode in the local index (what this machine learned) when the recorded path or content
 * agrees, else by the recorded path, else by content fingerprint among note files of the same
 * recorded size whose own path no longer holds them. A hit by path or fingerprint only teaches
 * the local index the file's device:inode (`learn`): finding notes never changes a note file. A
 * recorded path that is out of date (a move on this machine) is reported by `moved`; Lore
 * updates it when it writes that note, or when the language server sees the rename happen.
 * Costs a stat or two and map lookups; the file is hashed only when a note file recorded its
 * size for another path, or an inode match must be confirmed by content.
 */
import type * as fs from 'node:fs';
import * as path from 'node:path';
import { fileIdOf, statRegularFile } from '../base/fileIdentity';
import type { IndexEntry, NoteIndex } from './noteIndex';
import { isInside, workspaceRelative, type StorePaths } from './storePaths';

export interface LocatedNotes {
  absolute: string;
  /** Workspace-relative path with forward slashes. */
  relative: string;
  stat: fs.BigIntStats;
  entry: IndexEntry;
  via: 'inode' | 'path' | 'fingerprint';
  /** True when the note file records another path than the file's (moved on this machine, or re-found by content). */
  moved: boolean;
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
  const localId = fileIdOf(stat);
  const found = (entry: IndexEntry, via: LocatedNotes['via']): LocatedNotes => {
    const learned = via === 'inode' ? entry : (index.learn(entry.name, localId) ?? entry);
    return { absolute, relative, stat, entry: learned, via, moved: entry.meta.path !== relative };
  };
  // An inode number alone may have been reused by a new file: the recorded path or content must agree.
  const byInode = check(index.withLocalId(localId)).filter((e) => e.localId === localId);
  const direct =
    byInode.find((e) => !e.meta.path || e.meta.path === relative) ??
    (byContent ? byInode.find((e) => e.meta.fingerprint !== '' && e.meta.fingerprint === fingerprint()) : undefined);
  if (direct) return found(direct, 'inode');

  const byPath = check(index.withRecordedPath(relative)).find((e) => e.meta.path === relative);
  if (byPath) return found(byPath, 'path');

  if (!byContent) return undefined;
  // Same content means same size: only hash when some note file recorded this size for
  // another path whose file no longer holds it.
  const size = Number(stat.size);
  const candidates = check(index.withRecordedSize(size)).filter(
    (e) => e.meta.size === size && e.meta.fingerprint && e.meta.path !== relative && !byInode.includes(e),
  );
  if (candidates.length === 0) return undefined;
  const match = candidates.find((e) => e.meta.fingerprint === fingerprint() && !pathStillHolds(paths, e));
  return match ? found(match, 'fingerprint') : undefined;
}

/**
 * True when the entry's recorded path still exists and is the file this machine knows the notes
 * by (any file there, when nothing was learned): a copy of it elsewhere does not take its notes.
 */
function pathStillHolds(paths: StorePaths, entry: IndexEntry): boolean {
  if (!entry.meta.path) return false;
  const stat = statRegularFile(path.resolve(paths.workspace, entry.meta.path));
  return stat !== undefined && (entry.localId === '' || fileIdOf(stat) === entry.localId);
}

/**
 * Finds the notes of an open file in the in-memory index, the way core's findNotesForFile does
 * on disk: by device:inode (one bigint stat), else by recorded path, else by content
 * fingerprint. A hit by path or fingerprint means the key is out of date (git checkout, atomic
 * save, a move outside the editor); the caller gets the notes at once and the repair (core's
 * healing, under the store lock) is left to the StoreWriter.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { workspaceRelative } from '../core/store/fileNotes';
import { fileIdOf, noteFileNameFor } from '../core/store/fileIdentity';
import { isInside, type StorePaths } from '../core/store/storePaths';
import type { IndexEntry, NoteIndex } from './noteIndex';
import type { StalenessTracker } from './staleness';

export interface ResolvedNotes {
  absolute: string;
  /** Workspace-relative path with forward slashes. */
  relative: string;
  stat: fs.BigIntStats;
  entry: IndexEntry;
  via: 'inode' | 'path' | 'fingerprint';
  /** True when the note file's key or recorded path no longer matches the file. */
  needsRepair: boolean;
}

export interface LookupOptions {
  /** Also try the content fingerprint (hashes the file once per version). Default true. */
  byContent?: boolean;
}

export class NoteLookup {
  constructor(
    private readonly paths: StorePaths,
    private readonly index: NoteIndex,
    private readonly staleness: StalenessTracker,
  ) {}

  /**
   * The notes of a file of the workspace, or undefined (no notes, gone, not a file, in the
   * store). `stat` saves the caller's own stat of the file from being repeated.
   */
  resolve(absolute: string, options: LookupOptions = {}, stat = statFile(absolute)): ResolvedNotes | undefined {
    if (!stat || isInside(this.paths.root, absolute)) return undefined;
    const relative = workspaceRelative(this.paths, absolute);
    const direct = this.index.get(noteFileNameFor(fileIdOf(stat)));
    // An inode number alone may have been reused by a new file: the recorded path or content must agree.
    if (direct && (!direct.meta.path || direct.meta.path === relative || (options.byContent !== false && direct.meta.fingerprint === this.staleness.fingerprint(absolute, stat)))) {
      return { absolute, relative, stat, entry: direct, via: 'inode', needsRepair: direct.meta.path !== relative };
    }

    const byPath = this.index.withRecordedPath(relative)[0];
    if (byPath) return { absolute, relative, stat, entry: byPath, via: 'path', needsRepair: true };

    if (options.byContent === false) return undefined;
    // Same content means same size: only hash when some note file recorded this size for
    // another path whose file no longer holds it.
    const candidates = this.index.withRecordedSize(Number(stat.size)).filter((e) => e.meta.fingerprint && e.meta.path !== relative && e !== direct);
    if (candidates.length === 0) return undefined;
    const fingerprint = this.staleness.fingerprint(absolute, stat);
    const match = candidates.find((e) => e.meta.fingerprint === fingerprint && !this.pathStillHolds(e));
    return match ? { absolute, relative, stat, entry: match, via: 'fingerprint', needsRepair: true } : undefined;
  }

  /** Note count of a file by inode or recorded path only (explorer badges must stay cheap). */
  countFor(absolute: string): number {
    return this.resolve(absolute, { byContent: false })?.entry.count ?? 0;
  }

  /** True when the entry's recorded path still exists and carries the entry's inode. */
  private pathStillHolds(entry: IndexEntry): boolean {
    if (!entry.meta.path) return false;
    const stat = statFile(path.resolve(this.paths.workspace, entry.meta.path));
    return stat !== undefined && fileIdOf(stat) === entry.meta.fileId;
  }
}

/** bigint stat of a regular file (inode numbers can exceed 2^53), or undefined. */
export function statFile(file: string): fs.BigIntStats | undefined {
  const stat = fs.statSync(file, { bigint: true, throwIfNoEntry: false });
  return stat?.isFile() ? stat : undefined;
}

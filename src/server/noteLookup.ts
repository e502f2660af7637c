/**
 * Finds the notes of an open file in the server's live index by core's one rule (noteLocator),
 * with the file's fingerprint from the staleness tracker (hashed once per file version). A hit
 * by path or fingerprint (git checkout, atomic save, a move outside the editor) only teaches the
 * live index the file's device:inode: reading writes nothing to the store.
 */
import { statRegularFile } from '../core/base/fileIdentity';
import type { NoteIndex } from '../core/store/noteIndex';
import { locateNotes, type LocatedNotes } from '../core/store/noteLocator';
import type { StorePaths } from '../core/store/storePaths';
import type { StalenessTracker } from './staleness';

export type ResolvedNotes = LocatedNotes;

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
  resolve(absolute: string, options: LookupOptions = {}, stat = statRegularFile(absolute)): ResolvedNotes | undefined {
    if (!stat) return undefined;
    // The index is patched from file events, so its entries are trusted without a stat each.
    return locateNotes(
      this.paths,
      this.index,
      absolute,
      { byContent: options.byContent, fingerprint: () => this.staleness.fingerprint(absolute, stat), verify: false },
      stat,
    );
  }

  /** Note count of a file by inode or recorded path only (explorer badges must stay cheap). */
  countFor(absolute: string): number {
    return this.resolve(absolute, { byContent: false })?.entry.count ?? 0;
  }
}

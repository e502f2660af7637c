/**
 * The one place features ask "what are the notes of this file?": lookup in the index, the notes
 * themselves and how stale they are. Code lenses,
 * hovers and the custom requests all go through it, so they always agree.
 *
 * Answers are memoized per file while both the file (device, inode, size, mtime) and the index
 * (its generation) are unchanged, so a repeated lens or hover request costs one stat and a map
 * lookup; the lens and hover texts derived from an answer are memoized on it.
 */
import type * as fs from 'node:fs';
import type { FileNotes, NoteInfo, NoteStaleness } from '../shared/protocol';
import type { NoteIndex } from '../core/store/noteIndex';
import { NoteTexts } from './noteTexts';
import { statRegularFile } from '../core/base/fileIdentity';
import type { NoteLookup, ResolvedNotes } from './noteLookup';
import type { StalenessTracker } from './staleness';

/** A file's notes as the features use them, with what features derived from them. */
export interface FoundFileNotes {
  resolved: ResolvedNotes;
  notes: NoteInfo[];
  /** Memo of derived answers (lens groups, hover markdown), valid as long as this object is. */
  memo: Map<string, unknown>;
}

interface MemoAnswer {
  stat: fs.BigIntStats;
  generation: number;
  found: FoundFileNotes | undefined;
}

const MEMO_LIMIT = 512;

/** Same file, same content as far as stat can tell (bigint comparisons, no strings built). */
function sameVersion(a: fs.BigIntStats, b: fs.BigIntStats): boolean {
  return a.ino === b.ino && a.dev === b.dev && a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs;
}

export class NotesService {
  private readonly answers = new Map<string, MemoAnswer>();
  private readonly texts = new NoteTexts();

  constructor(
    private readonly lookup: NoteLookup,
    private readonly index: NoteIndex,
    private readonly staleness: StalenessTracker,
  ) {}

  /** The notes of a file (none: undefined). A stale key is repaired in the background. */
  find(absolute: string): FoundFileNotes | undefined {
    const stat = statRegularFile(absolute);
    if (!stat) {
      this.answers.delete(absolute);
      return undefined;
    }
    const cached = this.answers.get(absolute);
    if (cached && cached.generation === this.index.generation && sameVersion(cached.stat, stat)) return cached.found;
    const generation = this.index.generation;
    // A hit by path or content teaches the index this file's device:inode; no note file changes.
    const resolved = this.lookup.resolve(absolute, {}, stat);
    const notes = resolved ? this.texts.notesOf(resolved.entry) : [];
    const found = resolved && notes.length > 0 ? { resolved, notes, memo: new Map<string, unknown>() } : undefined;
    this.answers.delete(absolute);
    this.answers.set(absolute, { stat, generation, found });
    if (this.answers.size > MEMO_LIMIT) this.answers.delete(this.answers.keys().next().value!);
    return found;
  }

  /**
   * The last answer for a file without looking at the file again, while the index is unchanged:
   * for code-lens resolve, which follows provide within milliseconds.
   */
  recent(absolute: string): FoundFileNotes | undefined {
    const cached = this.answers.get(absolute);
    return cached && cached.generation === this.index.generation ? cached.found : this.find(absolute);
  }

  /** Staleness if known without hashing (memoized, or proven by size), else undefined. */
  quickStaleness(found: FoundFileNotes): NoteStaleness | undefined {
    const { absolute, stat, entry } = found.resolved;
    return this.staleness.quick(absolute, stat, entry.meta);
  }

  /** Full staleness: hashes the file at most once per version. */
  assessStaleness(found: FoundFileNotes): NoteStaleness {
    const { absolute, stat, entry } = found.resolved;
    return this.staleness.assess(absolute, stat, entry.meta);
  }

  /** A value derived from `found`, computed once per answer. */
  memo<T>(found: FoundFileNotes, key: string, compute: () => T): T {
    if (found.memo.has(key)) return found.memo.get(key) as T;
    const value = compute();
    found.memo.set(key, value);
    return value;
  }

  /** The `lore/notesForFile` answer. */
  toFileNotes(found: FoundFileNotes): FileNotes {
    const { resolved } = found;
    return {
      path: resolved.absolute,
      noteFile: resolved.entry.file,
      recordedPath: resolved.entry.meta.path,
      via: resolved.via,
      notes: found.notes,
      staleness: this.assessStaleness(found),
    };
  }

  /** Note counts for explorer badges: by inode or recorded path only, no hashing, no repair. */
  counts(paths: string[]): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const file of paths) {
      const count = this.lookup.countFor(file);
      if (count > 0) counts[file] = count;
    }
    return counts;
  }
}

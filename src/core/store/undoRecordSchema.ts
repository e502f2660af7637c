/**
 * The undo record's shape (`.undo/record.json`, see undoRecord.ts), checked when it is read back:
 * data from disk. Its own module so that zod loads only when a record is read.
 */
import { z } from 'zod';

const undoFileSchema = z.object({
  /** Store-relative path of a file the apply may rewrite. */
  file: z.string(),
  /** sha256 of its bytes before the apply, null when it did not exist (its copy is before/<index>-<name>). */
  before: z.string().nullable(),
  /** sha256 as the apply left it, null when it left none; absent until the apply is done. */
  after: z.string().nullable().optional(),
  /**
   * A hooks queue entry: the harvest settles (removes) it after the apply, and a hook may write it
   * again at any time, so undo only puts it back when it is missing and never refuses over it.
   */
  restoreIfMissing: z.boolean().optional(),
  /**
   * A day's journal: the entries the apply added to it. Other writers (a review accept, a note)
   * add to the same day after it, so undo takes these out of the file as it is then instead of
   * restoring its bytes, and never refuses over it.
   */
  journalAdded: z.array(z.object({ source: z.string(), category: z.string(), text: z.string() })).optional(),
});

const undoReclaimSchema = z.object({
  /** Store-relative path of the reclaimed inbox file. */
  from: z.string(),
  /** Where a `delete` reclaim moved it, relative to `.undo/`. */
  kept: z.string().optional(),
  /** Where an `archive` reclaim moved it, store-relative. */
  archivedTo: z.string().optional(),
});

export const undoRecordSchema = z.object({
  version: z.literal(1),
  state: z.enum(['begun', 'applied', 'undoing']),
  /** When the apply started (ISO). */
  at: z.string(),
  files: z.array(undoFileSchema),
  /** Transcripts the apply was about to write (none existed at their path): removed by undo. */
  transcripts: z.array(z.object({ file: z.string(), sha256: z.string() })),
  reclaims: z.array(undoReclaimSchema),
});

export type UndoRecord = z.infer<typeof undoRecordSchema>;
export type UndoFile = z.infer<typeof undoFileSchema>;

/**
 * A note a person adds to a workspace file by hand (`lore note`, Add Note to This File in VS
 * Code): `[from: manual, today]`, redacted, written under the store lock, journaled for the day
 * (source `manual`) and recorded in the store's git history. One place for both hosts.
 */
import { recordStoreChange, type HistoryOutcome } from '../history/storeHistory';
import { journalCategory, journalEntryOf, journalLearned } from '../journal/journalLearned';
import { redactSecrets } from '../../model/safety/redact';
import { addNotesToFile, type NoteTarget } from '../fileNotes';
import { acquireStoreLock } from '../../base/storeLock';
import { storeRelative, type StorePaths } from '../storePaths';
import { noteLine } from '../../model/itemLines';
import { toIsoDate } from '../../model/provenance';

/** The source a person's own items carry. */
export const MANUAL_SOURCE = 'manual';

export interface ManualNoteResult {
  /** Absolute path of the note file. */
  noteFile: string;
  history?: HistoryOutcome;
}

/** The line a person's note `text` is written as (redacted, `[from: manual, today]`); throws on an empty text. */
export function manualNoteLine(text: string, now = new Date()): string {
  const clean = redactSecrets(text).trim();
  if (!clean) throw new Error('the note text is empty');
  return noteLine(clean, { source: MANUAL_SOURCE, date: toIsoDate(now) });
}

/** Adds note `text` to the file `target` names; throws on an empty text. */
export async function addManualNote(
  paths: StorePaths,
  target: Extract<NoteTarget, { kind: 'file' }>,
  text: string,
  now = new Date(),
): Promise<ManualNoteResult> {
  const line = manualNoteLine(text, now);
  const lock = await acquireStoreLock(paths.root);
  try {
    const noteFile = addNotesToFile(paths, target, [line]);
    journalLearned(
      paths,
      [journalEntryOf(line, journalCategory({ file: storeRelative(paths, noteFile), notedPath: target.relative }))],
      now,
    );
    const history = await recordStoreChange(paths, {
      type: 'memory',
      subject: `note on ${target.relative}`,
      body: [`Source: ${MANUAL_SOURCE}`],
    });
    return { noteFile, ...(history ? { history } : {}) };
  } finally {
    lock.release();
  }
}

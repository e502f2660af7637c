/**
 * What a harvest plan teaches, as journal entries: the item lines each change really adds
 * (lines already in the file are not new), by the conversation their provenance names and the
 * category they go to. Items held for review are not learned yet and are left out (their accept
 * journals them, journalLearned.ts). lore tidy's edits (merges, supersessions) add nothing here.
 */
import { freshItemLines } from '../../model/categoryFile';
import type { HarvestPlan } from '../harvestPlan';
import { parseNoteFile } from '../../model/noteFile';
import type { JournalEntry } from '../../model/journalFormat';
import { journalCategory, journalEntryOf as entryOf } from './journalLearned';

/** The journal entries of a plan, in the order its changes write them. */
export function planJournalEntries(plan: HarvestPlan): JournalEntry[] {
  const entries: JournalEntry[] = [];
  for (const change of plan.changes) {
    const edit = change.edit;
    if (!edit) continue;
    if (edit.kind === 'append') {
      const category = journalCategory({ file: change.file });
      for (const line of freshItemLines(change.before, edit.lines)) entries.push(entryOf(line, category));
    } else if (edit.kind === 'tasks') {
      const open = freshItemLines(change.before, edit.open);
      for (const line of open) entries.push(entryOf(line, 'Open tasks'));
      for (const line of freshItemLines(change.before, edit.done).filter((l) => !open.includes(l)))
        entries.push(entryOf(line, 'Done tasks'));
    } else if (edit.kind === 'notes') {
      const body = change.before === undefined ? undefined : parseNoteFile(change.before).body;
      for (const line of freshItemLines(body, edit.lines))
        entries.push(entryOf(line, journalCategory({ file: change.file, notedPath: edit.meta.path })));
    }
  }
  return entries;
}

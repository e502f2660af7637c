/**
 * What a harvest plan teaches, as journal entries: the item lines each change really adds
 * (lines already in the file are not new), by the conversation their provenance names and the
 * category they go to. Items held for review are not learned yet and are left out (their accept
 * journals them, journalLearned.ts). lore tidy's edits (merges, supersessions) add nothing here.
 * A line several conversations of the harvest taught (the same statement, model/sameStatement.ts)
 * is learned from each of them: forgetting one keeps what the others taught in the journal. A line
 * that joined an existing item as one more source is learned from its conversation too.
 */
import * as path from 'node:path';
import { freshItemLines, listItems } from '../../model/categoryFile';
import { itemId } from '../../model/itemId';
import type { HarvestPlan } from '../harvestPlan';
import { isNoteFileName, parseNoteFile } from '../../model/noteFile';
import type { JournalEntry } from '../../model/journalFormat';
import { journalCategory, journalEntryOf } from './journalLearned';
import { parseProvenance } from '../../model/provenance';
import { pushAll } from '../../base/bulkArrays';

/** One entry per source the line names (one for most lines). */
function entriesOf(line: string, category: string): JournalEntry[] {
  const sources = parseProvenance(line)?.sources ?? [];
  if (sources.length < 2) return [journalEntryOf(line, category)];
  return [...new Set(sources.map((p) => p.source))].map((source) => journalEntryOf(line, category, source));
}

/** The journal entries of a plan, in the order its changes write them. */
export function planJournalEntries(plan: HarvestPlan): JournalEntry[] {
  const entries: JournalEntry[] = [];
  for (const change of plan.changes) {
    // A chain is a file's appends, then its merges into existing lines (whose lines come below).
    for (const edit of change.edit?.kind === 'chain' ? change.edit.edits : change.edit ? [change.edit] : []) {
      if (edit.kind === 'append') {
        const category = journalCategory({ file: change.file });
        for (const line of freshItemLines(change.before, edit.lines)) pushAll(entries, entriesOf(line, category));
      } else if (edit.kind === 'tasks') {
        const open = freshItemLines(change.before, edit.open);
        for (const line of open) pushAll(entries, entriesOf(line, 'Open tasks'));
        for (const line of freshItemLines(change.before, edit.done).filter((l) => !open.includes(l)))
          pushAll(entries, entriesOf(line, 'Done tasks'));
      } else if (edit.kind === 'notes') {
        const body = change.before === undefined ? undefined : parseNoteFile(change.before).body;
        for (const line of freshItemLines(body, edit.lines))
          pushAll(entries, entriesOf(line, journalCategory({ file: change.file, notedPath: edit.meta.path })));
      }
    }
    pushAll(entries, mergedEntries(plan, change));
  }
  return entries;
}

/**
 * A line that became one more source of an existing item of the change's file (the same
 * statement, a model's same_as) was taught by its conversation too, under that item's category.
 */
function mergedEntries(plan: HarvestPlan, change: HarvestPlan['changes'][number]): JournalEntry[] {
  const merged = (plan.relations?.merged ?? []).filter((m) => m.file === change.file);
  if (merged.length === 0 || change.before === undefined) return [];
  const note = isNoteFileName(path.basename(change.file)) ? parseNoteFile(change.before) : undefined;
  const items = listItems(note ? note.body : change.before);
  return merged.flatMap((m) => {
    const section = items.find((i) => itemId(i.raw) === m.id)?.section;
    const category = journalCategory({
      file: m.file,
      ...(/^done$/i.test(section?.trim() ?? '') ? { section: 'done' as const } : {}),
      ...(note ? { notedPath: note.meta.path } : {}),
    });
    return [...new Set(m.source.split(', '))].map((source) => journalEntryOf(m.line, category, source));
  });
}

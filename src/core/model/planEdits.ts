/**
 * What a plan change does to its file, as data: apply writes the previewed text when the file is
 * still the one the plan read, and otherwise re-applies the same edit to what a person (or
 * another tool) saved in the meantime, so their lines and Lore's both survive.
 */
import { appendItems, insertTasks } from './categoryFile';
import { applyItemOps, type ItemOp } from './itemOps';
import { addHeldItems, type ReviewTarget } from './reviewFile';
import { addNotes, type NoteFileMeta } from './noteFile';

export type PlanEdit =
  /** Item lines appended to a category file (`title` heads a new file). */
  | { kind: 'append'; title: string; lines: string[] }
  /** Open and done tasks inserted into tasks.md. */
  | { kind: 'tasks'; open: string[]; done: string[] }
  /** Notes added to a per-file note file, with its frontmatter refreshed. */
  | { kind: 'notes'; meta: NoteFileMeta; lines: string[] }
  /** Items held for a person's review, added to review.md. */
  | { kind: 'review'; items: ReadonlyArray<{ target: ReviewTarget; line: string; kinds: readonly string[] }> }
  /** Items already in the file merged (sources added, duplicates removed) or marked superseded (itemOps.ts). */
  | { kind: 'items'; ops: ItemOp[] }
  /** Several edits of one file, in order (a harvest's appends, then its merges into existing lines). */
  | { kind: 'chain'; edits: PlanEdit[] };

/** The text after the edit; the edits are idempotent (lines already there are not added again). */
export function applyPlanEdit(edit: PlanEdit, text: string | undefined): string {
  switch (edit.kind) {
    case 'append':
      return appendItems(text, edit.title, edit.lines);
    case 'tasks':
      return insertTasks(text, edit.open, edit.done);
    case 'notes':
      return addNotes(text, edit.meta, edit.lines);
    case 'review':
      return addHeldItems(text, edit.items);
    case 'items':
      return applyItemOps(text, edit.ops);
    case 'chain':
      return edit.edits.reduce<string | undefined>((current, next) => applyPlanEdit(next, current), text) ?? '';
  }
}

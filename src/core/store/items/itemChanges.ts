/**
 * Applying a change to one item, named by its id, in the file that holds it: update its text,
 * supersede it, mark an open task done, forget it. Used for agents' writes in `direct` mode and
 * when a person accepts a pending one. The item is looked up again inside the edit, so the
 * guarded replace can re-apply the change on top of a person's concurrent save (the item may
 * have moved; if it is gone, nothing is written). The caller holds the store lock and
 * regenerates the digest.
 */
import { sleepSync } from '../../base/fileVersion';
import { FileBusyError } from '../../base/guardedReplace';
import { readLedger, writeLedger } from '../ledger';
import { withForgottenItems } from '../../model/tombstones';
import { editStoreFile } from '../../base/storeText';
import { resolveInStore, type StorePaths } from '../storePaths';
import { CATEGORY_FILES } from '../../model/categories';
import { listItems, markTasksDone, removeItems } from '../../model/categoryFile';
import { itemId, listItemId } from '../../model/itemId';
import { replaceItem, supersedeItem } from '../../model/itemEdits';
import { isDoneSection } from '../../model/itemKinds';
import { lineIdentity } from '../../model/itemLines';
import { parseProvenance } from '../../model/provenance';

/** A change of an existing item; `line` is the new line of an update or a supersession. */
export type ItemChange =
  { op: 'update' | 'supersede'; id: string; file: string; line: string } | { op: 'done' | 'forget'; id: string; file: string };

export interface ItemChangeResult {
  applied: boolean;
  /** Why not: the item is no longer in the file, or is not an open task. */
  reason?: string;
  /** The item's line as it was before the change (for replies: what was removed or replaced). */
  before?: string;
  /** The file never held still long enough to tell whether the item is there (the reason says so). */
  busy?: boolean;
}

/** The text after the change, the line it acted on, and why nothing changed. */
export function changeItemText(text: string, change: ItemChange): { text?: string; before?: string; reason?: string } {
  const item = listItems(text).find((i) => listItemId(i) === change.id);
  if (!item) return { reason: `item ${change.id} is no longer in ${change.file}` };
  const identity = new Set([lineIdentity(item.raw)]);
  const before = item.raw.trim();
  switch (change.op) {
    case 'update':
      return { text: replaceItem(text, lineIdentity(item.raw), change.line), before };
    case 'supersede':
      return { text: supersedeItem(text, lineIdentity(item.raw), itemId(change.line), change.line), before };
    case 'forget':
      return { text: removeItems(text, identity), before };
    case 'done':
      if (change.file !== CATEGORY_FILES.tasks.file) return { before, reason: `item ${change.id} is not a task` };
      if (isDoneSection(item.section)) return { before, reason: `task ${change.id} is already done` };
      return { text: markTasksDone(text, identity), before, reason: 'not an open task' };
  }
}

/**
 * A forgotten item is kept forgotten: its id and statement go into the ledger's tombstones, so a
 * harvest that brings the same statement back leaves it out (tombstones.ts). Caller holds the lock.
 */
function rememberForgotten(paths: StorePaths, line: string): void {
  const ledger = readLedger(paths.ledger);
  writeLedger(paths.ledger, withForgottenItems(ledger, [line], new Date().toISOString(), parseProvenance(line)?.source));
}

/** Attempts while the item is missing from a file that keeps changing, and the pause between them. */
const ATTEMPTS = 20;
const PAUSE_MS = 100;

/**
 * Applies the change to its file through the guarded replace (caller holds the store lock). A
 * file caught in the middle of an editor's in-place save (truncated, not yet rewritten) lacks the
 * item: while the file is still changing the change is tried again after a pause. The item is
 * missing for good only when the file read the same twice; a file that never held still is
 * reported as busy, in the guarded replace's words, not as an item that is gone.
 */
export function applyItemChange(paths: StorePaths, change: ItemChange): ItemChangeResult {
  let previous: string | undefined;
  for (let attempt = 1; ; attempt++) {
    let outcome: ReturnType<typeof changeItemText> = {};
    let missing = false;
    let seen: string | undefined;
    /** The line the last edit that changed the text acted on (a later run, on the written text, finds nothing). */
    let acted: string | undefined;
    const changed = editStoreFile(resolveInStore(paths, change.file), (text) => {
      // Re-run on every retry of the guarded replace: the last run is what was written.
      seen = text;
      outcome = text === undefined ? { reason: `${change.file} does not exist` } : changeItemText(text, change);
      missing = outcome.before === undefined;
      if (outcome.text !== undefined) acted = outcome.before;
      return outcome.text;
    });
    if (changed) {
      if (change.op === 'forget' && acted) rememberForgotten(paths, acted);
      return { applied: true, before: acted ?? outcome.before };
    }
    const settled = attempt > 1 && seen === previous;
    if (!missing || settled) return { applied: false, before: outcome.before, reason: outcome.reason ?? 'nothing to change' };
    if (attempt >= ATTEMPTS)
      return { applied: false, busy: true, reason: new FileBusyError(change.file, attempt, (attempt - 1) * PAUSE_MS).message };
    previous = seen;
    sleepSync(PAUSE_MS);
  }
}

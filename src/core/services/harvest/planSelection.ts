/**
 * Reviewing a harvest plan item by item: the plan's new item lines (per category file, note file
 * and tasks.md) and its reclaims of inbox conversations, each one a choice a person can reject
 * before Apply. Rejecting edits the plan as data (planEdits.ts): a rejected line leaves its
 * file's edit, a file left with no line leaves the plan, the digest is projected again from what
 * remains, and a rejected reclaim keeps its conversation in the inbox (the ledger no longer says
 * it was deleted or archived). Items held for review (review.md) are decided in the Review view,
 * not here. What remains is applied exactly as shown, like any preview.
 */
import { DIGEST_MAX_BYTES } from '../../model/constants';
import { CATEGORY_FILES, type CategoryFileKey, type ItemCategory } from '../../model/categories';
import { agentItemFilter } from '../../store/heldItems';
import { readTextIfExists } from '../../base/readText';
import { digestSectionsFromTexts, readCategoryTexts } from '../../store/digest';
import { renderDigest } from '../../model/digestFormat';
import { storeRelative, type StorePaths } from '../../store/storePaths';
import type { HarvestPlan, PlanChange } from '../../store/harvestPlan';
import { applyPlanEdit, type PlanEdit } from '../../model/planEdits';

/** One choice in a plan. `id` is stable for one plan object (an index path), not across plans. */
export type PlanItem =
  | { id: string; kind: 'line'; file: string; category: ItemCategory; line: string }
  | { id: string; kind: 'reclaim'; path: string; action: 'delete' | 'archive' };

const CATEGORY_OF_FILE: Record<string, ItemCategory> = {
  [CATEGORY_FILES.facts.file]: 'facts',
  [CATEGORY_FILES.decisions.file]: 'decisions',
  [CATEGORY_FILES.questions.file]: 'questions',
  [CATEGORY_FILES.playbooks.file]: 'playbooks',
};

/** The lines of an edit that a person can reject, each with its category; [] for review.md. */
function editLines(edit: PlanEdit, file: string): Array<{ key: string; line: string; category: ItemCategory }> {
  switch (edit.kind) {
    case 'append':
      return edit.lines.map((line, i) => ({ key: `l${i}`, line, category: CATEGORY_OF_FILE[file] ?? 'facts' }));
    case 'tasks':
      return [
        ...edit.open.map((line, i) => ({ key: `o${i}`, line, category: 'tasks_open' as const })),
        ...edit.done.map((line, i) => ({ key: `d${i}`, line, category: 'tasks_done' as const })),
      ];
    case 'notes':
      return edit.lines.map((line, i) => ({ key: `l${i}`, line, category: 'files' as const }));
    case 'review':
    case 'items':
      return [];
    case 'chain':
      return edit.edits.flatMap((e, j) => editLines(e, file).map((l) => ({ ...l, key: `e${j}.${l.key}` })));
  }
}

/** True when the change really adds `line` (a line its file already held is written by nobody). */
function addsLine(change: PlanChange, line: string): boolean {
  return !(change.before ?? '').split(/\r?\n/).includes(line);
}

/** Every item of the plan a person can accept or reject: new lines first, then reclaims. */
export function planItems(paths: StorePaths, plan: HarvestPlan): PlanItem[] {
  const items: PlanItem[] = [];
  plan.changes.forEach((change, c) => {
    if (!change.edit || change.after === undefined) return;
    for (const { key, line, category } of editLines(change.edit, change.file)) {
      if (addsLine(change, line)) items.push({ id: `c${c}:${key}`, kind: 'line', file: change.file, category, line });
    }
  });
  plan.outcomes.forEach((outcome, o) => {
    if (outcome.reclaim) items.push({ id: `r${o}`, kind: 'reclaim', path: storeRelative(paths, outcome.path), action: outcome.reclaim });
  });
  return items;
}

/** The edit without the rejected lines (`prefix` names the change). */
function keptEdit(edit: PlanEdit, prefix: string, rejected: ReadonlySet<string>, inner = ''): PlanEdit {
  const keep = (key: string) => !rejected.has(`${prefix}:${inner}${key}`);
  switch (edit.kind) {
    case 'append':
    case 'notes':
      return { ...edit, lines: edit.lines.filter((_, i) => keep(`l${i}`)) };
    case 'tasks':
      return { ...edit, open: edit.open.filter((_, i) => keep(`o${i}`)), done: edit.done.filter((_, i) => keep(`d${i}`)) };
    case 'review':
    case 'items':
      return edit;
    case 'chain':
      return { ...edit, edits: edit.edits.map((e, j) => keptEdit(e, prefix, rejected, `${inner}e${j}.`)) };
  }
}

/**
 * The plan without the rejected items (ids from `planItems` of this same plan). The plan given is
 * not changed. The digest is projected from the category files as the remaining plan leaves them.
 */
export function withoutItems(paths: StorePaths, plan: HarvestPlan, rejectedIds: Iterable<string>): HarvestPlan {
  const rejected = new Set(rejectedIds);
  const next = structuredClone(plan);
  const counts = { ...next.items };
  const changes: PlanChange[] = [];
  next.changes.forEach((change, c) => {
    if (change.file === 'digest.md') return; // Projected again below.
    if (!change.edit || change.after === undefined) {
      changes.push(change);
      return;
    }
    const gone = editLines(change.edit, change.file).filter(({ key, line }) => rejected.has(`c${c}:${key}`) && addsLine(change, line));
    if (gone.length === 0) {
      changes.push(change);
      return;
    }
    for (const { category } of gone) counts[category] = Math.max(0, counts[category] - 1);
    const edit = keptEdit(change.edit, `c${c}`, rejected);
    const after = applyPlanEdit(edit, change.before);
    if (after !== (change.before ?? '')) changes.push({ ...change, edit, after, added: Math.max(0, change.added - gone.length) });
  });
  next.changes = changes;
  next.items = counts;

  const digest = plan.changes.find((c) => c.file === 'digest.md');
  const digestBefore = digest ? digest.before : readTextIfExists(paths.digest);
  const digestAfter = plan.digestEnabled
    ? renderDigest(digestSectionsFromTexts(categoryTextsAfter(paths, changes), DIGEST_MAX_BYTES, agentItemFilter(paths)))
    : undefined;
  if (digestAfter !== digestBefore)
    next.changes.push({
      file: 'digest.md',
      before: digestBefore,
      after: digestAfter,
      added: Math.max(0, lineCount(digestAfter) - lineCount(digestBefore)),
    });

  next.outcomes.forEach((outcome, o) => {
    if (!outcome.reclaim || !rejected.has(`r${o}`)) return;
    outcome.reclaim = undefined;
    outcome.archiveTo = undefined;
    const entry = next.ledger.entries[outcome.sha256];
    if (entry) next.ledger.entries[outcome.sha256] = { ...entry, deleted: false, archived: undefined };
  });
  return next;
}

/** The category files as the plan's changes leave them (the rest as they are now). */
function categoryTextsAfter(paths: StorePaths, changes: readonly PlanChange[]) {
  const texts = readCategoryTexts(paths);
  for (const key of Object.keys(CATEGORY_FILES) as CategoryFileKey[]) {
    const change = changes.find((c) => c.file === CATEGORY_FILES[key].file);
    if (change) texts[key] = change.after;
  }
  return texts;
}

function lineCount(text: string | undefined): number {
  return text ? text.split('\n').length : 0;
}

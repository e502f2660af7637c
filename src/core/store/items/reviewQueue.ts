/**
 * The review queue: knowledge items that read as instructions to an agent wait in review.md
 * (format: reviewFile.ts) until a person accepts or rejects them. The harvest plan routes
 * flagged lines here instead of into their files, MCP writes do the same, and the CLI
 * (`lore review`) and the extension's Review view decide on them through this module.
 *
 * Besides the queue, an item that is already in a category or note file (written by hand, or
 * before flagging existed) and is flagged is held "in place": it stays in its file but out of
 * what agents get, and is listed here too, so a person can let it through or delete it.
 */
import * as path from 'node:path';
import { flagInstruction, flagKinds } from '../../model/safety/instructionFlags';
import { readTextIfExists } from '../../base/readText';
import { editStoreFile, replaceTextGuarded } from '../../base/storeText';
import { applyPlanEdit } from '../../model/planEdits';
import { applyItemOps } from '../../model/itemOps';
import { mergeIntoSame } from '../../model/sameStatement';
import { forgottenLineTest } from '../../model/tombstones';
import { readLedger } from '../ledger';
import { regenerateDigest, type CategoryTexts } from '../digest';
import { addNotesToFile, listNoteFiles, resolveNoteTarget } from '../fileNotes';
import { loadStoreConfig } from '../storeConfig';
import { acquireStoreLock } from '../../base/storeLock';
import { recordStoreChange, type HistoryOutcome } from '../history/storeHistory';
import { journalCategory, journalEntryOf, journalLearned } from '../journal/journalLearned';
import {
  fileInLayer,
  personalFileName,
  personalStorePaths,
  resolveInStore,
  storeRelative,
  type StoreLayer,
  type StorePaths,
} from '../storePaths';
import { hasPersonalLayer } from '../personalLayer';
import { ensureStoreLayout } from '../initStore';
import type { PlanChange } from '../harvestPlan';
import { CATEGORY_FILES, PLAN_LIST_FILE, type CategoryFileKey, type PlanListKey } from '../../model/categories';
import { appendItems, listItems, removeItems } from '../../model/categoryFile';
import { acceptedIdentities, itemFilter, type AgentItemFilter } from '../heldItems';
import { lineIdentity, renderItemLine, withoutBullet } from '../../model/itemLines';
import { parseProvenance, stripProvenance } from '../../model/provenance';
import { applyItemChange, type ItemChange } from './itemChanges';
import { moveLine } from './moveItem';
import {
  addAccepted,
  addHeldItems,
  entryKey,
  parseReview,
  removeReviewLines,
  REVIEW_FILE,
  type PendingChange,
  type ReviewTarget,
  type HeldItem,
  type ReviewEntry,
  type HoldKind,
  holdReason,
  INFERRED,
  isInstructionHold,
} from '../../model/reviewFile';

/** One item awaiting a person's decision. */
export interface ReviewItem {
  /** Stable key for accept/reject (survives other items being decided first). */
  id: string;
  /** `queue`: waiting in review.md; `in-place`: in its file, held out of what agents get. */
  where: 'queue' | 'in-place';
  target: ReviewTarget;
  /** The line as written (queue: as it will be written on accept). */
  line: string;
  /** The item text without bullet and provenance, for display. */
  text: string;
  kinds: string[];
  /** A sentence per kind, for display. */
  reasons: string[];
  provenance?: { source: string; date: string };
  /** Set for an agent's write waiting for a person: what accepting it does. */
  pending?: PendingChange;
}

import { targetDisplayName, targetLabel } from '../../model/reviewTargetName';
import { pushAll } from '../../base/bulkArrays';

export { targetDisplayName, targetLabel };

/** review.md of the store. */
export function reviewPath(paths: StorePaths): string {
  return path.join(paths.root, REVIEW_FILE);
}

function describe(kinds: readonly string[]): string[] {
  return kinds.map(holdReason);
}

function displayText(line: string): string {
  return stripProvenance(withoutBullet(line.trim()));
}

/** The key of a queue or in-place item, as ReviewItem.id. */
export function reviewItemId(where: ReviewItem['where'], target: ReviewTarget, line: string, pending?: PendingChange): string {
  return `${where}\u0000${targetLabel(target)}\u0000${entryKey(line, pending)}`;
}

function makeItem(where: ReviewItem['where'], target: ReviewTarget, line: string, kinds: string[], pending?: PendingChange): ReviewItem {
  const provenance = parseProvenance(line);
  return {
    id: reviewItemId(where, target, line, pending),
    where,
    target,
    line,
    text: displayText(line),
    kinds,
    reasons: describe(kinds),
    provenance: provenance ? { source: provenance.source, date: provenance.date } : undefined,
    ...(pending ? { pending } : {}),
  };
}

/** Whether a queued entry's line is new text (checked by the rules) rather than an item as it stands. */
function carriesNewText(pending: PendingChange | undefined): boolean {
  return !pending || pending.op === 'remember' || pending.op === 'update' || pending.op === 'supersede';
}

// ---------------------------------------------------------------------------------------------
// Holding (harvest plan, MCP writes)

/** Plan lines per destination, as buildPlan collects them. */
export type PlanLines = Record<PlanListKey, string[]>;
/** Planned note lines per store-relative note file, with the workspace path they are about. */
export type PlanNotes = Map<string, { meta: { path: string }; lines: string[] }>;

const LINE_TARGETS: Record<keyof PlanLines, ReviewTarget> = {
  facts: { file: CATEGORY_FILES.facts.file },
  decisions: { file: CATEGORY_FILES.decisions.file },
  questions: { file: CATEGORY_FILES.questions.file },
  playbooks: { file: CATEGORY_FILES.playbooks.file },
  open: { file: CATEGORY_FILES.tasks.file, section: 'open' },
  done: { file: CATEGORY_FILES.tasks.file, section: 'done' },
};

export interface HeldInPlan {
  held: HeldItem[];
  /** The change to review.md, when something new is held. */
  change?: PlanChange;
  /** What agents may see of the planned texts (for the plan's digest). */
  keep: AgentItemFilter;
}

function identitiesOf(text: string | undefined): Set<string> {
  return new Set(listItems(text ?? '').map((item) => lineIdentity(item.raw)));
}

/**
 * Takes the flagged lines, and the offline extractor's inferences (`inferred`, line identities), out of a plan's
 * lines and notes (in place) and queues them in review.md. A held line a person already
 * accepted, or one already in its file, stays where it is (it is written, or de-duplicated, as
 * usual).
 */
export function holdFlaggedInPlan(
  paths: StorePaths,
  lines: PlanLines,
  notes: PlanNotes,
  before: CategoryTexts,
  inferred: ReadonlySet<string> = new Set(),
): HeldInPlan {
  const accepted = acceptedIdentities(paths);
  const existing = new Map<string, Set<string>>();
  const alreadyIn = (key: string, read: () => string | undefined, line: string) => {
    let ids = existing.get(key);
    if (!ids) existing.set(key, (ids = identitiesOf(read())));
    return ids.has(lineIdentity(line));
  };
  const held: HeldItem[] = [];
  const hold = (list: string[], target: ReviewTarget, key: string, read: () => string | undefined): string[] =>
    list.filter((line) => {
      const kinds: HoldKind[] = flagKinds(flagInstruction(line));
      if (inferred.has(lineIdentity(line))) kinds.push(INFERRED);
      if (kinds.length === 0 || accepted.has(lineIdentity(line)) || alreadyIn(key, read, line)) return true;
      held.push({ target, line, kinds });
      return false;
    });
  for (const key of Object.keys(lines) as Array<keyof PlanLines>) {
    const category = PLAN_LIST_FILE[key];
    lines[key] = hold(lines[key], LINE_TARGETS[key], category, () => before[category]);
  }
  for (const [file, entry] of notes) {
    entry.lines = hold(entry.lines, { file, notedPath: entry.meta.path }, file, () => readTextIfExists(resolveInStore(paths, file)));
    if (entry.lines.length === 0) notes.delete(file);
  }
  const keep = itemFilter(accepted);
  if (held.length === 0) return { held, keep };
  const current = readTextIfExists(reviewPath(paths));
  const next = addHeldItems(current, held);
  if (next === (current ?? '')) return { held, keep };
  const count = (s: string | undefined) => (s ? s.split('\n').length : 0);
  const edit = { kind: 'review' as const, items: held };
  return {
    held,
    keep,
    change: { file: REVIEW_FILE, before: current, after: next, added: Math.max(0, count(next) - count(current)), edit },
  };
}

/** Queues held items in review.md (the caller holds the store lock). Returns whether it changed. */
export function writeHeldItems(paths: StorePaths, items: readonly HeldItem[]): boolean {
  return replaceTextGuarded(reviewPath(paths), (current) => {
    const next = addHeldItems(current, items);
    return next === (current ?? '') ? undefined : next;
  }).settle().changed;
}

/** The report line for held items: `N items held for review (lore review): file: "text" [kinds]; …`. */
export function heldWarning(all: readonly HeldItem[], max = 10): string | undefined {
  // Suggestions to confirm are not a warning: the report counts them (heldText).
  const held = all.filter((h) => isInstructionHold(h.kinds));
  if (held.length === 0) return undefined;
  const shown = held.slice(0, max).map((h) => {
    const text = displayText(h.line);
    return `${targetDisplayName(h.target)}: "${text.length > 80 ? text.slice(0, 79) + '…' : text}" [${h.kinds.join(', ')}]`;
  });
  const more = held.length > max ? `; and ${held.length - max} more` : '';
  return `${held.length} item${held.length === 1 ? '' : 's'} held for review (lore review): ${shown.join('; ')}${more}`;
}

// ---------------------------------------------------------------------------------------------
// Listing and deciding (lore review, the Review view)

/** Flagged items already in category and note files that no person accepted yet. */
function inPlaceItems(paths: StorePaths, accepted: ReadonlySet<string>): ReviewItem[] {
  const items: ReviewItem[] = [];
  const consider = (target: ReviewTarget, raw: string, text: string) => {
    const kinds = flagKinds(flagInstruction(text));
    if (kinds.length && !accepted.has(lineIdentity(raw))) items.push(makeItem('in-place', target, raw.trim(), kinds));
  };
  for (const key of Object.keys(CATEGORY_FILES) as CategoryFileKey[]) {
    const file = CATEGORY_FILES[key].file;
    for (const item of listItems(readTextIfExists(path.join(paths.root, file)) ?? '')) {
      const section = key === 'tasks' ? (item.section?.trim().toLowerCase() === 'done' ? 'done' : 'open') : undefined;
      consider({ file, ...(section ? { section } : {}) }, item.raw, item.text);
    }
  }
  for (const { file, note } of listNoteFiles(paths)) {
    for (const item of note.notes) consider({ file: storeRelative(paths, file), notedPath: note.meta.path }, item.raw, item.text);
  }
  return items;
}

/** What starts the id of an item of the personal layer (its own review.md and files), as the shared store lists it. */
export const PERSONAL_REVIEW_PREFIX = 'personal\u0000';

/** A personal layer's item as the shared store lists it: its id and file named from the shared store. */
function asPersonal(item: ReviewItem): ReviewItem {
  return { ...item, id: PERSONAL_REVIEW_PREFIX + item.id, target: { ...item.target, file: personalFileName(item.target.file) } };
}

/** The layer a listed review item is in (its queue and files). */
export function reviewItemLayer(id: string): StoreLayer {
  return id.startsWith(PERSONAL_REVIEW_PREFIX) ? 'personal' : 'shared';
}

/**
 * Everything awaiting a decision: the queue in file order, then items held in place; then the
 * same for the personal layer (personalLayer.ts: an agent's personal write waits in the layer's
 * own review.md, never in the committed one), named from the shared store (`personal/facts.md`).
 */
export function listReview(paths: StorePaths): ReviewItem[] {
  const own = listLayerReview(paths);
  if (paths.layer === 'personal' || !hasPersonalLayer(paths)) return own;
  return [...own, ...listLayerReview(personalStorePaths(paths)).map(asPersonal)];
}

/** One layer's items awaiting a decision, named from that layer. */
function listLayerReview(paths: StorePaths): ReviewItem[] {
  const text = readTextIfExists(reviewPath(paths));
  const parsed = parseReview(text);
  const accepted = new Set(parsed.accepted.map(lineIdentity));
  const queued = parsed.entries.map((e) => makeItem('queue', e.target, e.line, queuedKinds(e), e.pending));
  return [...queued, ...inPlaceItems(paths, accepted)];
}

/**
 * Why a queued entry is held: its marker's kinds, and for new text what the rules read in it now.
 * The marker alone is not trusted: review.md is committed and edited by hand, so a planted order
 * marked `[suggested]` (or held by an older Lore whose rules missed it) must still count as one,
 * or "accept all" would let it through.
 */
function queuedKinds(entry: ReviewEntry): string[] {
  if (!carriesNewText(entry.pending)) return entry.kinds;
  return [...new Set([...entry.kinds, ...flagKinds(flagInstruction(entry.line))])];
}

export type ReviewDecision = 'accept' | 'reject';

export interface ReviewDecisionResult {
  decided: ReviewItem[];
  /** Agents' changes that could not be applied (their item changed or went meanwhile); they stay queued. */
  failed: Array<{ item: ReviewItem; reason: string }>;
  /** Ids asked for that are no longer awaiting a decision (another process decided first). */
  missing: string[];
  /** Flagged items "accept all" left held: a planted instruction is let through only by naming it. */
  keptFlagged: ReviewItem[];
  /** Store-relative files written. */
  written: string[];
  /** What the store's git history did after the decision. */
  history?: HistoryOutcome;
}

/**
 * Writes queued lines into their files; returns the files written. In the personal layer (a
 * person kept a shared item to themselves) a note on a file becomes a fact naming the file: notes
 * on files are shared knowledge.
 */
function writeAccepted(paths: StorePaths, items: ReviewItem[]): string[] {
  const written: string[] = [];
  const byFile = new Map<string, ReviewItem[]>();
  for (const item of items) {
    const file = paths.layer === 'personal' && item.target.notedPath !== undefined ? CATEGORY_FILES.facts.file : item.target.file;
    const placed =
      file === item.target.file ? item : { ...item, line: renderItemLine(`${item.target.notedPath}: ${withoutBullet(item.line)}`) };
    byFile.set(file, [...(byFile.get(file) ?? []), placed]);
  }
  const facts: string[] = [];
  for (const [file, group] of byFile) {
    const key = (Object.keys(CATEGORY_FILES) as CategoryFileKey[]).find((k) => CATEGORY_FILES[k].file === file);
    if (key) {
      // A statement the file already says gains the item's source instead of a second line (model/sameStatement.ts).
      const accept = (before: string | undefined): string => {
        if (key !== 'tasks') {
          const { ops, rest } = mergeIntoSame(
            before,
            group.map((i) => i.line),
          );
          const appended = applyPlanEdit({ kind: 'append', title: CATEGORY_FILES[key].title, lines: rest }, before);
          return applyItemOps(appended, ops);
        }
        const open = mergeIntoSame(
          before,
          group.filter((i) => i.target.section !== 'done').map((i) => i.line),
        );
        const done = mergeIntoSame(
          before,
          group.filter((i) => i.target.section === 'done').map((i) => i.line),
          'Done',
        );
        return applyItemOps(applyPlanEdit({ kind: 'tasks', open: open.rest, done: done.rest }, before), [...open.ops, ...done.ops]);
      };
      if (editStoreFile(path.join(paths.root, file), accept)) written.push(file);
      continue;
    }
    // A note: re-resolve the file it is about (it may have moved or gone since it was held).
    for (const item of group) {
      const notedPath = item.target.notedPath ?? '';
      const target = notedPath ? resolveNoteTarget(paths, notedPath) : undefined;
      if (target?.kind === 'file') {
        written.push(storeRelative(paths, addNotesToFile(paths, target, [item.line])));
      } else {
        facts.push(renderItemLine(`${notedPath || file}: ${withoutBullet(item.line)}`));
      }
    }
  }
  if (facts.length) {
    const abs = path.join(paths.root, CATEGORY_FILES.facts.file);
    if (editStoreFile(abs, (before) => appendItems(before, CATEGORY_FILES.facts.title, facts))) written.push(CATEGORY_FILES.facts.file);
  }
  return [...new Set(written)];
}

/** Deletes in-place items from their files (a person rejected them). */
function removeInPlace(paths: StorePaths, items: ReviewItem[]): string[] {
  const written: string[] = [];
  const byFile = new Map<string, Set<string>>();
  for (const item of items) byFile.set(item.target.file, (byFile.get(item.target.file) ?? new Set()).add(lineIdentity(item.line)));
  for (const [file, ids] of byFile) {
    const changed = editStoreFile(resolveInStore(paths, file), (text) => (text === undefined ? undefined : removeItems(text, ids)));
    if (changed) written.push(file);
  }
  return written;
}

/**
 * Accepts or rejects items by id (or all of them), under the store lock with atomic writes.
 * Accept: a queued item is written to its file (marker removed) and recorded as accepted; an
 * in-place item is recorded as accepted. Reject: a queued item is deleted from the queue; an
 * in-place item is deleted from its file (only when named by id: `all` rejects the queue only).
 * `all` accepts only items that are not flagged: an item that reads as an instruction to an agent
 * is let through only by naming it, so one blanket accept cannot hand a planted order to every
 * agent (keptFlagged lists what stayed held); so do ids a command chose for many at once
 * (`{ blanket: ids }`: the Review view's Accept All Suggestions). The digest is regenerated afterwards. Knowledge files
 * are written before review.md, so a crash in between leaves the item queued and accepting it
 * again adds no duplicate.
 *
 * `to: 'personal'` accepts into the person's own layer (personalLayer.ts): a new item is written
 * there instead of its shared file, an item held in place moves there, and the acceptance is
 * recorded in the layer's own review.md, so no committed file, journal or commit message holds it.
 * Items of the personal layer are decided there, under the store's one lock.
 */
export async function decideReview(
  paths: StorePaths,
  decision: ReviewDecision,
  ids: readonly string[] | 'all' | { blanket: readonly string[] },
  options: { lockTimeoutMs?: number; to?: StoreLayer } = {},
): Promise<ReviewDecisionResult> {
  const lock = await acquireStoreLock(paths.root, options.lockTimeoutMs);
  try {
    const pending = listReview(paths);
    // "Reject all" empties the queue only: deleting lines from a person's own files takes naming them.
    // "Accept all" lets through only what is not flagged: a planted instruction takes naming it.
    // An inference of the offline extractor is only a suggestion: "accept all" takes it.
    const all =
      decision === 'accept' ? pending.filter((item) => !isInstructionHold(item.kinds)) : pending.filter((item) => item.where === 'queue');
    // Ids a command chose for many at once (`{ blanket }`) are no naming either: flagged ones stay held.
    const named = ids === 'all' ? undefined : 'blanket' in ids ? ids.blanket : ids;
    const chosen = named ? pending.filter((item) => named.includes(item.id)) : pending;
    const blanket = decision === 'accept' && !Array.isArray(ids);
    const wanted = ids === 'all' ? all : blanket ? chosen.filter((item) => !isInstructionHold(item.kinds)) : chosen;
    const missing = named ? named.filter((id) => !pending.some((item) => item.id === id)) : [];
    const keptFlagged = blanket ? chosen.filter((item) => isInstructionHold(item.kinds)) : [];
    const result: ReviewDecisionResult = { decided: wanted, failed: [], missing, written: [], keptFlagged };
    if (wanted.length === 0) return result;
    const personal = personalStorePaths(paths);
    const toPersonal = decision === 'accept' && options.to === 'personal';
    const shared = wanted.filter((i) => reviewItemLayer(i.id) === 'shared');
    // A personal item is decided in its layer, in the layer's own names (its id and file without the prefix).
    const own = wanted.filter((i) => reviewItemLayer(i.id) === 'personal');
    const inPersonal = own.map((i) => ({
      ...i,
      id: i.id.slice(PERSONAL_REVIEW_PREFIX.length),
      target: { ...i.target, file: fileInLayer(i.target.file) },
    }));
    if (toPersonal) ensureStoreLayout(personal);
    const sharedOutcome = shared.length ? decideInLayer(paths, toPersonal ? personal : paths, decision, shared) : undefined;
    const personalOutcome = inPersonal.length ? decideInLayer(personal, personal, decision, inPersonal) : undefined;
    const failed = [
      ...(sharedOutcome?.failed ?? []).map((f) => ({ id: f.item.id, reason: f.reason })),
      ...(personalOutcome?.failed ?? []).map((f) => ({ id: PERSONAL_REVIEW_PREFIX + f.item.id, reason: f.reason })),
    ];
    result.failed = wanted.flatMap((item) => failed.filter((f) => f.id === item.id).map((f) => ({ item, reason: f.reason })));
    result.decided = wanted.filter((i) => !failed.some((f) => f.id === i.id));
    const written = [...(sharedOutcome?.written ?? []), ...(personalOutcome?.written ?? [])];
    result.written = [...new Set(written.map((f) => storeRelative(paths, f)))];
    regenerateDigest(paths, { enabled: loadStoreConfig(paths.config).config.digestEnabled, automatic: true });
    // Only what was decided in and for the shared files is recorded in the store's history (it is committed).
    const committed = toPersonal ? [] : result.decided.filter((i) => reviewItemLayer(i.id) === 'shared');
    if (committed.length) {
      const verb = decision === 'accept' ? 'accepted' : 'rejected';
      result.history = await recordStoreChange(paths, {
        type: 'memory',
        subject: `review: ${verb} ${committed.length} item${committed.length === 1 ? '' : 's'}`,
        body: committed.map((i) => `Item ${i.id}: ${i.line.slice(0, 200)}`),
      });
    } else if (toPersonal && result.decided.length) {
      // Queue lines left review.md (or items left a shared file): the commit says so without quoting them.
      result.history = await recordStoreChange(paths, {
        type: 'memory',
        subject: `review: kept ${result.decided.length} item${result.decided.length === 1 ? '' : 's'} personal`,
        body: [],
      });
    }
    return result;
  } finally {
    lock.release();
  }
}

/** What deciding one layer's items did. */
interface LayerDecision {
  failed: Array<{ item: ReviewItem; reason: string }>;
  /** Files written, absolute (the caller names them from the shared store). */
  written: string[];
}

/**
 * Decides `wanted`, items of the layer `paths` (its review.md and files, caller holds the lock).
 * `into` is where accepted new items go and their acceptance is recorded: the same layer, or the
 * personal one when a person keeps shared items to themselves (in-place items then move there).
 */
function decideInLayer(paths: StorePaths, into: StorePaths, decision: ReviewDecision, wanted: ReviewItem[]): LayerDecision {
  const name = (file: string) => path.join(paths.root, file);
  const nameInto = (file: string) => path.join(into.root, file);
  const moving = into !== paths;
  const out: LayerDecision = { failed: [], written: [] };
  let queued = wanted.filter((i) => i.where === 'queue');
  const inPlace = wanted.filter((i) => i.where === 'in-place');
  if (decision === 'accept') {
    // A statement a person forgot for good is not written back by an accept (a new item, an update's or a
    // supersession's new text; tombstones.ts): it stays queued, to reject.
    const forgotten = [...new Set([paths.ledger, into.ledger])].map((ledger) => forgottenLineTest(readLedger(ledger)));
    const isForgotten = (line: string) => forgotten.some((test) => test?.(line));
    for (const item of queued)
      if ((!item.pending || !['done', 'forget'].includes(item.pending.op)) && isForgotten(item.line))
        out.failed.push({ item, reason: 'a person forgot this statement for good (lore forget)' });
    queued = queued.filter((i) => !out.failed.some((f) => f.item === i));
    const changes = queued.filter((i) => i.pending && i.pending.op !== 'remember');
    const added = queued.filter((i) => !changes.includes(i));
    // A held item kept personal moves (moveItem.ts: with its continuation lines, written there first);
    // a note on a file becomes a personal fact naming the file, as a queued one does.
    const movedNotes = moving ? inPlace.filter((i) => i.target.notedPath !== undefined) : [];
    const writtenInto = writeAccepted(into, [...added, ...movedNotes]);
    pushAll(out.written, writtenInto.map(nameInto));
    if (moving) pushAll(out.written, removeInPlace(paths, movedNotes).map(name));
    for (const item of moving ? inPlace.filter((i) => !movedNotes.includes(i)) : []) {
      const key = (Object.keys(CATEGORY_FILES) as CategoryFileKey[]).find((k) => CATEGORY_FILES[k].file === item.target.file);
      if (!key) continue;
      moveLine(paths, into, key, item.line, item.target.section === 'done');
      out.written.push(name(item.target.file), nameInto(item.target.file));
    }
    for (const item of changes) {
      const outcome = applyItemChange(paths, itemChangeOf(item));
      if (outcome.applied) out.written.push(name(item.target.file));
      else out.failed.push({ item, reason: outcome.reason ?? 'not applied' });
    }
    // What failed stays queued, for the person to reject or to retry once the item is back.
    queued = queued.filter((i) => !out.failed.some((f) => f.item === i));
    const decided = wanted.filter((i) => !out.failed.some((f) => f.item === i));
    // What a queued item teaches goes into the day's journal (of the layer it went into), from the
    // source its line names (an agent's client:session, a conversation). An in-place item was in its file already.
    const learned = decided.filter((i) => i.where === 'queue' && i.pending?.op !== 'forget');
    const journal = journalLearned(
      into,
      learned.map((i) =>
        journalEntryOf(i.line, journalCategory(i.pending?.op === 'done' ? { file: i.target.file, section: 'done' } : i.target)),
      ),
    );
    if (journal) out.written.push(nameInto(journal));
    // Only flagged lines need recording: an agent's clean write is simply in its file now.
    const accepted = decided.filter((i) => i.kinds.length > 0 || !i.pending).map((i) => i.line);
    if (
      moving &&
      accepted.length &&
      editStoreFile(reviewPath(into), (current) => nonEmptyChange(current, addAccepted(current ?? '', accepted)))
    )
      out.written.push(reviewPath(into));
    // Accepted lines are recorded in the review.md of the layer they are in; the queue lines leave this layer's.
    recordReview(paths, queued, moving ? [] : accepted, out, name);
  } else {
    pushAll(out.written, removeInPlace(paths, inPlace).map(name));
    recordReview(paths, queued, [], out, name);
  }
  return out;
}

/** The edit's result, or undefined when it changes nothing. */
function nonEmptyChange(current: string | undefined, next: string): string | undefined {
  return next === (current ?? '') ? undefined : next;
}

/** Removes the decided queue lines from the layer's review.md and records the accepted lines there. */
function recordReview(
  paths: StorePaths,
  queued: ReviewItem[],
  accepted: string[],
  out: LayerDecision,
  name: (file: string) => string,
): void {
  const reviewChanged = editStoreFile(reviewPath(paths), (current) => {
    let next = current ?? '';
    if (queued.length && current !== undefined) {
      const ids = new Set(queued.map((i) => i.id));
      const entries = parseReview(current).entries.filter((e) => ids.has(reviewItemId('queue', e.target, e.line, e.pending)));
      next = removeReviewLines(
        next,
        entries.map((e) => e.lineIndex),
      );
    }
    if (accepted.length) next = addAccepted(next, accepted);
    return nonEmptyChange(current, next);
  });
  if (reviewChanged) out.written.push(name(REVIEW_FILE));
}

/** The item change an accepted agent's write makes (update, supersede, done, forget). */
function itemChangeOf(item: ReviewItem): ItemChange {
  const { op, id = '' } = item.pending!;
  if (op === 'update' || op === 'supersede') return { op, id, file: item.target.file, line: item.line };
  return { op: op === 'done' ? 'done' : 'forget', id, file: item.target.file };
}

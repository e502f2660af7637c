/**
 * The harvest plan: everything an apply would write, as data. It is built from the current
 * store and the distilled items, and it is what `--preview` prints, what the extension shows
 * as diffs, and what apply executes. Building it reads the store but writes nothing.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DIGEST_MAX_BYTES } from '../../model/constants';
import {
  CATEGORY_FILES,
  countItems,
  type CategoryFileKey,
  type ItemCounts,
  type ItemOrigin,
  type ItemRelations,
} from '../../model/categories';
import { freshItemLines } from '../../model/categoryFile';
import { lineIdentity, noteLine, orphanNoteLine, playbookLine, statementLine } from '../../model/itemLines';
import { holdFlaggedInPlan } from '../../store/items/reviewQueue';
import { redactName } from '../../model/safety/redact';
import { readTextIfExists, readTextLossless } from '../../base/readText';
import { digestSectionsFromTexts, readCategoryTexts, type CategoryTexts } from '../../store/digest';
import { renderDigest } from '../../model/digestFormat';
import { findNotesForFile, metaFor, newNoteFile, resolveNoteTarget } from '../../store/fileNotes';
import { parseNoteFile } from '../../model/noteFile';
import type { NoteIndex } from '../../store/noteIndex';
import { openNoteIndex } from '../../store/noteIndexCache';
import { permitsReclaim, type Ledger, type LedgerEntry } from '../../model/ledgerFormat';
import { forgottenLineTest } from '../../model/tombstones';
import { resolveInStore, storeRelative, type StorePaths } from '../../store/storePaths';
import type { ReclaimMode } from '../../model/storeConfigFormat';
import { boundedFileName, MAX_NAME_BYTES } from '../../base/fileNames';
import type { ConversationOutcome, DistilledInput, PlanChange, HarvestPlan } from '../../store/harvestPlan';
import { applyPlanEdit, type PlanEdit } from '../../model/planEdits';
import { PlanRelations } from './planRelations';
import { foldDuplicates } from './sameStatements';

export interface PlanOptions {
  reclaim: ReclaimMode;
  digestEnabled: boolean;
  now: Date;
  /** See HarvestPlan.ledgerSha256. */
  ledgerSha256: string;
}

function countLines(before: string | undefined, after: string | undefined): number {
  const n = (s: string | undefined) => (s ? s.split('\n').length : 0);
  return Math.max(0, n(after) - n(before));
}

/** Builds the plan against the store as it is now. */
export function buildPlan(
  paths: StorePaths,
  ledgerNow: Ledger,
  outcomes: ConversationOutcome[],
  distilled: DistilledInput[],
  options: PlanOptions,
): HarvestPlan {
  const lines: Record<'facts' | 'decisions' | 'questions' | 'playbooks' | 'open' | 'done', string[]> = {
    facts: [],
    decisions: [],
    questions: [],
    playbooks: [],
    open: [],
    done: [],
  };
  const notes = new Map<string, { meta: ReturnType<typeof metaFor>; lines: string[] }>();
  let orphanNotes = 0;
  const orphanLines = new Set<string>();
  // Many conversations name the same few files: resolve each (path, cwd) once per plan.
  const targets = new Map<string, { target: ReturnType<typeof resolveNoteTarget>; file?: string }>();
  // Opened once per plan, and only when a conversation names a file; never saved: a preview or dry run writes nothing.
  let noteIndex: NoteIndex | undefined;
  const resolve = (mentioned: string, cwd: string | undefined) => {
    const key = `${cwd ?? ''}\u0000${mentioned}`;
    let hit = targets.get(key);
    if (!hit) {
      const target = resolveNoteTarget(paths, mentioned, cwd);
      let file: string | undefined;
      if (target.kind === 'file') {
        const existing = findNotesForFile(paths, target.absolute, { index: (noteIndex ??= openNoteIndex(paths, { persist: false })) });
        file = storeRelative(paths, existing?.file ?? newNoteFile(paths, target.relative));
      }
      hit = { target, file };
      targets.set(key, hit);
    }
    return hit;
  };

  // A line a person forgot for good (tombstones.ts) is left out before anything else sees it: it
  // is neither written nor made a source of another line.
  const isForgotten = forgottenLineTest(ledgerNow);
  const forgotten: string[] = [];
  const leftOut = (line: string) => {
    if (!isForgotten?.(line)) return false;
    forgotten.push(line);
    return true;
  };
  // An item the model says is the same as an existing one becomes a source of that line; one that
  // supersedes existing items marks them (planRelations.ts).
  const relations = new PlanRelations(paths, options.now);
  // The offline extractor's inferences, by line identity (a line folded with its duplicates keeps
  // it): held in review.md for a person to confirm (reviewFile.ts).
  const inferred = new Set<string>();
  for (const { items, provenance, cwd } of distilled) {
    const add = (list: string[], item: ItemRelations & ItemOrigin, line: string) => {
      if (leftOut(line) || relations.mergeInto(item, line, provenance)) return;
      list.push(line);
      if (item.inferred) inferred.add(lineIdentity(line));
      relations.supersede(item, line);
    };
    for (const item of items.facts) add(lines.facts, item, statementLine(item, provenance));
    for (const item of items.decisions) add(lines.decisions, item, statementLine(item, provenance));
    for (const item of items.questions) add(lines.questions, item, statementLine(item, provenance));
    for (const item of items.tasks_open) add(lines.open, item, statementLine(item, provenance));
    for (const item of items.tasks_done) add(lines.done, item, statementLine(item, provenance));
    for (const item of items.playbooks) add(lines.playbooks, item, playbookLine(item, provenance));
    for (const item of items.files) {
      const { target, file } = resolve(item.path, cwd);
      if (target.kind === 'orphan' || !file) {
        const line = orphanNoteLine(item.path, item.note, provenance);
        if (leftOut(line) || relations.mergeInto(item, line, provenance)) continue;
        lines.facts.push(line);
        if (item.inferred) inferred.add(lineIdentity(line));
        relations.supersede(item, line);
        orphanLines.add(line);
        orphanNotes++;
        continue;
      }
      const entry = notes.get(file) ?? { meta: metaFor(file, target.relative, target.identity), lines: [] };
      add(entry.lines, item, noteLine(item.note, provenance));
      if (entry.lines.length) notes.set(file, entry);
    }
  }

  const before = readCategoryTexts(paths);
  // The same statement twice (from several conversations, or already in the store) is one line with every source (sameStatements.ts).
  const duplicates = foldDuplicates(paths, before, lines, notes, orphanLines, relations);
  // --- Review queue (planted instructions): flagged lines leave `lines`/`notes` for review.md.
  const review = holdFlaggedInPlan(paths, lines, notes, before, inferred);
  // --- end review queue
  // A held line is not written, so it supersedes nothing (yet).
  const itemOps = relations.opsByFile(review.held.map((h) => h.line));
  const after: CategoryTexts = { ...before };
  const edits: Partial<Record<CategoryFileKey, PlanEdit>> = {};
  const append = (key: Exclude<CategoryFileKey, 'tasks'>, list: string[]) => {
    if (list.length) edits[key] = { kind: 'append', title: CATEGORY_FILES[key].title, lines: list };
  };
  append('facts', lines.facts);
  append('decisions', lines.decisions);
  append('questions', lines.questions);
  append('playbooks', lines.playbooks);
  if (lines.open.length || lines.done.length) edits.tasks = { kind: 'tasks', open: lines.open, done: lines.done };

  // What is really written: a line already in the store (a duplicate) is not counted.
  const totals = writtenCounts(before, edits, orphanLines);
  const changes: PlanChange[] = [];
  // Existing lines the relations change: after the file's appends, in the same change.
  const withOps = (file: string, edit: PlanEdit | undefined): PlanEdit | undefined => {
    const ops = itemOps.get(file);
    itemOps.delete(file);
    if (!ops) return edit;
    return edit ? { kind: 'chain', edits: [edit, { kind: 'items', ops }] } : { kind: 'items', ops };
  };
  for (const key of Object.keys(CATEGORY_FILES) as CategoryFileKey[]) {
    const edit = withOps(CATEGORY_FILES[key].file, edits[key]);
    if (!edit) continue;
    after[key] = applyPlanEdit(edit, before[key]);
    if (after[key] !== (before[key] ?? '')) {
      changes.push({
        file: CATEGORY_FILES[key].file,
        before: before[key],
        after: after[key],
        added: countLines(before[key], after[key]),
        edit,
      });
    }
  }
  for (const [file, { meta, lines: noteLines }] of notes) {
    const current = readTextLossless(path.join(paths.root, file));
    const edit = withOps(file, { kind: 'notes', meta, lines: noteLines })!;
    const next = applyPlanEdit(edit, current);
    totals.files += freshItemLines(current === undefined ? undefined : parseNoteFile(current).body, noteLines).length;
    if (next !== current) changes.push({ file, before: current, after: next, added: countLines(current, next), edit });
  }
  // Note files that only gain a source or a marker.
  for (const [file, ops] of itemOps) {
    const current = readTextLossless(path.join(paths.root, file));
    const edit: PlanEdit = { kind: 'items', ops };
    const next = applyPlanEdit(edit, current);
    if (current !== undefined && next !== current) changes.push({ file, before: current, after: next, added: 0, edit });
  }
  if (review.change) changes.push(review.change); // review.md: knowledge, written before the ledger

  const digestBefore = readTextIfExists(paths.digest);
  const digestAfter = options.digestEnabled ? renderDigest(digestSectionsFromTexts(after, DIGEST_MAX_BYTES, review.keep)) : undefined;
  if (digestAfter !== digestBefore)
    changes.push({ file: 'digest.md', before: digestBefore, after: digestAfter, added: countLines(digestBefore, digestAfter) });

  // Other top-level keys (tombstones, a newer Lore's) stay as they were.
  const ledger: Ledger = { ...ledgerNow, entries: { ...ledgerNow.entries } };
  const at = options.now.toISOString();
  const harvestedNow = new Set<string>();
  for (const outcome of outcomes) {
    if (!outcome.status) continue;
    const previous = ledger.entries[outcome.sha256];
    const entry: LedgerEntry = { path: outcome.path, status: outcome.status, at, deleted: false, id: outcome.id };
    if (outcome.items) entry.items = outcome.items;
    if (outcome.error) entry.error = outcome.error;
    // Its name for the Ledger view; a retry of a failure read before titles keeps the earlier one.
    const title = outcome.title ?? previous?.title;
    if (title) entry.title = title;
    // A retry that succeeds replaces the failure; a failure never downgrades a success.
    if (previous && (previous.status === 'harvested' || previous.status === 'deleted-unharvested') && outcome.status === 'harvest-failed')
      continue;
    ledger.entries[outcome.sha256] = entry;
    if (outcome.status === 'harvested' || outcome.status === 'deleted-unharvested') harvestedNow.add(outcome.sha256);
  }

  // Reclaim only inbox files whose content the ledger (after this run) proves. The ledger
  // records the reclaim before it happens, so a crash in between is finished by the next run
  // (which finds the file still there, already proven) and the ledger never lags behind.
  if (options.reclaim !== 'keep') {
    const taken = new Set<string>();
    for (const outcome of outcomes) {
      if (!outcome.inInbox || !outcome.sha256) continue;
      const entry = ledger.entries[outcome.sha256];
      if (!(harvestedNow.has(outcome.sha256) || permitsReclaim(entry))) continue;
      outcome.reclaim = options.reclaim;
      if (options.reclaim === 'archive') outcome.archiveTo = archiveTarget(paths, outcome, options.now, taken);
      ledger.entries[outcome.sha256] =
        options.reclaim === 'delete' ? { ...entry, deleted: true } : { ...entry, archived: outcome.archiveTo };
    }
  }
  const planned = relations.planned();
  return {
    changes,
    ledger,
    outcomes,
    items: totals,
    orphanNotes,
    digestEnabled: options.digestEnabled,
    held: review.held,
    ledgerSha256: options.ledgerSha256,
    ...(planned.merged.length || planned.superseded.length ? { relations: planned } : {}),
    ...(forgotten.length ? { forgotten } : {}),
    ...(duplicates.folded || duplicates.merged ? { duplicates } : {}),
  };
}

/** A free path in the archive for a conversation file (never overwrites, never collides in one run). */
function archiveTarget(paths: StorePaths, outcome: ConversationOutcome, now: Date, taken: Set<string>): string {
  const dir = resolveInStore(paths, path.join('archive', now.toISOString().slice(0, 7)));
  // The raw copy keeps its bytes, not a secret its name held (the ledger records the name redacted).
  const base = redactName(path.basename(outcome.path));
  let target = path.join(dir, base);
  if (fs.existsSync(target) || taken.has(target)) {
    const ext = path.extname(base);
    const stem = base.slice(0, base.length - ext.length);
    const suffix = `-${outcome.sha256.slice(0, 12)}${ext}`;
    // Cut from the stem, so a long name keeps its hash suffix and stays a valid name.
    target = path.join(dir, boundedFileName(stem, MAX_NAME_BYTES - Buffer.byteLength(suffix)) + suffix);
  }
  taken.add(target);
  return target;
}

/** Item lines each category file's edit adds beyond what it already holds; orphan notes count as files. */
function writtenCounts(
  before: CategoryTexts,
  edits: Partial<Record<CategoryFileKey, PlanEdit>>,
  orphanLines: ReadonlySet<string>,
): ItemCounts {
  const counts = countItems({ facts: [], decisions: [], tasks_done: [], tasks_open: [], questions: [], playbooks: [], files: [] });
  const fresh = (key: Exclude<CategoryFileKey, 'tasks'>) => {
    const edit = edits[key];
    return edit?.kind === 'append' ? freshItemLines(before[key], edit.lines) : [];
  };
  for (const line of fresh('facts')) counts[orphanLines.has(line) ? 'files' : 'facts']++;
  counts.decisions = fresh('decisions').length;
  counts.questions = fresh('questions').length;
  counts.playbooks = fresh('playbooks').length;
  const tasks = edits.tasks;
  if (tasks?.kind === 'tasks') {
    const open = freshItemLines(before.tasks, tasks.open);
    counts.tasks_open = open.length;
    counts.tasks_done = freshItemLines(before.tasks, tasks.done).filter((line) => !open.includes(line)).length;
  }
  return counts;
}

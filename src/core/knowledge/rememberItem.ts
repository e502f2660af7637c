/**
 * One item an agent asks Lore to remember (the `lore_remember` language model tool): a fact,
 * decision, open question, open task or a note on a workspace file, written with the same
 * primitives as a harvest (redaction, line neutralization, de-duplication, the store lock, atomic
 * replace, digest regeneration). An item that reads as an instruction to an agent goes to
 * review.md instead, as a harvested one does.
 *
 * `planRemember` is the pure part (no write): the line exactly as it would be written and where,
 * so a confirmation can show it; `rememberItem` writes that same plan.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { flagInstruction, flagKinds, type InstructionFlagKind } from '../safety/instructionFlags';
import { redactSecrets } from '../safety/redact';
import { regenerateDigest } from '../store/digest';
import { addNotesToFile, findNotesForFile, resolveNoteTarget } from '../store/fileNotes';
import { loadStoreConfig } from '../store/storeConfig';
import { acquireStoreLock } from '../store/storeLock';
import { storeRelative, type StorePaths } from '../store/storePaths';
import { editStoreFile } from '../store/storeText';
import { CATEGORY_FILES } from './categories';
import { appendItems, insertTasks } from './categoryFile';
import { itemId } from './itemId';
import { noteLine, statementLine } from './itemLines';
import { toIsoDate } from './provenance';
import { REVIEW_FILE, type ReviewTarget } from './reviewFile';
import { writeHeldItems } from './reviewQueue';

/** What can be remembered. */
export const REMEMBER_KINDS = ['fact', 'decision', 'question', 'task', 'note'] as const;
export type RememberKind = (typeof REMEMBER_KINDS)[number];

/** Longest statement or note accepted (as the MCP tools bound theirs). */
export const REMEMBER_MAX_CHARS = 2000;

export interface RememberInput {
  kind: RememberKind;
  /** The statement (or the note). */
  text: string;
  /** Why, or more context: `statement — detail` (not for notes). */
  detail?: string;
  /** For a note: the workspace-relative (or absolute) path of the file it is about. */
  path?: string;
}

/** The line to write and where: what a confirmation shows, and what rememberItem writes. */
export type RememberPlan =
  | {
      ok: true;
      kind: RememberKind;
      line: string;
      /** The item's id (itemId of the line). */
      id: string;
      /** Store-relative file the line goes to (a note file for notes). */
      file: string;
      /** For a note: the workspace-relative path of the file it is about. */
      notedPath?: string;
      /** Set when the line reads as an instruction: it will be held in review.md instead. */
      held?: InstructionFlagKind[];
    }
  | { ok: false; reason: string };

const STATEMENT_FILES = { fact: CATEGORY_FILES.facts, decision: CATEGORY_FILES.decisions, question: CATEGORY_FILES.questions, task: CATEGORY_FILES.tasks } as const;

/** The line and its target, without writing anything. */
export function planRemember(paths: StorePaths, input: RememberInput, source: string, today: Date): RememberPlan {
  const text = redactSecrets(String(input.text ?? '')).trim();
  if (!text) return { ok: false, reason: 'the text is empty' };
  if (text.length > REMEMBER_MAX_CHARS) return { ok: false, reason: `the text is longer than ${REMEMBER_MAX_CHARS} characters` };
  const provenance = { source, date: toIsoDate(today) };
  let line: string;
  let file: string;
  let notedPath: string | undefined;
  if (input.kind === 'note') {
    if (!input.path?.trim()) return { ok: false, reason: 'a note needs the path of the file it is about' };
    const target = resolveNoteTarget(paths, path.resolve(paths.workspace, input.path));
    if (target.kind === 'orphan') return { ok: false, reason: `cannot attach a note to ${input.path}: ${target.reason}` };
    line = noteLine(text, provenance);
    const existing = findNotesForFile(paths, target.absolute, { heal: false })?.file;
    file = storeRelative(paths, existing ?? path.join(paths.files, target.identity.noteFileName));
    notedPath = target.relative;
  } else {
    const spec = STATEMENT_FILES[input.kind];
    if (!spec) return { ok: false, reason: `unknown kind "${String(input.kind)}"; one of ${REMEMBER_KINDS.join(', ')}` };
    const detail = input.detail ? redactSecrets(input.detail).trim() : '';
    line = statementLine({ statement: text, detail: detail || undefined }, provenance);
    file = spec.file;
  }
  const kinds = flagKinds(flagInstruction(line));
  return { ok: true, kind: input.kind, line, id: itemId(line), file, ...(notedPath !== undefined ? { notedPath } : {}), ...(kinds.length ? { held: kinds } : {}) };
}

export type RememberResult =
  | { ok: true; plan: Extract<RememberPlan, { ok: true }>; added: boolean; where: 'file' | 'review'; written: string }
  | { ok: false; reason: string };

/** How long a write waits for another Lore process (a harvest) to release the store. */
const LOCK_TIMEOUT_MS = 15_000;

/**
 * Writes the planned line under the store lock (re-planned inside it, so the line written is the
 * line planned from the same state). Refused, with the reason, when there is no store: an agent
 * never creates one.
 */
export async function rememberItem(paths: StorePaths, input: RememberInput, source: string, today: Date): Promise<RememberResult> {
  if (!fs.existsSync(paths.root)) return { ok: false, reason: `there is no knowledge store at ${paths.root}` };
  const lock = await acquireStoreLock(paths.root, LOCK_TIMEOUT_MS);
  try {
    const plan = planRemember(paths, input, source, today);
    if (!plan.ok) return plan;
    if (plan.held) {
      const target: ReviewTarget = plan.kind === 'task' ? { file: plan.file, section: 'open' } : plan.notedPath !== undefined ? { file: plan.file, notedPath: plan.notedPath } : { file: plan.file };
      const added = writeHeldItems(paths, [{ target, line: plan.line, kinds: plan.held }]);
      return { ok: true, plan, added, where: 'review', written: REVIEW_FILE };
    }
    if (plan.kind === 'note') {
      const target = resolveNoteTarget(paths, path.resolve(paths.workspace, input.path!));
      if (target.kind === 'orphan') return { ok: false, reason: target.reason };
      const before = findNotesForFile(paths, target.absolute, { heal: false });
      const alreadyThere = before?.note.notes.some((n) => n.raw.trim() === plan.line) ?? false;
      const noteFile = addNotesToFile(paths, target, [plan.line]);
      return { ok: true, plan, added: !alreadyThere, where: 'file', written: storeRelative(paths, noteFile) };
    }
    const spec = STATEMENT_FILES[plan.kind];
    const file = path.join(paths.root, spec.file);
    const added = editStoreFile(file, (before) => (plan.kind === 'task' ? insertTasks(before, [plan.line], []) : appendItems(before, spec.title, [plan.line])));
    if (added) regenerateDigest(paths, { enabled: loadStoreConfig(paths.config).config.digestEnabled, automatic: true });
    return { ok: true, plan, added, where: 'file', written: spec.file };
  } finally {
    lock.release();
  }
}

/**
 * Forgetting a conversation for good (`lore forget <conversation-id>`, "Forget This
 * Conversation…"): every line only it taught goes, lines other sources share lose only its
 * provenance, and its words go from everywhere the store kept them: the stored transcript, raw
 * copies in the inbox and archive, cached model replies, hook queue entries, review.md entries,
 * the undo record of a harvest that holds them, and the search index. A tombstone in the ledger
 * (tombstones.ts) keeps it forgotten: a later harvest of the same content or the same session
 * id skips it, and the removed statements are left out of any harvest that brings them back.
 *
 * Like a harvest it is a plan first (data: what `--preview` prints and VS Code's confirmation
 * lists), then an apply under the store lock that plans again and executes that plan: the
 * tombstone first (from then on no harvest brings anything back), then the knowledge files
 * (guarded replace, atomic), then the files that go, the index last. Killed half-way, running it
 * again finishes the job. Files outside the store (an agent's own session log) are never touched.
 */
import * as fs from 'node:fs';
import { removeNoFollow } from '../../base/storeLinks';
import * as path from 'node:path';
import { CATEGORY_FILES } from '../../model/categories';
import { parseLines } from '../../model/categoryFile';
import { isItemLine } from '../../model/itemLines';
import { removeReviewLines } from '../../model/reviewFile';
import { reviewPath } from '../items/reviewQueue';
import { readQueuedSessions } from '../captureQueue';
import { fsyncDirectory } from '../../base/atomicWrite';
import { readLedger, writeLedger } from '../ledger';
import { type Ledger } from '../../model/ledgerFormat';
import { isNoteFileName } from '../../model/noteFile';
import { lockStoreForApply } from '../changes/applyPlan';
import { isInside, resolveInStore, storeRelative, type StorePaths } from '../storePaths';
import { editStoreFile } from '../../base/storeText';
import { readStoreFile, readTextLossless } from '../../base/readText';
import { storedTranscriptSha } from '../transcriptFiles';
import { forgottenConversationAt, withForgottenConversation, withForgottenItems } from '../../model/tombstones';
import { readUndoRecord, undoDir, undoRecordFile } from '../undoRecord';
import { listNames, walkTree } from '../../base/walkTree';
import { refreshDerivedFiles } from '../derivedFiles';
import { parseProvenance } from '../../model/provenance';
import { recordStoreChange, type HistoryOutcome } from '../history/storeHistory';
import { removeSource } from './forgetSource';
import { JOURNAL_DATE, JOURNAL_DIR, parseJournal, renderJournal } from '../../model/journalFormat';

/** Why a file goes. */
export type ForgottenFileKind = 'transcript' | 'inbox copy' | 'archived copy' | 'cached reply' | 'hook queue entry' | 'undo record';

export interface ForgetPlan {
  /** The conversation id, as the ledger and `[from: …]` name it. */
  conversation: string;
  /** The ledger's entries of its contents: sha256 and where it was read from. */
  contents: Array<{ sha256: string; path: string; status: string }>;
  /** Items only it taught, which go: store-relative file, the item's id and its first line. */
  removed: Array<{ file: string; id: string; line: string }>;
  /** Items other sources taught too, which stay without its provenance. */
  trimmed: Array<{ file: string; before: string; after: string }>;
  /** review.md entries (waiting for a person) that came from it. */
  review: string[];
  /** Journal days with a section of it (journal/YYYY-MM-DD.md): the section goes, and the day's model summary with it. */
  journals: string[];
  /** Store-relative files that go, and why. */
  files: Array<{ file: string; kind: ForgottenFileKind }>;
  /** Raw files outside the store it was read from: left where they are, never harvested again. */
  outside: string[];
  /** When it was forgotten before (a second forget finishes what is left, if anything). */
  forgottenAt?: string;
}

/** True when the plan finds nothing of the conversation in the store (nor in the ledger). */
export function isEmptyForgetPlan(plan: ForgetPlan): boolean {
  return (
    plan.contents.length === 0 &&
    plan.removed.length === 0 &&
    plan.trimmed.length === 0 &&
    plan.review.length === 0 &&
    plan.journals.length === 0 &&
    plan.files.length === 0
  );
}

/** The knowledge files a source may be in: the category files, then every note file. */
function knowledgeFiles(paths: StorePaths): string[] {
  const notes = listNames(paths.files)
    .filter(isNoteFileName)
    .sort()
    .map((name) => storeRelative(paths, path.join(paths.files, name)));
  return [...Object.values(CATEGORY_FILES).map((c) => c.file), ...notes];
}

function exists(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Whether a file's bytes hold any of `needles` (read whole: the files looked into are small). */
function holdsAny(file: string, needles: readonly string[]): boolean {
  try {
    const bytes = readStoreFile(file);
    return needles.some((n) => n && bytes.includes(n));
  } catch {
    return false;
  }
}

/** Whether the inbox file name is a copy of this conversation (`<id>.<ext>`, a hook's `<tool>-<id>-<sha12>.<ext>`). */
function namesConversation(name: string, id: string): boolean {
  const stem = name.replace(/\.[^.]+$/, '');
  return stem === id || new RegExp(`^[a-z]+-${id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-[0-9a-f]{12}$`).test(stem);
}

/** What forgetting conversation `id` would do, read from the store as it is now. Writes nothing. */
export function planForget(paths: StorePaths, id: string, ledger: Ledger = readLedger(paths.ledger)): ForgetPlan {
  const plan: ForgetPlan = { conversation: id, contents: [], removed: [], trimmed: [], review: [], journals: [], files: [], outside: [] };
  const forgottenAt = forgottenConversationAt(ledger, id);
  if (forgottenAt) plan.forgottenAt = forgottenAt;
  const files = new Map<string, ForgottenFileKind>();
  const add = (abs: string, kind: ForgottenFileKind) => {
    if (isInside(paths.root, abs) && exists(abs)) files.set(storeRelative(paths, abs), kind);
  };
  const shas = new Set<string>(ledger.forgotten?.conversations[id]?.sha256 ?? []);
  for (const [sha256, entry] of Object.entries(ledger.entries)) {
    if (entry.id !== id) continue;
    shas.add(sha256);
    plan.contents.push({ sha256, path: entry.path, status: entry.status });
    if (entry.transcript) add(path.resolve(paths.root, entry.transcript), 'transcript');
    if (entry.archived) add(path.resolve(entry.archived), 'archived copy');
    const raw = path.resolve(entry.path);
    if (isInside(paths.inbox, raw)) add(raw, 'inbox copy');
    else if (!isInside(paths.root, raw) && exists(raw)) plan.outside.push(entry.path);
  }

  for (const file of knowledgeFiles(paths)) {
    const text = readTextLossless(resolveInStore(paths, file));
    if (text === undefined) continue;
    const removal = removeSource(text, id);
    for (const { line, id: itemId } of removal.removed) plan.removed.push({ file, id: itemId, line: line.trim() });
    for (const change of removal.trimmed) plan.trimmed.push({ file, before: change.before.trim(), after: change.after.trim() });
  }
  plan.review = reviewEntriesOf(paths, id).map((e) => e.line);
  plan.journals = journalDaysOf(paths, id);

  // Stored transcripts rendered from its contents (the ledger may not point at every one).
  if (shas.size) {
    walkTree(paths.transcripts, {
      file: (entry, full) => {
        if (entry.isFile() && entry.name.endsWith('.md') && shas.has(storedTranscriptSha(full) ?? '')) add(full, 'transcript');
      },
    });
  }
  for (const name of listNames(paths.inbox)) if (namesConversation(name, id)) add(path.join(paths.inbox, name), 'inbox copy');
  const replies = path.join(paths.cache, 'replies');
  for (const name of listNames(replies)) {
    const file = path.join(replies, name);
    if (name.endsWith('.json') && cachedReplyId(file) === id) add(file, 'cached reply');
  }
  for (const entry of readQueuedSessions(paths)) if (entry.sessionId === id) add(entry.file, 'hook queue entry');
  // The last harvest's undo record keeps copies of what it changed: when they hold this conversation, it goes.
  const needles = [`[from: ${id},`, `; ${id},`, ...shas];
  walkTree(undoDir(paths), {
    file: (entry, full) => {
      if (entry.isFile() && holdsAny(full, needles)) add(full, 'undo record');
    },
  });
  // The record itself names the journal entries the apply added, with their text.
  if (undoJournalNames(paths, id)) add(undoRecordFile(paths), 'undo record');
  plan.files = [...files].map(([file, kind]) => ({ file, kind })).sort((a, b) => a.file.localeCompare(b.file));
  return plan;
}

/** Whether the undo record lists journal entries of conversation `id` (an unreadable record: no). */
function undoJournalNames(paths: StorePaths, id: string): boolean {
  try {
    return readUndoRecord(paths)?.files.some((f) => f.journalAdded?.some((e) => e.source === id)) ?? false;
  } catch {
    return false;
  }
}

/** Store-relative journal files with a section of conversation `id`. */
function journalDaysOf(paths: StorePaths, id: string): string[] {
  const dir = path.join(paths.root, JOURNAL_DIR);
  return listNames(dir)
    .filter((name) => JOURNAL_DATE.test(name.replace(/\.md$/, '')) && name.endsWith('.md'))
    .filter((name) => parseJournal(name.slice(0, -3), readTextLossless(path.join(dir, name))).sources.has(id))
    .map((name) => `${JOURNAL_DIR}/${name}`)
    .sort();
}

/** A journal without conversation `id`'s section; its summary goes too, as a model wrote it from that section among others. */
export function journalWithout(file: string, text: string | undefined, id: string): string | undefined {
  const journal = parseJournal(path.basename(file, '.md'), text);
  if (!journal.sources.delete(id)) return undefined;
  journal.summary = [];
  return renderJournal(journal);
}

function cachedReplyId(file: string): string | undefined {
  try {
    const value = JSON.parse(readStoreFile(file, 'utf8')) as { id?: unknown };
    return typeof value.id === 'string' ? value.id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * review.md lines that came from conversation `id`: held and pending entries, and the record of
 * accepted ones (which holds their text too). Their markers follow the provenance, so it is
 * looked for anywhere in the line.
 */
function reviewEntriesOf(paths: StorePaths, id: string): Array<{ line: string; lineIndex: number }> {
  const text = readTextLossless(reviewPath(paths));
  if (!text || !text.includes(id)) return [];
  const found: Array<{ line: string; lineIndex: number }> = [];
  parseLines(text).lines.forEach((line, lineIndex) => {
    if (!isItemLine(line)) return;
    const marker = /\[from:[^[\]\r\n]*\]/.exec(line);
    if (marker && parseProvenance(marker[0])?.sources.some((p) => p.source === id)) found.push({ line: line.trim(), lineIndex });
  });
  return found;
}

export interface ForgetResult {
  plan: ForgetPlan;
  /** Store-relative files written or removed. */
  written: string[];
  removedFiles: string[];
  /** Workspace-relative instruction files (AGENTS.md, …) whose knowledge block was rewritten without it. */
  instructionFiles: string[];
  /** Files that could not be removed, and why. */
  problems: Array<{ file: string; message: string }>;
  /** The store's git history after the forget (a commit of the removal; earlier commits still hold what was forgotten). */
  history?: HistoryOutcome;
}

export interface ForgetOptions {
  now?: Date;
  lockTimeoutMs?: number;
  /**
   * Brings the search index up to date after the forget and purges what left it: the index is
   * the search service's, so the caller names it (a one-shot process the store's own index,
   * services/search/forgetIndex.ts; the language server the index it holds open).
   */
  reindex: () => Promise<void>;
}

/**
 * Forgets conversation `id` under the store lock: plans again (the store may have changed since
 * the preview) and applies that plan. Returns what was done.
 */
export async function applyForget(paths: StorePaths, id: string, options: ForgetOptions): Promise<ForgetResult> {
  // As an apply: what a killed run left (temporary files, set-aside copies) is cleaned up first.
  const lock = await lockStoreForApply(paths, options.lockTimeoutMs);
  let result: ForgetResult;
  try {
    result = applyUnderLock(paths, id, options.now ?? new Date());
    // The commit names only the conversation id and counts: never the forgotten text.
    if (result.written.length || result.removedFiles.length) {
      result.history = await recordStoreChange(paths, {
        type: 'memory',
        subject: `forgot conversation ${id}`,
        body: [
          `Removed: ${result.plan.removed.length} item(s), ${result.plan.trimmed.length} shared item(s) without this source, ${result.removedFiles.length} file(s)`,
        ],
      });
    }
  } finally {
    lock.release();
  }
  await options.reindex();
  return result;
}

/**
 * Finishes every forget whose conversation still left words in the store, under the caller's store
 * lock: after a merge, a teammate's forget (its tombstone arrived with the ledger) meets what this
 * clone harvested of the same conversation before it pulled (lines, a transcript, a journal
 * section, review entries). Each is applied as the forget itself was, dated as the tombstone is, so
 * every clone writes the same ledger. Returns the store-relative files written or removed.
 */
export function finishForgottenConversations(paths: StorePaths): string[] {
  const changed = new Set<string>();
  const ledger = readLedger(paths.ledger);
  for (const [id, record] of Object.entries(ledger.forgotten?.conversations ?? {})) {
    const plan = planForget(paths, id, ledger);
    const left = plan.removed.length + plan.trimmed.length + plan.review.length + plan.journals.length + plan.files.length;
    if (left === 0) continue;
    const result = applyUnderLock(paths, id, new Date(record.at));
    for (const file of [...result.written, ...result.removedFiles]) changed.add(file);
  }
  return [...changed].sort();
}

function applyUnderLock(paths: StorePaths, id: string, now: Date): ForgetResult {
  const at = now.toISOString();
  const ledger = readLedger(paths.ledger);
  const plan = planForget(paths, id, ledger);
  const result: ForgetResult = { plan, written: [], removedFiles: [], instructionFiles: [], problems: [] };
  // 1. The tombstone: from here on a harvest keeps the conversation and its lines out.
  let next = withForgottenConversation(
    ledger,
    id,
    plan.contents.map((c) => c.sha256),
    at,
  );
  next = withForgottenItems(
    next,
    plan.removed.map((r) => r.line),
    at,
    id,
  );
  for (const { sha256 } of plan.contents) {
    const entry = { ...next.entries[sha256] };
    delete entry.transcript; // The transcript goes below.
    delete entry.title; // Its words (a prompt) go with it; the Ledger view then names it by its id.
    next.entries[sha256] = entry;
  }
  writeLedger(paths.ledger, next);
  result.written.push('ledger.json');
  // 2. Knowledge lines, each file edited through the guarded replace (a person's concurrent save is kept).
  for (const file of new Set([...plan.removed, ...plan.trimmed].map((c) => c.file))) {
    if (editStoreFile(resolveInStore(paths, file), (text) => (text === undefined ? undefined : removeSource(text, id).text)))
      result.written.push(file);
  }
  const review = reviewEntriesOf(paths, id);
  if (
    review.length &&
    editStoreFile(reviewPath(paths), (text) =>
      text === undefined
        ? undefined
        : removeReviewLines(
            text,
            reviewEntriesOf(paths, id).map((e) => e.lineIndex),
          ),
    )
  ) {
    result.written.push(storeRelative(paths, reviewPath(paths)));
  }
  for (const file of plan.journals) {
    if (editStoreFile(resolveInStore(paths, file), (text) => journalWithout(file, text, id))) result.written.push(file);
  }
  // Checked on every run, not only when this one edited a file: a forget killed after its edits
  // and before the digest finishes here (the re-run finds nothing left to remove).
  const derived = refreshDerivedFiles(paths);
  if (derived.digest) result.written.push('digest.md');
  result.instructionFiles = derived.instructionFiles;
  // 3. The files that hold its words.
  const dirs = new Set<string>();
  for (const { file } of plan.files) {
    const abs = resolveInStore(paths, file);
    try {
      removeNoFollow(abs, { force: true });
      result.removedFiles.push(file);
      dirs.add(path.dirname(abs));
    } catch (error) {
      result.problems.push({ file, message: (error as Error).message });
    }
  }
  if (plan.files.some((f) => f.kind === 'undo record')) {
    // A record missing some of its copies would undo wrongly: the whole record goes.
    removeNoFollow(undoDir(paths), { recursive: true, force: true });
  }
  for (const dir of dirs) fsyncDirectory(dir);
  return result;
}

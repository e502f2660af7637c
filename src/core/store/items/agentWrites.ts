/**
 * What an agent writes into memory (MCP `remember` and `change_item`: update, supersede, done,
 * forget): a new item in any category, or a change of an item named by its id. Agent text
 * is untrusted data, so it passes what a harvest's text passes: secrets redacted, line breaks and
 * provenance look-alikes neutralized, and text that reads as an instruction to an agent held in
 * review.md. By default (config `agentWrites: "pending"`) every write waits in review.md as a
 * pending item until a person accepts it, so nothing an agent writes reaches the digest, the
 * context, search or the instruction files on its own; `direct` writes clean ones straight in.
 * Every write takes the store lock and goes through the guarded replace.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { redactSecrets } from '../../model/safety/redact';
import { wellFormed } from '../../base/wellFormedText';
import { flagInstruction, flagKinds, type InstructionFlagKind } from '../../model/safety/instructionFlags';
import { regenerateDigest } from '../digest';
import { addNotesToFile, findNotesForFile, newNoteFile, resolveNoteTarget } from '../fileNotes';
import { ensureStoreLayout } from '../initStore';
import { loadStoreConfig, storeConfigForWrite } from '../storeConfig';
import { type AgentWritesMode } from '../../model/storeConfigFormat';
import { sleepSync } from '../../base/fileVersion';
import { FileBusyError } from '../../base/guardedReplace';
import { acquireStoreLock } from '../../base/storeLock';
import { recordStoreChange, type HistoryOutcome, type StoreChange } from '../history/storeHistory';
import { journalCategory, journalEntryOf, journalLearned } from '../journal/journalLearned';
import { editStoreFile } from '../../base/storeText';
import { readTextLossless } from '../../base/readText';
import {
  fileInLayer,
  layerOfFile,
  personalFileName,
  personalStorePaths,
  resolveInStore,
  storeRelative,
  type StoreLayer,
  type StorePaths,
} from '../storePaths';
import { applyPlanEdit } from '../../model/planEdits';
import { CATEGORY_FILES } from '../../model/categories';
import { freshItemLines } from '../../model/categoryFile';
import { acceptedIdentities, itemFilter } from '../heldItems';
import { applyItemChange } from './itemChanges';
import { itemId, isItemId } from '../../model/itemId';
import { categoryTarget, type ItemKind } from '../../model/itemKinds';
import { lineIdentity, noteLine, playbookLine, renderItemLine, statementLine } from '../../model/itemLines';
import { findItemsById, type LocatedItem } from './itemLocator';
import { addSources, neutralizeItemText, parseProvenance, plainSources, toIsoDate } from '../../model/provenance';
import { applyItemOps } from '../../model/itemOps';
import { isNoteFileName, parseNoteFile } from '../../model/noteFile';
import { sameStatementIndex } from '../../model/sameStatement';
import { forgottenLineTest } from '../../model/tombstones';
import { readLedger } from '../ledger';
import { decideReview, PERSONAL_REVIEW_PREFIX, reviewItemId, writeHeldItems } from './reviewQueue';
import type { PendingChange, ReviewTarget } from '../../model/reviewFile';
import { clock } from '../../base/clock';

/** How long an agent's write waits for another Lore process (a harvest) to release the store. */
const LOCK_TIMEOUT_MS = 15_000;

/** Who writes, when, and where writes go. */
export interface AgentWriteContext {
  /** The provenance source naming the agent and session, e.g. `claude-code:4f2a…` (see agentSource). */
  source: string;
  today: Date;
  /** Default: the store's config.json (`agentWrites`, itself `pending` by default). */
  mode?: AgentWritesMode;
  lockTimeoutMs?: number;
  /**
   * Asks the person, where the surface can (an MCP client that declared elicitation), about a
   * write that waits for review; undefined: nobody to ask, the write waits in review.md.
   */
  consent?: (question: ConsentQuestion) => Promise<ConsentAnswer>;
}

/** A write waiting for a person, as the person is asked about it. */
export interface ConsentQuestion {
  /** remember, update, supersede, done or forget. */
  op: string;
  /** The line written on accept (done / forget: the item as it stands). */
  line: string;
  /** Store-relative file it goes to (or is in). */
  file: string;
  /** Flag kinds when the line reads as an instruction to an agent. */
  kinds: string[];
}

/** accept / decline / cancel: the person's answer; undefined: no answer (not asked, failed, timed out). */
export type ConsentAnswer = 'accept' | 'decline' | 'cancel' | undefined;

/** A new item. `statement` is a playbook's steps; `name` its name; `path` a note's file. */
export interface RememberRequest {
  kind: ItemKind;
  statement: string;
  detail?: string;
  name?: string;
  path?: string;
  /**
   * Where it goes: the team's shared files (default) or the person's own layer (personalLayer.ts),
   * which is never committed. A note on a file is shared knowledge; a personal one is refused.
   */
  scope?: StoreLayer;
}

/** A change of an existing item, by id; `file` picks one when the same line is in several files. */
export type ChangeRequest =
  { op: 'update' | 'supersede'; id: string; text: string; file?: string } | { op: 'done' | 'forget'; id: string; file?: string };

/**
 * recorded: written to its file; pending: waiting in review.md for a person; held: waiting there
 * because it reads as an instruction; unchanged: nothing to do (already recorded, already done);
 * refused / not-found / ambiguous: nothing written, `reason` says why.
 */
export type AgentWriteStatus = 'recorded' | 'pending' | 'held' | 'declined' | 'unchanged' | 'refused' | 'not-found' | 'ambiguous';

export interface AgentWriteResult {
  status: AgentWriteStatus;
  /** The id of the new line (remember, update, supersede), or of the item acted on (done, forget). */
  id?: string;
  /** The new line, or the line of the item a done / forget acts on. */
  line?: string;
  /** Store-relative file the line is (or will be, once accepted) in. */
  file?: string;
  /** The item acted on, as it was (update, supersede, done, forget). */
  target?: LocatedItem;
  /** Flag kinds when held. */
  kinds?: string[];
  reason?: string;
  /** Every place an ambiguous id is written. */
  places?: LocatedItem[];
  /** What the store's git history did after the write (history/storeHistory.ts). */
  history?: HistoryOutcome;
  /** pending / held: the entry's id in the review queue (reviewQueue.ts), which a person's answer decides. */
  reviewId?: string;
  /** Set when the person was asked in the client: `accepted` (recorded), `declined` or `cancelled` (declined). */
  consent?: 'accepted' | 'declined' | 'cancelled';
}

/**
 * The provenance source of an agent's write: the MCP client's name (clientInfo.name), then
 * `:session` when the agent names its session, e.g. `claude-code:4f2a9c`; `mcp` when the client
 * gave no name. Each part is made safe like a conversation id (no `,` `[` `]`, no line breaks,
 * secrets redacted), the name lowercased with spaces as dashes and no colon (the colon separates
 * the session).
 */
export function agentSource(clientName: string | undefined, session?: string, sanitize: (raw: string) => string = (s) => s): string {
  const name = clientName?.trim()
    ? sanitize(wellFormed(clientName))
        .toLowerCase()
        .replace(/[\s:]+/g, '-')
    : 'mcp';
  const sess = session?.trim() ? sanitize(wellFormed(session)).replace(/\s+/g, '-') : '';
  return sess ? `${name}:${sess}` : name;
}

async function underLock(
  paths: StorePaths,
  context: AgentWriteContext,
  op: string,
  body: () => AgentWriteResult,
): Promise<AgentWriteResult> {
  ensureStoreLayout(paths);
  const lock = await acquireStoreLock(paths.root, context.lockTimeoutMs ?? LOCK_TIMEOUT_MS);
  try {
    const result = body();
    // Still under the lock: the commit takes the store as this write left it.
    const change = historyChange(op, context.source, result);
    const history = change ? await recordStoreChange(paths, change) : undefined;
    return history ? { ...result, history } : result;
  } finally {
    lock.release();
  }
}

/** Lines of an item quoted in a commit body at most this long. */
const QUOTE_CHARS = 200;

/** What an agent's write did, for the store's git history (nothing when it wrote nothing). */
function historyChange(op: string, source: string, result: AgentWriteResult): StoreChange | undefined {
  if (result.status !== 'recorded' && result.status !== 'pending' && result.status !== 'held') return undefined;
  // A personal item is never committed, nor quoted in a commit message.
  if (result.file !== undefined && layerOfFile(result.file) === 'personal') return undefined;
  const where = result.status === 'recorded' ? `in ${result.file}` : result.status === 'held' ? 'held for review' : 'waiting for review';
  const quote = result.line
    ? [`Item ${result.id}: ${result.line.length > QUOTE_CHARS ? `${result.line.slice(0, QUOTE_CHARS)}…` : result.line}`]
    : [];
  return { type: 'memory', subject: `${op} ${result.id ?? ''} ${where}`.replace(/\s+/g, ' '), body: [`Source: ${source}`, ...quote] };
}

function modeOf(paths: StorePaths, context: AgentWriteContext): AgentWritesMode {
  return context.mode ?? storeConfigForWrite(paths.config).config.agentWrites;
}

function refreshDigest(paths: StorePaths): void {
  regenerateDigest(paths, { enabled: loadStoreConfig(paths.config).config.digestEnabled, automatic: true });
}

/**
 * Agent text as it may enter the store: well-formed (a lone surrogate would be written as U+FFFD
 * and never compare equal to the line asked for), secrets redacted, trimmed (neutralized by the
 * line builders).
 */
function clean(text: string | undefined): string {
  return text === undefined ? '' : redactSecrets(wellFormed(text)).trim();
}

/** Flag kinds of a line, none when a person already accepted it. */
function heldKinds(paths: StorePaths, line: string): InstructionFlagKind[] {
  if (itemFilter(acceptedIdentities(paths))(line)) return [];
  return flagKinds(flagInstruction(line));
}

/**
 * Queues the write in review.md (pending, or held when flagged), or returns undefined when it
 * should go straight in. Caller holds the lock.
 */
function queueUnlessDirect(
  paths: StorePaths,
  mode: AgentWritesMode,
  target: ReviewTarget,
  line: string,
  pending: PendingChange,
  checkFlags: boolean,
): { status: 'pending' | 'held'; kinds: string[]; reviewId: string } | undefined {
  const kinds = checkFlags ? heldKinds(paths, line) : [];
  if (kinds.length === 0 && mode === 'direct') return undefined;
  writeHeldItems(paths, [{ target, line, kinds, pending }]);
  // Listed from the shared store, a personal layer's entry carries the layer's prefix (reviewQueue.listReview).
  const reviewId = (paths.layer === 'personal' ? PERSONAL_REVIEW_PREFIX : '') + reviewItemId('queue', target, line, pending);
  return { status: kinds.length ? 'held' : 'pending', kinds, reviewId };
}

/**
 * A write that waits for a person, put to the person where the surface can ask (context.consent):
 * it is queued first, exactly as without asking, and the answer decides that entry as `lore review`
 * would (decideReview: an accept writes it, journals it and records a flagged line as accepted; a
 * decline deletes it from the queue). No answer (no way to ask, an error, a timeout) leaves it
 * waiting in review.md. Asked outside the store lock: a person may take minutes.
 */
async function askConsent(paths: StorePaths, context: AgentWriteContext, op: string, queued: AgentWriteResult): Promise<AgentWriteResult> {
  if (!context.consent || (queued.status !== 'pending' && queued.status !== 'held') || !queued.reviewId || !queued.line) return queued;
  const question = { op, line: queued.line, file: queued.file ?? '', kinds: queued.kinds ?? [] };
  const answer = await context.consent(question).catch(() => undefined);
  if (answer === undefined) return queued;
  const decision = await decideReview(paths, answer === 'accept' ? 'accept' : 'reject', [queued.reviewId], {
    lockTimeoutMs: context.lockTimeoutMs ?? LOCK_TIMEOUT_MS,
  });
  // Decided meanwhile (lore review in another window) or not applicable any more: it stands as queued.
  if (decision.decided.length === 0) return queued;
  const { reviewId: _decided, kinds: _kinds, ...rest } = queued;
  const history = decision.history ?? queued.history;
  if (answer === 'accept') return { ...rest, status: 'recorded', consent: 'accepted', ...(history ? { history } : {}) };
  return {
    ...rest,
    status: 'declined',
    consent: answer === 'decline' ? 'declined' : 'cancelled',
    reason: answer === 'decline' ? 'the person declined it' : 'the person dismissed the question',
    ...(history ? { history } : {}),
  };
}

/** A new item's line and where it goes, before anything is written (see planNewItem). */
export type NewItemPlan =
  | {
      ok: true;
      line: string;
      /** Store-relative file the line goes to (a note file for notes: the file's existing one, or the one it will get). */
      file: string;
      /** Where it waits in review.md when queued (its file, the tasks section, the noted path). */
      target: ReviewTarget;
    }
  | { ok: false; reason: string };

/**
 * The line a new item is written as and its file, from the same rules rememberItem writes by:
 * what a confirmation shows (VS Code's lore_remember) is what is written. Reads, never writes.
 */
export function planNewItem(paths: StorePaths, request: RememberRequest, source: string, today: Date): NewItemPlan {
  const statement = clean(request.statement);
  if (!statement) return { ok: false, reason: 'the statement is empty' };
  const provenance = { source: wellFormed(source), date: toIsoDate(today) };
  const detail = clean(request.detail);
  if (request.kind === 'note' && request.scope === 'personal')
    return { ok: false, reason: 'a note on a file is shared knowledge; remember a personal fact that names the file instead' };
  if (request.kind === 'note') {
    const target = resolveNoteTarget(paths, wellFormed(request.path ?? ''));
    if (target.kind === 'orphan') return { ok: false, reason: `cannot attach a note to ${request.path ?? '(no path)'}: ${target.reason}` };
    const found = findNotesForFile(paths, target.absolute);
    const file = storeRelative(paths, found?.file ?? newNoteFile(paths, target.relative));
    return {
      ok: true,
      line: noteLine(detail ? `${statement} — ${detail}` : statement, provenance),
      file,
      target: { file, notedPath: target.relative },
    };
  }
  let line: string;
  if (request.kind === 'playbook') {
    const name = clean(request.name);
    if (!name) return { ok: false, reason: 'a playbook needs a name' };
    line = playbookLine({ name, steps: detail ? `${statement} — ${detail}` : statement }, provenance);
  } else {
    line = statementLine({ statement, detail: detail || undefined }, provenance);
  }
  const target = categoryTarget(request.kind);
  if (request.scope === 'personal') return { ok: true, line, file: personalFileName(target.file), target };
  return { ok: true, line, file: target.file, target };
}

/** Flag kinds that would hold a new line for review (none when a person already accepted it). */
export function newItemFlags(paths: StorePaths, line: string): InstructionFlagKind[] {
  return heldKinds(paths, line);
}

/** Remembers a new item: queued for a person by default, written directly in `direct` mode. */
export async function rememberItem(paths: StorePaths, request: RememberRequest, context: AgentWriteContext): Promise<AgentWriteResult> {
  const mode = modeOf(paths, context);
  // Refused before the lock is taken (or the store's layout made).
  const early = planNewItem(paths, request, context.source, context.today);
  if (!early.ok) return { status: 'refused', reason: early.reason };
  const queued = await underLock(paths, context, 'remember', (): AgentWriteResult => {
    // Planned again under the lock: the note file may have come or moved meanwhile.
    const plan = planNewItem(paths, request, context.source, context.today);
    if (!plan.ok) return { status: 'refused', reason: plan.reason };
    const { line, file, target } = plan;
    // A personal item is queued, journalled and written in the personal layer, under the store's lock.
    const layer = layerOfFile(file) === 'personal' ? personalStorePaths(paths) : paths;
    if (layer !== paths) ensureStoreLayout(layer);
    const abs = path.join(paths.root, file);
    const base = { id: itemId(line), line, file };
    // A statement a person forgot for good stays forgotten, whoever brings it back (tombstones.ts).
    if (forgottenLineTest(readLedger(paths.ledger))?.(line))
      return { status: 'refused', ...base, reason: 'a person forgot this statement for good (lore forget); it is not remembered again' };
    const same = sameStatementOf(paths, plan);
    if (same) return addSourceTo(paths, mode, file, same, line);
    if (freshItemLines(readTextLossless(abs), [line]).length === 0) return { status: 'unchanged', ...base, reason: 'already recorded' };
    const queued = queueUnlessDirect(layer, mode, target, line, { op: 'remember' }, true);
    if (queued) return { ...queued, ...base };
    // Written directly: what it teaches goes into the day's journal, from this agent.
    const journal = () => journalLearned(layer, [journalEntryOf(line, journalCategory(target), context.source)], context.today);
    if (request.kind === 'note') {
      const note = resolveNoteTarget(paths, wellFormed(request.path ?? ''));
      if (note.kind === 'orphan')
        return { status: 'refused', reason: `cannot attach a note to ${request.path ?? '(no path)'}: ${note.reason}` };
      const written = storeRelative(paths, addNotesToFile(paths, note, [line]));
      journal();
      return { status: 'recorded', ...base, file: written };
    }
    const key = (Object.keys(CATEGORY_FILES) as Array<keyof typeof CATEGORY_FILES>).find(
      (k) => CATEGORY_FILES[k].file === fileInLayer(file),
    )!;
    const edit =
      key === 'tasks'
        ? { kind: 'tasks' as const, open: target.section === 'open' ? [line] : [], done: target.section === 'done' ? [line] : [] }
        : { kind: 'append' as const, title: CATEGORY_FILES[key].title, lines: [line] };
    editStoreFile(abs, (before) => applyPlanEdit(edit, before));
    journal();
    refreshDigest(paths);
    return { status: 'recorded', ...base };
  });
  return askConsent(paths, context, 'remember', queued);
}

/**
 * The line already in the new item's file that says what it says (model/sameStatement.ts), if any:
 * a remember of it answers with that item rather than writing it twice.
 */
export function sameStatementOf(paths: StorePaths, plan: Extract<NewItemPlan, { ok: true }>): string | undefined {
  const text = readTextLossless(path.join(paths.root, plan.file));
  if (text === undefined) return undefined;
  const body = isNoteFileName(path.basename(plan.file)) ? parseNoteFile(text).body : text;
  return sameStatementIndex(body)(plan.line, 'section' in plan.target && plan.target.section === 'done' ? 'Done' : undefined);
}

/**
 * A remember of a statement the store holds as `existing`: answered with that item's id. Written
 * directly (`direct` mode), the writer's source is added to the line's sources (a merge op, which
 * keeps the line's id); waiting for a person (`pending`), nothing is written: the item is there.
 */
function addSourceTo(paths: StorePaths, mode: AgentWritesMode, file: string, existing: string, line: string): AgentWriteResult {
  const id = itemId(existing);
  const sources = plainSources(parseProvenance(line)?.sources ?? []);
  const have = new Set((parseProvenance(existing)?.sources ?? []).map((p) => p.source));
  const fresh = sources.filter((p) => !have.has(p.source));
  const unchanged = { status: 'unchanged' as const, id, line: existing.trim(), file, reason: 'already recorded' };
  if (mode !== 'direct' || fresh.length === 0) return unchanged;
  const op = { op: 'merge' as const, keep: lineIdentity(existing), sources: fresh, drop: [] };
  if (!editStoreFile(path.join(paths.root, file), (text) => (text === undefined ? undefined : applyItemOps(text, [op])))) return unchanged;
  refreshDigest(paths);
  return {
    status: 'recorded',
    id,
    line: addSources(existing.trim(), fresh),
    file,
    reason: `already recorded as item ${id}: its sources now name ${fresh[0].source}`,
  };
}

/** Lookups of an id that found nothing, and the pause between them. */
const LOOKUPS = 3;
const LOOKUP_PAUSE_MS = 100;
/** A store file saved this recently is being edited: an id found nowhere is looked up for this long. */
const EDITING_LOOKUP_MS = 3_000;

/** A category file saved moments ago (a person or tool is saving it as we read), if any. */
function beingEdited(paths: StorePaths): string | undefined {
  const now = clock().now();
  return Object.values(CATEGORY_FILES)
    .map(({ file }) => path.join(paths.root, file))
    .find((file) => {
      const stat = fs.statSync(file, { throwIfNoEntry: false });
      return stat !== undefined && now - stat.mtimeMs < 1_000;
    });
}

/**
 * Where item `id` is written (in `file` when given). A file caught in the middle of an editor's
 * in-place save (truncated, not yet rewritten) holds no items, so an id found nowhere is looked
 * up again after a pause before the answer is "not found", for longer while a file is being
 * saved (on a busy machine an editor's save can be caught half-written several times in a row).
 * A file still being saved when that time is up never showed a version to look in: the answer is
 * that it kept changing (FileBusyError), not that the item is gone.
 */
function lookUp(paths: StorePaths, id: string, file: string | undefined): LocatedItem[] {
  const started = clock().now();
  for (let attempt = 1; ; attempt++) {
    const places = findItemsById(paths, id).filter((p) => !file || p.file === file);
    if (places.length > 0) return places;
    if (attempt >= LOOKUPS) {
      const edited = beingEdited(paths);
      if (!edited) return places;
      const waited = clock().now() - started;
      if (waited >= EDITING_LOOKUP_MS) throw new FileBusyError(edited, attempt, waited);
    }
    sleepSync(LOOKUP_PAUSE_MS);
  }
}

/** The review target of an item where it stands. */
function targetOf(item: LocatedItem): ReviewTarget {
  if (item.kind === 'note') return { file: item.file, notedPath: item.notedPath ?? '' };
  if (item.kind === 'task') return { file: item.file, section: 'open' };
  if (item.kind === 'done_task') return { file: item.file, section: 'done' };
  return { file: item.file };
}

/**
 * The line an update or supersession writes: the new text with the provenance of `source` and
 * today. A playbook keeps its name unless the new text brings a `**name**:` of its own.
 */
function newLineFor(item: LocatedItem, text: string, source: string, today: Date): string {
  const provenance = { source: wellFormed(source), date: toIsoDate(today) };
  if (item.kind === 'playbook' && !/^\*\*[^*]+\*\*:/.test(text)) {
    const name = /^\*\*([^*]+)\*\*:/.exec(item.text)?.[1] ?? 'playbook';
    return playbookLine({ name, steps: text }, provenance);
  }
  if (item.kind === 'playbook') return renderItemLine(neutralizeItemText(text), provenance);
  return statementLine({ statement: text }, provenance);
}

/**
 * Changes an item named by id: `update` rewrites its text (keeping its provenance source, with
 * today's date), `supersede` keeps it, marked, and adds the new text from this agent beside it,
 * `done` moves an open task to Done, `forget` deletes it. Queued for a person by default.
 */
export async function changeItem(paths: StorePaths, request: ChangeRequest, context: AgentWriteContext): Promise<AgentWriteResult> {
  const id = request.id.trim().toLowerCase();
  if (!isItemId(id)) return { status: 'refused', reason: `"${request.id}" is not an item id (8 characters, as replies name them)` };
  const mode = modeOf(paths, context);
  const queued = await underLock(paths, context, request.op, (): AgentWriteResult => {
    const places = lookUp(paths, id, request.file);
    if (places.length === 0)
      return {
        status: 'not-found',
        id,
        reason: `no item ${id}${request.file ? ` in ${request.file}` : ''} (it may have been changed or removed, or still be pending review)`,
      };
    if (places.length > 1)
      return {
        status: 'ambiguous',
        id,
        places,
        reason: `item ${id} is written in ${places.length} places (${places.map((p) => `${p.file}:${p.line}`).join(', ')}); name the file`,
      };
    const item = places[0];
    // A personal item is changed, queued and journalled in the personal layer (its own review.md and ledger).
    const layer = item.layer === 'personal' ? personalStorePaths(paths) : paths;
    const inLayer = fileInLayer(item.file);
    const target = { ...targetOf(item), file: inLayer };
    let line = item.raw.trim();
    if (request.op === 'update' || request.op === 'supersede') {
      const text = clean(request.text);
      if (!text) return { status: 'refused', id, target: item, reason: 'the new text is empty' };
      line = newLineFor(item, text, request.op === 'update' ? (item.provenance?.source ?? context.source) : context.source, context.today);
      if (itemId(line) === id)
        return { status: 'unchanged', id, line, file: item.file, target: item, reason: 'the new text is the item as it is' };
      if (forgottenLineTest(readLedger(paths.ledger))?.(line))
        return {
          status: 'refused',
          id,
          target: item,
          reason: 'a person forgot the new text for good (lore forget); it is not written again',
        };
    } else if (request.op === 'done') {
      if (item.kind === 'done_task')
        return { status: 'unchanged', id, line, file: item.file, target: item, reason: 'the task is already done' };
      if (item.kind !== 'task')
        return { status: 'refused', id, target: item, reason: `item ${id} is a ${item.kind.replace('_', ' ')}, not an open task` };
    }
    const base = { id: request.op === 'update' || request.op === 'supersede' ? itemId(line) : id, line, file: item.file, target: item };
    const pending: PendingChange = { op: request.op, id };
    const queued = queueUnlessDirect(layer, mode, target, line, pending, request.op === 'update' || request.op === 'supersede');
    if (queued) return { ...queued, ...base };
    const change =
      request.op === 'update' || request.op === 'supersede'
        ? { op: request.op, id, file: inLayer, line }
        : { op: request.op, id, file: inLayer };
    const outcome = applyItemChange(layer, change);
    if (!outcome.applied) return { status: outcome.busy ? 'refused' : 'not-found', ...base, reason: outcome.reason };
    // New text (update, supersede) and a task done are learned; a forget teaches nothing.
    if (request.op !== 'forget') {
      const category = request.op === 'done' ? journalCategory({ file: inLayer, section: 'done' }) : journalCategory(target);
      journalLearned(layer, [journalEntryOf(line, category, context.source)], context.today);
    }
    refreshDigest(paths);
    return { status: 'recorded', ...base };
  });
  return askConsent(paths, context, request.op, queued);
}

/** The absolute path of a store-relative file a result names (for re-indexing after a write). */
export function resultFile(paths: StorePaths, result: AgentWriteResult): string | undefined {
  return result.file ? resolveInStore(paths, result.file) : undefined;
}

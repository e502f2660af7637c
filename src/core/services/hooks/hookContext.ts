/**
 * What `lore hook` answers to SessionStart and UserPromptSubmit: the store's knowledge as
 * `additionalContext` for the agent, at most HOOK_CONTEXT_MAX_CHARS characters. In order, stable
 * first (buildContext's layers, so an agent's cached prefix is not disturbed by what changes per
 * prompt): a short line saying what the blocks are, the digest, the notes of the files the prompt
 * names, and the knowledge items that best match the prompt (UserPromptSubmit only). Within a
 * session a prompt leaves out the digest and what the session was given before (`earlier`, kept
 * by sessionContext.ts), so the digest sits once in the agent's cached prefix.
 *
 * The text is a pure function of the store and the input: no clock, items in file or rank order,
 * so the same prompt on the same store gives the same bytes. Everything in it is framed as data
 * (safety/dataFraming), redacted (safety/redact) before it is cut to size, and items held for
 * review (knowledge/heldItems) are left out. It reads and never writes the store, beyond the
 * derived note index memo that every lookup keeps and the blocks it made (hookBlockCache.ts);
 * the caller logs the uses (usedIds).
 */
import * as fs from 'node:fs';
import { buildContext } from '../context/buildContext';
import { compileContext, DEFAULT_BUDGET_TOKENS, type CompiledContext, type CompileTopic } from '../context/compileContext';
import type { FileNotesInput } from '../promptCache/contextLayers';
import { agentItemFilter, keepsRecord } from '../../store/heldItems';
import { itemId, recordItemId } from '../../model/itemId';
import { agentItemLine } from '../../model/agentItemLine';
import { isItemLine, renderItemLine } from '../../model/itemLines';
import { canonicalJson } from '../../base/canonicalJson';
import { sha256Hash } from '../../base/lazyCrypto';
import { stripProvenance } from '../../model/provenance';
import { stripInvisible } from '../../model/safety/invisibleChars';
import { redactSecrets } from '../../model/safety/redact';
import { searchIndexAsIs, type IndexedHit } from '../search/indexAsIs';
import type { SearchCategory } from '../search/searchTypes';
import { workspaceRelative, type StorePaths } from '../../store/storePaths';
import type { TopicContext } from '../topics/topicContext';
import { STOPWORDS } from '../search/stopwords';
import { cutToLine } from '../../model/format';
import { openHookBlockMemo, type HookBlockMemo } from './hookBlockCache';
import { memoizedSubscriptions, loadHookBlocks } from './hookBlocks';
import { filesNamedIn } from './promptFiles';
import { lazy } from '../../base/lazy';

const itemIdModule = lazy(() => require('../../model/itemId') as typeof import('../../model/itemId'));
const topicContextModule = lazy(() => require('../topics/topicContext') as typeof import('../topics/topicContext'));
const pendingTopicsModule = lazy(() => require('../topics/pendingTopics') as typeof import('../topics/pendingTopics'));
const toolFilesModule = lazy(() => require('./toolFiles') as typeof import('./toolFiles'));
const loadTopicsModule = lazy(() => require('../topics/loadTopics') as typeof import('../topics/loadTopics'));

/** The most an agent is handed per hook (Claude Code shows hook output longer than this only as a preview). */
export const HOOK_CONTEXT_MAX_CHARS = 10_000;
/** One note or hit is cut to this, so a long one cannot crowd out the rest. */
const ITEM_MAX_CHARS = 400;
/** Knowledge items found for a prompt, at most. */
const MAX_HITS = 8;
/** Search hits are knowledge items; conversation excerpts stay behind the MCP tools. */
const HIT_CATEGORIES: SearchCategory[] = ['decisions', 'facts', 'questions', 'playbooks', 'tasks', 'notes'];

/** Says what the blocks are; the same bytes every time (it opens the agent's cached prefix). */
export const HOOK_CONTEXT_INTRO = [
  "Lore (this project's knowledge store, .lore/) adds what earlier conversations recorded: {knowledge} is the digest,",
  '{file-notes} holds notes on files your prompt names, {search-hits} items that match the prompt, each with its',
  '[category id] (to name it to the memory tools), provenance [from: conversation, date] and file:line. Prefer it to',
  'guessing, and say so when the code disagrees.',
  "{topics}, when present, holds this project's own instructions for what the prompt is about.",
].join('\n');

/**
 * Opens a later prompt's context in a session whose start gave the digest: one line, since the
 * start's block already said what the blocks are and sits earlier in the conversation.
 */
export const PROMPT_CONTEXT_INTRO =
  'Lore adds what is new for this prompt (the digest and items given earlier in this session are not repeated); [category id] names an item to the memory tools.';

/** Words of a prompt searched at most (the engine takes 32; the first dozen carry the request). */
const MAX_QUERY_WORDS = 12;

/** What a hook asks for. */
export interface HookContextRequest {
  event: string;
  /** UserPromptSubmit's prompt. */
  prompt?: string;
  /** The agent's folder, against which relative file names in the prompt resolve first. */
  cwd: string;
  /** The session, whose output watchers may have left topics for this prompt. */
  sessionId?: string;
  /**
   * What the agent was given before this prompt, which a prompt does not give again: the keys a
   * session's record holds (sessionGiven.ts: item ids, topic keys; the digest was given at its
   * start), or 'digest' when only the digest is known to be given (SessionStart of a session
   * without an id). Undefined: nothing, so the prompt gets the digest too (the whole context).
   */
  earlier?: ReadonlySet<string> | 'digest';
}

export interface HookContextOptions {
  /** `performance.now()` after which the slow parts (notes, search) are skipped. */
  deadline?: number;
  /** Told what was skipped and why (the hook log). */
  log?: (message: string) => void;
  /** Token budget (default DEFAULT_BUDGET_TOKENS); the 10,000-character cap applies on top. */
  budgetTokens?: number;
}

/** The hook's context and how it was compiled ("why this context"). */
export interface HookContextResult {
  /** '' when the store has nothing to add. */
  text: string;
  compiled?: CompiledContext;
  topics?: TopicContext;
  /**
   * Ids of the items handed out because of this prompt (search hits and the notes of named files;
   * the digest is handed out whatever the prompt), for the usage log (lifecycle/usageLog.ts).
   */
  usedIds?: string[];
  /**
   * The keys of everything in the text, for the session's record (sessionGiven.ts): the ids of
   * the digest's items, of the notes and hits, and the topics' keys.
   */
  givenKeys?: string[];
}

/** Why the gate never runs in a hook. */
export const HOOK_NO_GATE = 'a hook never waits on the network, so the gate is not asked';

/** The words of a prompt worth searching for, as a query with no prefix matching. */
export function promptQuery(prompt: string): string {
  const words: string[] = [];
  for (const match of prompt.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    const word = match[0];
    if (word.length < 3 || STOPWORDS.has(word) || words.includes(word)) continue;
    words.push(word);
    if (words.length >= MAX_QUERY_WORDS) break;
  }
  // The trailing space says the last word is finished (queryParser matches an unfinished one as a prefix).
  return words.length ? words.join(' ') + ' ' : '';
}

function hitLine(hit: IndexedHit, ids: boolean): string {
  // The id lets an agent name the item to the memory tools (search by ids, change_item).
  const id = ids ? itemIdModule().recordItemId(hit) : undefined;
  return agentItemLine({
    category: hit.category,
    id,
    path: hit.notedPath,
    text: cutToLine(stripInvisible(redactSecrets(hit.text)), ITEM_MAX_CHARS),
    source: hit.source,
    date: hit.date,
    file: hit.file,
    line: hit.line,
  });
}

/** Notes within a character budget, per file in the order given, each note cut to ITEM_MAX_CHARS. */
function fitNotes(files: readonly FileNotesInput[], budget: number): FileNotesInput[] {
  const out: FileNotesInput[] = [];
  let used = 0;
  for (const file of files) {
    const notes: string[] = [];
    used += file.path.length + 8;
    for (const note of file.notes) {
      const text = cutToLine(note, ITEM_MAX_CHARS);
      if (used + text.length + 3 > budget) break;
      notes.push(text);
      used += text.length + 3;
    }
    if (notes.length < file.notes.length)
      notes.push(`(${file.notes.length - notes.length} more notes on this file: lore notes ${file.path})`);
    if (notes.length) out.push({ path: file.path, notes });
  }
  return out;
}

/**
 * The context for a hook, or '' when the store has nothing to say (no digest, no notes of named
 * files, no active topics, no hits). Never longer than HOOK_CONTEXT_MAX_CHARS.
 */
export function buildHookContext(paths: StorePaths, request: HookContextRequest, options: HookContextOptions = {}): string {
  return compileHookContext(paths, request, options).text;
}

/**
 * The topics of a prompt (tiers 1 and 2, and the session's pending output activations), without
 * the gate. Glob triggers see the files the prompt names and the files the session's recent tool
 * calls named (toolFiles.ts).
 */
function hookTopics(
  paths: StorePaths,
  prompt: string,
  files: readonly string[],
  sessionId: string | undefined,
  log: HookContextOptions['log'],
  blocks: HookBlockMemo,
): TopicContext | undefined {
  const { topicContextWithoutGate } = topicContextModule();
  const { takePendingTopics } = pendingTopicsModule();
  const { recentToolFiles } = toolFilesModule();
  const pending = sessionId ? takePendingTopics(paths, sessionId) : [];
  const named = files.map((f) => workspaceRelative(paths, f));
  const recent = sessionId ? recentToolFiles(paths, sessionId).filter((f) => !named.includes(f)) : [];
  const result = topicContextWithoutGate(
    paths,
    { message: prompt, files: [...named, ...recent], pending },
    { via: 'hook', noGateReason: HOOK_NO_GATE },
    memoizedSubscriptions(paths, blocks),
  );
  for (const p of result.problems) log?.(`topic ${p.file}${p.line ? `:${p.line}` : ''}: ${p.message} (skipped)`);
  for (const p of result.subscriptionProblems) log?.(`topic subscription ${p}`);
  for (const slow of result.activation.slowPatterns)
    log?.(`topic ${slow.topic}: pattern /${slow.pattern}/ took ${slow.ms} ms and is disabled`);
  return result;
}

/**
 * The knowledge items that best match a prompt (P3), rendered one line each, redacted, without
 * items held for review and without what the digest or the file notes already show. From the
 * index as it is on disk: no index yet means no hits.
 */
export function knowledgeHits(
  paths: StorePaths,
  prompt: string,
  digest: string | undefined,
  fileNotes: readonly FileNotesInput[],
): string[] {
  return matchingHits(paths, prompt, digest, fileNotes).map((h) => redactSecrets(hitLine(h, false)));
}

/** The hits knowledgeHits renders. */
function matchingHits(paths: StorePaths, prompt: string, digest: string | undefined, fileNotes: readonly FileNotesInput[]): IndexedHit[] {
  const query = promptQuery(prompt);
  if (!query) return [];
  return knowledgeHitRecords(
    paths,
    searchIndexAsIs(paths, query, { limit: MAX_HITS * 2, categories: HIT_CATEGORIES }) ?? [],
    digest,
    fileNotes,
  );
}

/** How a caller with its own index (the language server) searches for P3: the query, the pool and the categories. */
export function knowledgeQuery(prompt: string): { query: string; limit: number; categories: SearchCategory[] } {
  return { query: promptQuery(prompt), limit: MAX_HITS * 2, categories: HIT_CATEGORIES };
}

/**
 * Found items as P3 lines: held items and what the digest or the notes already show left out,
 * at most MAX_HITS, one line each, redacted. The same rules whichever index found them. With
 * `ids`, each line names its item id (for agents that have the memory tools: the MCP prompts).
 */
export function knowledgeHitLines(
  paths: StorePaths,
  found: readonly IndexedHit[],
  digest: string | undefined,
  fileNotes: readonly FileNotesInput[],
  options: { ids?: boolean } = {},
): string[] {
  return knowledgeHitRecords(paths, found, digest, fileNotes).map((h) => redactSecrets(hitLine(h, options.ids ?? false)));
}

/** The found items knowledgeHitLines shows (held items and what the digest or notes show left out, at most MAX_HITS). */
function knowledgeHitRecords(
  paths: StorePaths,
  found: readonly IndexedHit[],
  digest: string | undefined,
  fileNotes: readonly FileNotesInput[],
): IndexedHit[] {
  const keep = agentItemFilter(paths);
  const shown = new Set(fileNotes.flatMap((f) => f.notes.map((n) => stripProvenance(n).trim())));
  const inDigest = (h: IndexedHit) => h.category !== 'notes' && digest !== undefined && digest.includes(renderItemLine(h.text));
  return found
    .filter((h) => keepsRecord(keep, h) && !inDigest(h) && !(h.category === 'notes' && shown.has(h.text.trim())))
    .slice(0, MAX_HITS);
}

/** Whether the store has a topics folder (one stat; most stores have none). */
function hasTopics(paths: StorePaths): boolean {
  const { topicsDir } = loadTopicsModule();
  try {
    return fs.statSync(topicsDir(paths)).isDirectory();
  } catch {
    return false;
  }
}

/** The key a topic is recorded by in a session: the same topic with the same text is not injected twice. */
export function topicKey(topic: CompileTopic): string {
  return `topic ${sha256Hash().update(canonicalJson(topic)).digest('hex').slice(0, 12)}`;
}

/** The ids of the digest's item lines that are in `text` (all of them, unless the budget cut it). */
function digestIds(digest: string | undefined, text: string): string[] {
  if (!digest) return [];
  return digest
    .split('\n')
    .filter((line) => isItemLine(line) && text.includes(line))
    .map((line) => itemId(line));
}

/** A note as a later prompt hands it: its id first, so a follow-up call can name it. */
function withId(note: string, id: string): string {
  return `[notes ${id}] ${note}`;
}

/** The hook's context with the compiler's report. */
export function compileHookContext(paths: StorePaths, request: HookContextRequest, options: HookContextOptions = {}): HookContextResult {
  const overdue = () => options.deadline !== undefined && performance.now() > options.deadline;
  const prompt = request.event === 'UserPromptSubmit' ? (request.prompt ?? '') : '';
  const earlier = request.earlier instanceof Set ? request.earlier : undefined;
  // The digest once per session: at its start, or with the first prompt of a session Lore has not seen start.
  const givesDigest = !prompt || request.earlier === undefined;
  let files: string[] = [];
  if (prompt && overdue()) options.log?.('notes skipped: the time limit was reached');
  else if (prompt) files = filesNamedIn(prompt, request.cwd, paths);
  // The digest and note blocks (and the topics' subscribed texts) as made before while their files are unchanged.
  const blocks = openHookBlockMemo(paths);
  const { digest, fileNotes: allNotes } = loadHookBlocks(paths, files, blocks);
  let topics: TopicContext | undefined;
  if (prompt && hasTopics(paths)) {
    if (overdue()) options.log?.('topics skipped: the time limit was reached');
    else topics = hookTopics(paths, prompt, files, request.sessionId, options.log, blocks);
  }
  blocks.save();
  // Ids from the notes as loaded; what the session was given before is not given again.
  const fileNotes = allNotes
    .map((f) => ({ path: f.path, notes: f.notes.map((text) => ({ text, id: itemId(text) })).filter((n) => !earlier?.has(n.id)) }))
    .filter((f) => f.notes.length > 0);
  // A topic the prompt activates is injected once per session; an output watcher's correction each time it fires.
  const topicInputs: CompileTopic[] = (topics?.topics ?? [])
    .map((t) => ({ ...t, instructions: redactSecrets(t.instructions) }))
    .filter((t, i) => topics?.activation.active[i]?.tier === 'output' || !earlier?.has(topicKey(t)));
  let found: IndexedHit[] = [];
  if (prompt && promptQuery(prompt) && overdue()) options.log?.('search skipped: the time limit was reached');
  else if (prompt) {
    // In a session the record says what the agent has (the digest given at its start included);
    // without one the digest is taken as given. A note of a named file is not a hit as well.
    found = matchingHits(paths, prompt, earlier ? undefined : digest, allNotes).filter((h) => !earlier?.has(recordItemId(h)));
  }
  // Notes and hits carry their ids, so a follow-up call can name them (the digest stays as digest.md has it).
  const hits = found.map((h) => redactSecrets(hitLine(h, true)));
  const shownDigest = givesDigest ? digest : undefined;
  if (shownDigest === undefined && fileNotes.length === 0 && hits.length === 0 && topicInputs.length === 0) return { text: '', topics };
  const notesInput: FileNotesInput[] = fileNotes.map((f) => ({ path: f.path, notes: f.notes.map((n) => withId(n.text, n.id)) }));
  const role = givesDigest ? HOOK_CONTEXT_INTRO : PROMPT_CONTEXT_INTRO;
  const compiled = fit(role, shownDigest, notesInput, topicInputs, hits, options.budgetTokens ?? DEFAULT_BUDGET_TOKENS);
  // What the compiler kept: a note or hit cut for the budget was not given.
  const kept = (note: { id: string }) => compiled.text.includes(`[notes ${note.id}] `);
  const notesGiven = fileNotes.flatMap((f) => f.notes.filter(kept).map((n) => n.id));
  const hitsGiven = found.filter((_, i) => compiled.searchHits.includes(hits[i])).map(recordItemId);
  const topicsGiven = topicInputs.filter((t) => compiled.text.includes(`## topic: ${t.name}\n`)).map(topicKey);
  const givenKeys = [...digestIds(shownDigest, compiled.text), ...notesGiven, ...hitsGiven, ...topicsGiven];
  // Ids from the lines as read (before redaction), as the files hold them.
  const usedIds = [...notesGiven, ...hitsGiven];
  return { text: compiled.text, compiled, topics, usedIds, givenKeys };
}

/**
 * Compiles the text within the token budget and the hook's character cap: the notes are first cut
 * to a share of the cap (with a line saying how many more a file has), then the compiler keeps
 * the digest, notes and topics and cuts hits first (P3 after P1 and P2).
 */
function fit(
  role: string,
  digest: string | undefined,
  fileNotes: FileNotesInput[],
  topics: CompileTopic[],
  hits: string[],
  budgetTokens: number,
): CompiledContext {
  const fixed = buildContext({ role, digest }).text.length;
  const notes = fitNotes(fileNotes, Math.max(0, HOOK_CONTEXT_MAX_CHARS - fixed - 200));
  return compileContext({ role, digest, fileNotes: notes, topics, searchHits: hits }, { budgetTokens, maxChars: HOOK_CONTEXT_MAX_CHARS });
}

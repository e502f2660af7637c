/**
 * Recall: what an agent gets when it asks Lore (LM tool, MCP). Compact results first, within a
 * token budget (~4 characters a token): the notes of the files it is working on, then matching
 * knowledge items, then short excerpts of matching conversations, one line each with provenance
 * and file:line, so it can open a record in full if it needs more. Without a query or files it
 * returns the digest, the store's summary. Items held for review (they read as instructions to an
 * agent, see knowledge/heldItems) and conversation excerpts that read so are left out.
 */
import * as path from 'node:path';
import { BYTES_PER_TOKEN } from '../../model/constants';
import { cutToLine } from '../../model/format';
import { quotedConversation } from '../../model/safety/dataFraming';
import { estimateTokens } from '../../model/tokens';
import { agentItemFilter, keepsRecord, type AgentItemFilter } from '../../store/heldItems';
import { agentItemLine } from '../../model/agentItemLine';
import { recordItemId } from '../../model/itemId';
import { stripProvenance } from '../../model/provenance';
import { redactSecrets } from '../../model/safety/redact';
import { digestSections, readCategoryTexts } from '../../store/digest';
import { combineDigests, renderDigest } from '../../model/digestFormat';
import { personalDigestSections } from '../../store/personalLayer';
import { readNotesOf, workspaceRelative, type ReadNotes } from '../../store/fileNotes';
import { isInside, storeRelative, type StorePaths } from '../../store/storePaths';
import { noteEntries } from './extractDocs';
import { PARTIAL_MATCHES_WARNING, SearchIndex, type SearchIndexOptions, type SearchOptions } from './searchIndex';
import { searchHitId, type SearchBackendName, type SearchCategory, type SearchResponse } from './searchTypes';

export interface RecallOptions {
  query?: string;
  /** Files the agent is working on (workspace-relative or absolute): their notes come first. */
  files?: string[];
  /** Tokens the answer may use (default 1000). */
  tokenBudget?: number;
  categories?: SearchCategory[];
  /** Search hits considered before the budget cuts (default 40). */
  limit?: number;
  /** An open index to reuse (the extension keeps one); else one is opened and closed. */
  index?: SearchIndex;
  indexOptions?: SearchIndexOptions;
  /** How long the query waits for an index update, its cancellation and progress (see SearchOptions). */
  waitMs?: SearchOptions['waitMs'];
  signal?: AbortSignal;
  onProgress?: SearchOptions['onProgress'];
}

export interface RecallItem {
  kind: 'file-note' | 'knowledge' | 'transcript';
  /** The item's id (knowledge/itemId), from its whole text: not for conversation excerpts. */
  id?: string;
  category: SearchCategory;
  /** Compact text: an item cut to ~300 characters, a conversation to an excerpt. */
  text: string;
  provenance?: { source: string; date?: string };
  /** Store-relative file and 1-based line of the record. */
  file: string;
  line?: number;
  notedPath?: string;
  score?: number;
}

export interface RecallResult {
  /** The rendered answer (markdown), within the budget. */
  text: string;
  items: RecallItem[];
  /** Matches left out because they did not fit. */
  omitted: number;
  /** Estimated tokens of `text`. */
  tokens: number;
  tokenBudget: number;
  backend?: SearchBackendName;
  backendReason?: string;
  mode?: SearchResponse['mode'];
  modeReason?: string;
  /** The search's warnings (ranking window, partial matches, a fallback engine's trouble, an index still being built). */
  warnings: string[];
  /** Set when the matches came from an index still being built (see SearchResponse.indexing). */
  indexing?: SearchResponse['indexing'];
}

const DEFAULT_BUDGET = 1000;
const ITEM_CHARS = 300;
const EXCERPT_CHARS = 240;

/** A requested file's note sits under its `## Notes on path` heading, so it does not repeat the path. */
function itemLine(item: RecallItem): string {
  return agentItemLine({
    ...item,
    path: item.kind === 'file-note' ? undefined : item.notedPath,
    source: item.provenance?.source,
    date: item.provenance?.date,
  });
}

/**
 * The answer's lines within the token budget, section by section (a section's heading is paid
 * for with its first line); what does not fit is counted as omitted, and a smaller item after it
 * may still fit.
 */
class BudgetedLines {
  readonly lines: string[] = [];
  readonly included: RecallItem[] = [];
  used = 0;
  omitted = 0;
  private title = '';
  private headed = false;

  constructor(readonly budget: number) {}

  section(title: string): void {
    this.title = title;
    this.headed = false;
  }

  /** What `line` would cost in the current section. */
  private cost(line: string): number {
    return estimateTokens((this.headed ? '' : this.title + '\n') + line + '\n');
  }

  /** True when not even `line` (the shortest an item could render as) fits any more. */
  full(line: string): boolean {
    return this.used + this.cost(line) > this.budget;
  }

  /** Adds the item's line when it fits; false (and counted as omitted) when it does not. */
  add(item: RecallItem): boolean {
    const line = itemLine(item);
    const cost = this.cost(line);
    if (this.used + cost > this.budget) {
      this.omitted++;
      return false;
    }
    if (!this.headed) this.lines.push(this.title);
    this.headed = true;
    this.lines.push(line);
    this.included.push(item);
    this.used += cost;
    return true;
  }
}

/** A requested file's note file, once (the same file named twice, or by two spellings, is read once). */
function requestedNotes(paths: StorePaths, files: string[], signal?: AbortSignal): Map<string, Array<{ abs: string; found: ReadNotes }>> {
  const byPath = new Map<string, Array<{ abs: string; found: ReadNotes }>>();
  const seen = new Set<string>();
  for (const file of files) {
    signal?.throwIfAborted();
    const abs = path.resolve(paths.workspace, file);
    if (!isInside(paths.workspace, abs)) continue;
    const found = readNotesOf(paths, abs);
    if (!found || seen.has(found.file)) continue;
    seen.add(found.file);
    // Grouped under the path the notes are about, as the documents name it.
    const about = found.note.meta.path ? redactSecrets(found.note.meta.path) : workspaceRelative(paths, abs);
    let group = byPath.get(about);
    if (!group) byPath.set(about, (group = []));
    group.push({ abs, found });
  }
  return byPath;
}

/**
 * Notes of one file tried after the first that did not fit: a shorter one may still fit, but a
 * file can hold tens of thousands of notes, and making each into a document (redacted, flagged)
 * only to find it too long cost more than a second on such a file.
 */
const NOTE_TRIES_PAST_FULL = 16;

/**
 * Adds the notes of the given files (read without healing: recall must not write) to the budget,
 * a section per file. A note is made into a document (redacted, flagged) only while the budget
 * has room: once it is filled, or NOTE_TRIES_PAST_FULL notes did not fit, the rest are only
 * counted as left out, not read, so a file with 20,000 notes costs a parse, not 20,000 documents
 * (a held note past the budget is counted too: telling it apart would mean reading it). Returns
 * the file:line of every note, so matches repeating one are left out.
 */
function addFileNotes(paths: StorePaths, files: string[], keep: AgentItemFilter, out: BudgetedLines, signal?: AbortSignal): Set<string> {
  const noted = new Set<string>();
  for (const [about, group] of requestedNotes(paths, files, signal)) {
    out.section(`## Notes on ${about}`);
    for (const { abs, found } of group) {
      signal?.throwIfAborted();
      // The same documents the index holds, so lines and stripped texts agree with search hits.
      const source = {
        rel: storeRelative(paths, found.file),
        abs: found.file,
        kind: 'notes' as const,
        mtimeMs: 0,
        size: found.text.length,
      };
      let misses = 0;
      for (const entry of noteEntries(source, found.text, found.note)) {
        noted.add(`${source.rel}:${entry.line}`);
        if (misses >= NOTE_TRIES_PAST_FULL || out.full(`- x (${source.rel}:${entry.line})`)) {
          if (stripProvenance(entry.item.text).trim() !== '') out.omitted++;
          continue;
        }
        for (const doc of entry.doc()) {
          if (!keepsRecord(keep, doc)) continue;
          const added = out.add({
            kind: 'file-note',
            id: recordItemId(doc),
            category: 'notes',
            text: cutToLine(doc.text, ITEM_CHARS),
            provenance: doc.source ? { source: doc.source, date: doc.date } : undefined,
            file: doc.file,
            line: doc.line,
            notedPath: doc.notedPath ?? workspaceRelative(paths, abs),
          });
          if (!added) misses++;
        }
      }
    }
  }
  return noted;
}

/** Recalls knowledge for a query and/or files within a token budget. Never throws on input. */
export async function recall(paths: StorePaths, options: RecallOptions = {}): Promise<RecallResult> {
  const budget = Math.max(50, Math.floor(Number(options.tokenBudget) || DEFAULT_BUDGET));
  const query = typeof options.query === 'string' ? options.query.trim() : '';
  const files = (options.files ?? []).filter((f): f is string => typeof f === 'string' && f.trim() !== '');
  const keep = agentItemFilter(paths);
  if (!query && files.length === 0) {
    // Read straight from the category files (the rest of recall comes from redacted index
    // documents): redacted before the budget cuts it, as everything an agent gets.
    const texts = Object.fromEntries(Object.entries(readCategoryTexts(paths)).map(([k, v]) => [k, v === undefined ? v : redactSecrets(v)]));
    const shared = renderDigest(digestSections(texts, keep), budget * BYTES_PER_TOKEN) ?? '';
    // The person's own layer follows, within what is left of the budget (personalLayer.ts).
    const personal = personalDigestSections(paths);
    const combined = combineDigests(shared, personal);
    const digest = Buffer.byteLength(combined, 'utf8') <= budget * BYTES_PER_TOKEN ? combined : shared;
    return { text: digest, items: [], omitted: 0, tokens: estimateTokens(digest), tokenBudget: budget, warnings: [] };
  }
  const out = new BudgetedLines(budget);
  const noted = addFileNotes(paths, files, keep, out, options.signal);
  let response: SearchResponse | undefined;
  if (query) {
    const index = options.index ?? SearchIndex.open(paths, options.indexOptions);
    try {
      const { waitMs, signal, onProgress } = options;
      response = await index.search(query, {
        limit: options.limit ?? 40,
        categories: options.categories,
        markers: { open: '', close: '' },
        waitMs,
        signal,
        onProgress,
      });
    } finally {
      if (!options.index) index.close();
    }
  }
  const hits = (response?.hits ?? [])
    .filter((h) => !noted.has(`${h.file}:${h.line}`) && keepsRecord(keep, h))
    .map((h): RecallItem => ({
      kind: h.category === 'transcripts' ? 'transcript' : 'knowledge',
      id: searchHitId(h),
      category: h.category,
      text: h.category === 'transcripts' ? quotedConversation(cutToLine(h.snippet, EXCERPT_CHARS)) : cutToLine(h.text, ITEM_CHARS),
      provenance: h.source ? { source: h.source, date: h.date } : undefined,
      file: h.file,
      line: h.line,
      notedPath: h.notedPath,
      score: h.score,
    }));
  // Compact first: knowledge items before conversation excerpts, each group in rank order.
  const ordered = [...hits.filter((h) => h.kind === 'knowledge'), ...hits.filter((h) => h.kind === 'transcript')];
  if (ordered.length > 0) {
    out.section(`## Knowledge matching "${cutToLine(query, 80)}"`);
    for (const item of ordered) out.add(item);
  }
  const { lines, included, omitted } = out;
  const text = lines.length > 0 ? lines.join('\n') + '\n' : '';
  return {
    text,
    items: included,
    omitted,
    tokens: estimateTokens(text),
    tokenBudget: budget,
    backend: response?.backend,
    backendReason: response?.backendReason,
    mode: response?.mode,
    modeReason: response?.modeReason,
    warnings: [...(response?.warnings ?? []), ...(response?.partial ? [PARTIAL_MATCHES_WARNING] : [])],
    ...(response?.indexing ? { indexing: response.indexing } : {}),
  };
}

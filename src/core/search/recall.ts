/**
 * Recall: what an agent gets when it asks Lore (LM tool, MCP). Compact results first, within a
 * token budget (~4 characters a token): the notes of the files it is working on, then matching
 * knowledge items, then short excerpts of matching conversations, one line each with provenance
 * and file:line, so it can open a record in full if it needs more. Without a query or files it
 * returns the digest, the store's summary. Items held for review (they read as instructions to an
 * agent, see knowledge/heldItems) and conversation excerpts that read so are left out.
 */
import * as path from 'node:path';
import { BYTES_PER_TOKEN } from '../constants';
import { agentItemFilter, keepsRecord, type AgentItemFilter } from '../knowledge/heldItems';
import { recordItemId } from '../knowledge/itemId';
import { formatProvenance } from '../knowledge/provenance';
import { redactSecrets } from '../safety/redact';
import { digestSections, readCategoryTexts, renderDigest } from '../store/digest';
import { readNotesOf, workspaceRelative } from '../store/fileNotes';
import { isInside, storeRelative, type StorePaths } from '../store/storePaths';
import { extractDocs } from './extractDocs';
import { PARTIAL_MATCHES_WARNING, SearchIndex, type SearchIndexOptions } from './searchIndex';
import type { SearchBackendName, SearchCategory, SearchResponse } from './searchTypes';

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
  /** The search's warnings (ranking window, partial matches, a fallback engine's trouble). */
  warnings: string[];
}

const DEFAULT_BUDGET = 1000;
const ITEM_CHARS = 300;
const EXCERPT_CHARS = 240;

/** Estimated tokens of a text: UTF-8 bytes / 4, as the harvest's dry run estimates. */
export function estimateTokens(text: string): number {
  return Math.ceil(Buffer.byteLength(text, 'utf8') / BYTES_PER_TOKEN);
}

/** One line of at most `max` characters, cut at a space when one is not too far back. */
export function cut(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const space = flat.lastIndexOf(' ', max - 1);
  return flat.slice(0, space > max / 2 ? space : max - 1) + '…';
}

function itemLine(item: RecallItem): string {
  const prov = item.provenance ? ` ${formatProvenance({ source: item.provenance.source, date: item.provenance.date ?? '?' })}` : '';
  const where = ` (${item.file}${item.line ? `:${item.line}` : ''})`;
  const label = item.kind === 'file-note' ? '' : `[${item.category}${item.notedPath ? ` ${item.notedPath}` : ''}] `;
  return `- ${label}${item.text}${prov}${where}`;
}

/** The notes of the given files, read without healing (recall must not write). */
async function fileNoteItems(paths: StorePaths, files: string[], keep: AgentItemFilter): Promise<RecallItem[]> {
  const items: RecallItem[] = [];
  for (const file of files) {
    const abs = path.resolve(paths.workspace, file);
    if (!isInside(paths.workspace, abs)) continue;
    const found = readNotesOf(paths, abs);
    if (!found) continue;
    // The same documents the index holds, so lines and stripped texts agree with search hits.
    const source = { rel: storeRelative(paths, found.file), abs: found.file, kind: 'notes' as const, mtimeMs: 0, size: found.text.length };
    for (const doc of extractDocs(source, found.text)) {
      if (!keepsRecord(keep, doc)) continue;
      items.push({
        kind: 'file-note',
        id: recordItemId(doc),
        category: 'notes',
        text: cut(doc.text, ITEM_CHARS),
        provenance: doc.source ? { source: doc.source, date: doc.date } : undefined,
        file: doc.file,
        line: doc.line,
        notedPath: doc.notedPath ?? workspaceRelative(paths, abs),
      });
    }
  }
  return items;
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
    const digest = renderDigest(digestSections(texts, keep), budget * BYTES_PER_TOKEN) ?? '';
    return { text: digest, items: [], omitted: 0, tokens: estimateTokens(digest), tokenBudget: budget, warnings: [] };
  }
  const index = options.index ?? SearchIndex.open(paths, options.indexOptions);
  let notes: RecallItem[];
  let response: SearchResponse | undefined;
  try {
    notes = await fileNoteItems(paths, files, keep);
    if (query) response = await index.search(query, { limit: options.limit ?? 40, categories: options.categories, markers: { open: '', close: '' } });
  } finally {
    if (!options.index) index.close();
  }
  const noted = new Set(notes.map((n) => `${n.file}:${n.line}`));
  const hits = (response?.hits ?? [])
    .filter((h) => !noted.has(`${h.file}:${h.line}`) && keepsRecord(keep, h))
    .map(
      (h): RecallItem => ({
        kind: h.category === 'transcripts' ? 'transcript' : 'knowledge',
        id: h.category === 'transcripts' ? undefined : recordItemId(h),
        category: h.category,
        text: h.category === 'transcripts' ? cut(h.snippet, EXCERPT_CHARS) : cut(h.text, ITEM_CHARS),
        provenance: h.source ? { source: h.source, date: h.date } : undefined,
        file: h.file,
        line: h.line,
        notedPath: h.notedPath,
        score: h.score,
      }),
    );
  // Compact first: knowledge items before conversation excerpts, each group in rank order.
  const ordered = [...hits.filter((h) => h.kind === 'knowledge'), ...hits.filter((h) => h.kind === 'transcript')];
  const sections: Array<{ title: string; items: RecallItem[] }> = [];
  const byFile = new Map<string, RecallItem[]>();
  for (const n of notes) byFile.set(n.notedPath!, [...(byFile.get(n.notedPath!) ?? []), n]);
  for (const [file, items] of byFile) sections.push({ title: `## Notes on ${file}`, items });
  if (ordered.length > 0) sections.push({ title: `## Knowledge matching "${cut(query, 80)}"`, items: ordered });
  const lines: string[] = [];
  const included: RecallItem[] = [];
  let used = 0;
  let omitted = 0;
  for (const section of sections) {
    let headed = false;
    for (const item of section.items) {
      const line = itemLine(item);
      const cost = estimateTokens((headed ? '' : section.title + '\n') + line + '\n');
      if (used + cost > budget) {
        omitted++;
        continue;
      }
      if (!headed) lines.push(section.title);
      headed = true;
      lines.push(line);
      included.push(item);
      used += cost;
    }
  }
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
  };
}

/**
 * task_search: exact filters resolved first over the side tables (taskFilters.ts), the chunks of
 * the candidate artifacts then ranked (SQLite FTS5 as the knowledge search ranks: bm25 with the
 * task's goal as lighter context, any word, the last one as a prefix; biased by the mode), one
 * hit per artifact, each labelled with its trust, packed under a token budget. Words of the
 * query the index does not know are also tried as the indexed words one or two typos away; a
 * chunk found only that way is a `semantic_candidate`. Modes: resume_task, find_failures,
 * find_decisions, find_evidence, find_highlights, brief_project, generic.
 */
import { z } from 'zod';
import { redactAndCut } from '../../model/safety/redact';
import { isEmptyQuery, parseQuery, toFtsExpression } from '../search/queryParser';
import { estimateTokens } from '../../model/tokens';
import type { ChunkKind } from './projection';
import { describeFilters, filterSql, type TaskFilters } from './taskFilters';
import type { TaskIndex } from './taskIndex';
import { TRUST_LABELS, trustOf, type TrustLabel } from './trust';

export const SEARCH_MODES = [
  'generic',
  'resume_task',
  'find_failures',
  'find_decisions',
  'find_evidence',
  'find_highlights',
  'brief_project',
] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

/** Default and limits of a reply's size in tokens (bytes / 4). */
export const DEFAULT_TASK_REPLY_TOKENS = 1500;
export const MIN_TASK_REPLY_TOKENS = 100;
export const MAX_TASK_REPLY_TOKENS = 20_000;
/** Characters of a hit's text: compact replies keep identifiers and a short text. */
const TEXT_CHARS = 600;
const COMPACT_TEXT_CHARS = 160;

/** One hit: an artifact, the chunk that matched, and what it is (trust). */
export const taskHitSchema = z.object({
  artifact_id: z.string(),
  task_id: z.string(),
  artifact_kind: z.string(),
  chunk: z.string().describe('Which part matched: task_goal, task_summary, run, evidence, decision, digest, worked, failed, validation'),
  trust: z.enum(TRUST_LABELS),
  text: z.string(),
  status: z.string().optional(),
  agent_id: z.string(),
  created: z.string(),
  verification_status: z.string().optional(),
  artifact_role: z.string().optional(),
  stale: z.boolean().optional().describe('A digest whose sources changed since it was compiled'),
  held: z.boolean().optional().describe('Reads as an instruction to an agent: its text is withheld'),
});
export type TaskHit = z.infer<typeof taskHitSchema>;

/** A search request. */
export interface TaskSearchRequest {
  query?: string;
  filters?: TaskFilters;
  mode?: SearchMode;
  limit?: number;
  tokenBudget?: number;
  compact?: boolean;
  /** Show the text of held artifacts (a person at the CLI; never an agent). */
  showHeld?: boolean;
}

/** A search reply. */
export interface TaskSearchReply {
  hits: TaskHit[];
  /** Hits that matched but did not fit the budget or the limit. */
  omitted: number;
  /** Artifacts the exact filters left (before ranking). */
  candidates: number;
  mode: SearchMode;
  filters: string[];
}

interface ChunkRow {
  id: number;
  artifact_id: string;
  task_id: string;
  chunk_kind: ChunkKind;
  text: string;
  context: string;
  artifact_kind: string;
  status: string | null;
  agent_id: string;
  created_ms: number;
  verification_status: string | null;
  artifact_role: string | null;
  held: number;
  json: string;
}

const MODE_BOOSTS: Record<SearchMode, { chunks: Partial<Record<ChunkKind, number>>; role?: string; verified?: number }> = {
  generic: { chunks: {} },
  resume_task: { chunks: { task_summary: 2.5, task_goal: 2, digest: 1.5 }, role: 'task_resume' },
  find_failures: { chunks: { failed: 3, run: 1.3 }, role: 'failure_library' },
  find_decisions: { chunks: { decision: 3 }, role: 'decision_library' },
  find_evidence: { chunks: { evidence: 3, validation: 2 }, role: 'evidence_library' },
  find_highlights: { chunks: { evidence: 1.5, worked: 1.5 }, role: 'highlight_library', verified: 3 },
  brief_project: { chunks: { task_goal: 1.5, task_summary: 1.5 }, role: 'project_brief' },
};

function boostOf(row: ChunkRow, mode: SearchMode, trust: TrustLabel): number {
  const plan = MODE_BOOSTS[mode];
  let boost = plan.chunks[row.chunk_kind] ?? 1;
  if (plan.role && row.artifact_role === plan.role) boost *= 3;
  if (mode === 'find_failures' && row.chunk_kind === 'run' && row.status === 'failed') boost *= 2;
  if (trust === 'verified_record') boost *= plan.verified ?? 1.2;
  return boost;
}

/** Every chunk with its artifact's fields, and the indexed words: read once per index generation. */
interface Corpus {
  generation: number;
  rows: Map<number, ChunkRow>;
  terms: string[];
}
const corpora = new WeakMap<TaskIndex, Corpus>();

const CHUNK_COLUMNS =
  'c.id, c.artifact_id, c.task_id, c.chunk_kind, c.text, c.context, a.artifact_kind, a.status, a.agent_id, a.created_ms, a.verification_status, a.artifact_role, a.held, a.json';

function corpusOf(index: TaskIndex): Corpus {
  const cached = corpora.get(index);
  if (cached && cached.generation === index.generation) return cached;
  const all = index.db
    .prepare(`SELECT ${CHUNK_COLUMNS} FROM task_artifacts a JOIN task_chunks c ON c.artifact_id = a.artifact_id WHERE a.superseded = 0`)
    .all() as ChunkRow[];
  const terms = index.db
    .prepare('SELECT term FROM task_fts_terms')
    .values()
    .map((row) => String(row[0]));
  const corpus = { generation: index.generation, rows: new Map(all.map((r) => [r.id, r])), terms };
  corpora.set(index, corpus);
  return corpus;
}

/** Searches task memory. The index should be refreshed by the caller. */
export function searchTasks(index: TaskIndex, request: TaskSearchRequest): TaskSearchReply {
  const mode = request.mode ?? 'generic';
  const filters = request.filters ?? {};
  const { where, params } = filterSql(filters);
  const corpus = corpusOf(index);
  // The exact filters, resolved by SQLite over the side tables: the candidates the words may rank.
  const candidateIds = new Set(
    (
      index.db
        .prepare(`SELECT c.id FROM task_artifacts a JOIN task_chunks c ON c.artifact_id = a.artifact_id WHERE ${where}`)
        .all(...params) as Array<{ id: number }>
    ).map((r) => r.id),
  );
  const rows = [...candidateIds].flatMap((id) => corpus.rows.get(id) ?? []);
  const candidates = new Set(rows.map((r) => r.artifact_id)).size;
  const freshness = sourceFreshness(index);
  const scored: Array<{ row: ChunkRow; score: number; fuzzyOnly: boolean }> = [];
  const parsed = parseQuery(request.query ?? '');
  if (!isEmptyQuery(parsed)) {
    const exact = matches(index, toFtsExpression(parsed, 'or')!);
    const similar = similarTerms(parsed.items.flat(), corpus.terms);
    const fuzzy = similar.length > 0 ? matches(index, similar.map((t) => `"${t}"`).join(' OR ')) : new Map<number, number>();
    for (const [found, fuzzyOnly] of [
      [exact, false],
      [fuzzy, true],
    ] as const) {
      for (const [id, score] of found) {
        const row = corpus.rows.get(id);
        if (!row || !candidateIds.has(id) || (fuzzyOnly && exact.has(id))) continue;
        scored.push({ row, score, fuzzyOnly });
      }
    }
  } else {
    // No words: the mode's bias, then recency, orders the candidates.
    for (const row of rows) scored.push({ row, score: 1 + row.created_ms / 1e15, fuzzyOnly: false });
  }
  const best = new Map<string, { row: ChunkRow; trust: TrustLabel; stale: boolean; score: number }>();
  for (const { row, score, fuzzyOnly } of scored) {
    const { trust, stale } = trustOf(row, fuzzyOnly, freshness);
    const total = score * boostOf(row, mode, trust);
    const prev = best.get(row.artifact_id);
    if (prev && prev.score >= total) continue;
    best.set(row.artifact_id, { row, trust, stale, score: total });
  }
  // Hits are built (cut, redacted) only for what the reply can hold.
  const ordered = [...best.values()].sort((a, b) => b.score - a.score);
  return { ...pack(ordered, (b) => toHit(b.row, b.trust, b.stale, request), request), candidates, mode, filters: describeFilters(filters) };
}

/** Chunk ids matching an FTS5 expression, with their score (higher is better). */
function matches(index: TaskIndex, expression: string): Map<number, number> {
  const rows = index.db.prepare('SELECT rowid, rank FROM task_fts WHERE task_fts MATCH ?').values(expression) as Array<[number, number]>;
  return new Map(rows.map(([id, rank]) => [id, -rank]));
}

/**
 * Indexed words (porter stems) within a typo or two of a query word the index does not hold:
 * one edit per five letters, rounded, at most two, and none for words of fewer than three.
 */
function similarTerms(words: string[], terms: string[]): string[] {
  const known = new Set(terms);
  const similar = new Set<string>();
  for (const word of words) {
    const edits = Math.min(2, Math.round(word.length / 5));
    if (edits === 0 || known.has(word)) continue;
    for (const term of terms)
      if (term !== word && Math.abs(term.length - word.length) <= edits && editDistance(word, term, edits) <= edits) similar.add(term);
  }
  return [...similar];
}

/** Levenshtein distance, or more than `max` as soon as it must be. */
function editDistance(a: string, b: string, max: number): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      best = Math.min(best, current[j]);
    }
    if (best > max) return max + 1;
    previous = current;
  }
  return previous[b.length];
}

function toHit(row: ChunkRow, trust: TrustLabel, stale: boolean, request: TaskSearchRequest): TaskHit {
  const max = request.compact ? COMPACT_TEXT_CHARS : TEXT_CHARS;
  const held = row.held === 1;
  const raw =
    held && !request.showHeld
      ? `[withheld: reads as an instruction to an agent; a person can read it in tasks/${row.task_id}.md]`
      : row.text;
  const text = redactAndCut(raw, max);
  return {
    artifact_id: row.artifact_id,
    task_id: row.task_id,
    artifact_kind: row.artifact_kind,
    chunk: row.chunk_kind,
    trust,
    text,
    ...(row.status ? { status: row.status } : {}),
    agent_id: row.agent_id,
    created: new Date(row.created_ms).toISOString(),
    ...(row.verification_status && row.verification_status !== 'unverified' ? { verification_status: row.verification_status } : {}),
    ...(row.artifact_role ? { artifact_role: row.artifact_role } : {}),
    ...(stale ? { stale } : {}),
    ...(held ? { held } : {}),
  };
}

/** Keeps hits in rank order while they fit the limit and the token budget. */
function pack<T>(ranked: T[], hitOf: (item: T) => TaskHit, request: TaskSearchRequest): { hits: TaskHit[]; omitted: number } {
  const budget = Math.min(MAX_TASK_REPLY_TOKENS, Math.max(MIN_TASK_REPLY_TOKENS, request.tokenBudget ?? DEFAULT_TASK_REPLY_TOKENS));
  const limit = Math.max(1, Math.min(100, request.limit ?? 10));
  const kept: TaskHit[] = [];
  let used = 0;
  for (const item of ranked) {
    if (kept.length >= limit) break;
    const hit = hitOf(item);
    const cost = estimateTokens(JSON.stringify(hit));
    if (used + cost > budget) break;
    kept.push(hit);
    used += cost;
  }
  return { hits: kept, omitted: ranked.length - kept.length };
}

/** The newest non-digest artifact per task and overall, for digest freshness. */
export interface SourceFreshness {
  byTask: Map<string, number>;
  overall: number;
}

export function sourceFreshness(index: TaskIndex): SourceFreshness {
  const rows = index.db
    .prepare("SELECT task_id, max(created_ms) AS at FROM task_artifacts WHERE artifact_kind != 'digest' GROUP BY task_id")
    .all() as Array<{ task_id: string; at: number }>;
  return { byTask: new Map(rows.map((r) => [r.task_id, r.at])), overall: Math.max(0, ...rows.map((r) => r.at)) };
}

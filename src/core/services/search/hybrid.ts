/**
 * Ranking: lexical hits (all words first, then any word) and vector hits merged into one list.
 * BM25 scores are normalized by the best one in the candidate set; cosine similarity is used as
 * is (clipped at 0), so a weak best vector match does not get inflated to 1. Hybrid score =
 * w_bm25 × bm25 + w_vector × cosine, 0.4 / 0.6 by default as in the seed. An item superseded by
 * a newer one (knowledge/supersession) keeps a fraction of its score: still found, ranked below.
 */
import { supersededBy } from '../../model/supersession';
import type { LexicalHit, SearchHit, StoredDoc } from './searchTypes';

/** Weights of the hybrid merge. */
export interface HybridWeights {
  bm25: number;
  vector: number;
}

export const DEFAULT_WEIGHTS: HybridWeights = { bm25: 0.4, vector: 0.6 };

/**
 * How much of its BM25 score a hit keeps by the query that found it: every word exactly, every
 * word with the last one as a prefix, or only some of the words.
 */
export const TIER_FACTORS = { exact: 1, prefix: 0.8, partial: 0.5 } as const;

/** A candidate before documents are resolved: lexical hits carry theirs. */
export interface Candidate {
  id: number;
  doc?: StoredDoc;
  bm25?: number;
  vector?: number;
}

/**
 * The lexical hits of the step that answered as candidates: scores normalized by the best one,
 * scaled by how the step matched (see TIER_FACTORS).
 */
export function lexicalCandidates(hits: LexicalHit[], factor: number): Candidate[] {
  const max = Math.max(0, ...hits.map((h) => h.score)) || 1;
  return hits.map((h) => ({ id: h.id, doc: h.doc, bm25: (factor * Math.max(0, h.score)) / max }));
}

/** Adds vector similarities to the candidates (new candidates for vector-only hits). */
export function addVectorCandidates(candidates: Candidate[], vector: Array<{ id: number; similarity: number }>): Candidate[] {
  const byId = new Map(candidates.map((c) => [c.id, c]));
  for (const v of vector) {
    const existing = byId.get(v.id);
    if (existing) existing.vector = v.similarity;
    else byId.set(v.id, { id: v.id, vector: v.similarity });
  }
  return [...byId.values()];
}

/** What a superseded item keeps of its score. */
export const SUPERSEDED_FACTOR = 0.25;

/** The final score: lexical only, or the weighted sum when vectors took part; superseded items demoted. */
function scoreOf(c: Candidate, weights: HybridWeights | undefined): number {
  const score = weights ? weights.bm25 * (c.bm25 ?? 0) + weights.vector * Math.max(0, c.vector ?? 0) : (c.bm25 ?? 0);
  return c.doc && supersededBy(c.doc.text) ? score * SUPERSEDED_FACTOR : score;
}

/** Sorts candidates by score (ties: lexical order, which is stable). */
export function rank(candidates: Candidate[], weights: HybridWeights | undefined): Array<Candidate & { score: number }> {
  return candidates.map((c, i) => ({ ...c, score: scoreOf(c, weights), order: i })).sort((a, b) => b.score - a.score || a.order - b.order);
}

/**
 * Turns a ranked candidate with its document into a hit. The snippet is made when it is first
 * read: an agent's reply quotes only conversation excerpts by their snippet, and items by their text.
 */
export function toHit(
  c: Candidate & { score: number },
  doc: StoredDoc,
  makeSnippet: () => string,
  absolutePathOf: () => string,
): SearchHit {
  let snippet: string | undefined;
  let absolutePath: string | undefined;
  return {
    category: doc.category,
    text: doc.text,
    get snippet(): string {
      return (snippet ??= makeSnippet());
    },
    set snippet(value: string) {
      snippet = value;
    },
    file: doc.file,
    // Made when read, as the snippet: agents' replies and the CLI's list of hits never read it.
    get absolutePath(): string {
      return (absolutePath ??= absolutePathOf());
    },
    line: doc.line,
    source: doc.source,
    date: doc.date,
    notedPath: doc.notedPath,
    section: doc.section,
    flagged: doc.flagged,
    id: doc.item,
    score: Math.round(c.score * 1e6) / 1e6,
    scores: { bm25: c.bm25, vector: c.vector },
  };
}

/**
 * The order in which a query is tried against the lexical engine, cheapest first, each step
 * only while the previous ones found too little: every word exactly; then, only when that found
 * nothing (the last word is still being typed: porter already covers its inflections), the last
 * word as a prefix, the costliest to expand; then any word exactly, to fill up the list.
 */
import { TIER_FACTORS, lexicalCandidates, type Candidate } from './hybrid';
import type { ParsedQuery } from './queryParser';
import type { LexicalHit } from './searchTypes';
import { RANK_CAP } from './sqliteBackend';

/**
 * Matches ranked when only some of the words match: such a query on common words matches much
 * of the store, and partial matches are a last resort, so recency decides beyond this many.
 */
export const PARTIAL_RANK_CAP = 50;

/** Runs one query against the engine: every item (`and`) or any (`or`), ranking at most `rankCap` matches. */
export type LexicalRun = (query: ParsedQuery, mode: 'and' | 'or', rankCap: number) => LexicalHit[];

/** Lexical candidates for a query that should yield `limit` hits. */
export function tieredLexical(parsed: ParsedQuery, limit: number, run: LexicalRun): Candidate[] {
  const tiers: Array<{ hits: LexicalHit[]; factor: number }> = [];
  const found = new Set<number>();
  const step = (query: ParsedQuery, mode: 'and' | 'or', factor: number, rankCap: number) => {
    const hits = run(query, mode, rankCap);
    for (const h of hits) found.add(h.id);
    tiers.push({ hits, factor });
  };
  const exact = parsed.prefixLast ? { ...parsed, prefixLast: false } : parsed;
  step(exact, 'and', TIER_FACTORS.exact, RANK_CAP);
  if (found.size === 0 && parsed.prefixLast) step(parsed, 'and', TIER_FACTORS.prefix, RANK_CAP);
  if (found.size < limit && parsed.items.length > 1) step(exact, 'or', TIER_FACTORS.partial, PARTIAL_RANK_CAP);
  return lexicalCandidates(tiers);
}

/**
 * The order in which a query is tried against the lexical engine, each step only when the
 * previous ones found nothing: every word exactly; then the last word as a prefix (it is still
 * being typed: porter already covers its inflections); then any word. Matches of every word are
 * what was asked for: padding them with matches of some words would bury them in noise, and
 * doubled the time of a multi-word query.
 */
import { TIER_FACTORS, lexicalCandidates, type Candidate } from './hybrid';
import type { ParsedQuery } from './queryParser';
import type { LexicalStep } from './lexicalBackend';
import type { LexicalHit } from './searchTypes';
import { RANK_CAP } from './sqliteBackend';

/**
 * Matches ranked when only some of the words match: such a query on common words matches much
 * of the store, and partial matches are a last resort, so recency decides beyond this many.
 */
const PARTIAL_RANK_CAP = 50;

/** Runs one step of a query against the engine. */
export type LexicalRun = (query: ParsedQuery, step: LexicalStep) => LexicalHit[];

/** Which step answered: every word, the last word as a prefix, or only some of the words. */
export type LexicalTier = keyof typeof TIER_FACTORS;

/** Lexical candidates for a query, with the step that found them (none: nothing matched). */
export function tieredLexical(parsed: ParsedQuery, run: LexicalRun): { candidates: Candidate[]; tier?: LexicalTier } {
  const exact = parsed.prefixLast ? { ...parsed, prefixLast: false } : parsed;
  const steps: Array<{ query: ParsedQuery; step: LexicalStep; tier: LexicalTier; when: boolean }> = [
    { query: exact, step: { mode: 'and', rankCap: RANK_CAP }, tier: 'exact', when: true },
    { query: parsed, step: { mode: 'and', rankCap: RANK_CAP, unrankedWhenBroad: true }, tier: 'prefix', when: parsed.prefixLast },
    { query: exact, step: { mode: 'or', rankCap: PARTIAL_RANK_CAP }, tier: 'partial', when: parsed.items.length > 1 },
  ];
  for (const { query, step, tier, when } of steps) {
    if (!when) continue;
    const hits = run(query, step);
    if (hits.length > 0) return { candidates: lexicalCandidates(hits, TIER_FACTORS[tier]), tier };
  }
  return { candidates: [] };
}

/**
 * How alike two knowledge items are, without a model: the Dice overlap of their content words
 * (stemmed as search stems them, stop words out), so "use pnpm, not npm, for installs" and
 * "installs use pnpm instead of npm" count as near duplicates while items on different subjects do
 * not. Negations are kept as words and compared on their own: "X is safe" and "X is not safe" share
 * every other word but say opposite things, which is a correction, never a duplicate.
 */
import { STOPWORDS } from '../search/stopwords';
import { textTerms } from '../search/textTerms';
import { stripProvenance } from './provenance';
import { withoutSupersession } from './supersession';

/**
 * Words that turn a statement into its opposite, or set one thing against another ("pnpm instead
 * of npm" says what "pnpm, not npm" says).
 */
const NEGATIONS = new Set(['not', 'no', 'never', 'don', 'doesn', 'isn', 'aren', 'won', 'cannot', 'without', 'nor', 'instead', 'rather']);

/** The comparable form of an item: its content terms and whether it is negated. */
export interface ItemTerms {
  terms: Set<string>;
  negated: boolean;
}

/** The terms of an item's text or `- …` line (list marker, markup, markers and provenance left out). */
export function itemTerms(text: string): ItemTerms {
  const body = withoutSupersession(stripProvenance(text)).replace(/^\s*[-*+]\s+(?:\[[ xX]\]\s+)?/, '').replace(/\*\*/g, '');
  const terms = new Set<string>();
  let negated = false;
  for (const term of textTerms(body)) {
    if (NEGATIONS.has(term)) {
      negated = !negated;
      continue;
    }
    if (term.length < 2 || STOPWORDS.has(term)) continue;
    terms.add(term);
  }
  return { terms, negated };
}

/** Content terms both items share. */
export function sharedTerms(a: ItemTerms, b: ItemTerms): number {
  let shared = 0;
  const [small, large] = a.terms.size <= b.terms.size ? [a.terms, b.terms] : [b.terms, a.terms];
  for (const term of small) if (large.has(term)) shared++;
  return shared;
}

/** Dice similarity of the content terms, 0 … 1 (1: the same words, whatever their order). */
export function termSimilarity(a: ItemTerms, b: ItemTerms): number {
  const total = a.terms.size + b.terms.size;
  return total === 0 ? 0 : (2 * sharedTerms(a, b)) / total;
}

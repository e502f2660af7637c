/**
 * How alike two knowledge items are, without a model: the Dice overlap of their content words
 * (stemmed as search stems them, stop words out), so "use pnpm, not npm, for installs" and
 * "installs use pnpm instead of npm" count as near duplicates while items on different subjects do
 * not. Negations are kept as words and compared on their own: "X is safe" and "X is not safe" share
 * every other word but say opposite things, which is a correction, never a duplicate. Numbers,
 * versions, identifiers and names are compared on their own too (itemSpecifics): "the bucket is
 * acme-builds-us" and "…acme-builds-eu", or "TTL is 5 minutes" and "10 minutes", share almost
 * every word and are two facts.
 */
import { STOPWORDS } from './stopwords';
import { textTerms } from './textTerms';
import { itemStatement } from '../../model/itemLines';

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

/** An item's text or `- …` line without list marker, markup, markers and provenance. */
function itemBody(text: string): string {
  return itemStatement(text).replace(/\*\*/g, '');
}

/** The terms of an item's text or `- …` line (list marker, markup, markers and provenance left out). */
export function itemTerms(text: string): ItemTerms {
  const body = itemBody(text);
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
export function sharedTerms(a: Pick<ItemTerms, 'terms'>, b: Pick<ItemTerms, 'terms'>): number {
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

/**
 * What in an item names one thing exactly: numbers and versions (`5`, `22`, `7.2`, `02:00`),
 * identifiers (`acme-builds-us`, `eu-west-1`, `release/2.4`, `node:22-alpine`), and names
 * (`Jenkins`, `GitHub`, `TTL`, `Frankfurt`: a capital letter past the first of a sentence's first
 * word). Two items are one only when each one's specifics are found in the other.
 */
export interface ItemSpecifics {
  /** Each specific token as the terms it is made of (`acme-builds-us`: acme, build, us). */
  tokens: string[][];
  /** Every term of the item, stop words included: where another item's specifics are looked for. */
  words: Set<string>;
}

/** A run of letters and digits, with single separators inside it (`eu-west-1`, `10,000`, `app.yaml`). */
const TOKEN = /[\p{L}\p{N}]+(?:[-_./:@#+,][\p{L}\p{N}]+)*/gu;
const HAS_DIGIT = /\p{N}/u;
const HAS_SEPARATOR = /[-_./:@#+,]/;
const UPPER = /\p{Lu}/u;
/** Text before a token that makes it a sentence's first word (nothing, or a sentence's end). */
const SENTENCE_START = /(?:^|[.!?:;]\s+)$/;
/** Thousands separators, so that `10,000` and `10000` are one number. */
const DIGIT_GROUPS = /(\d)[,_](?=\d{3}\b)/g;

/** The specifics of an item's text or `- …` line (see ItemSpecifics). */
export function itemSpecifics(text: string): ItemSpecifics {
  const body = itemBody(text).replace(DIGIT_GROUPS, '$1');
  const tokens: string[][] = [];
  for (const match of body.matchAll(TOKEN)) {
    const token = match[0];
    const capitalOnlyFirst = UPPER.test(token[0]) && !UPPER.test(token.slice(1));
    const named = UPPER.test(token) && !(capitalOnlyFirst && SENTENCE_START.test(body.slice(0, match.index)));
    if (!HAS_DIGIT.test(token) && !HAS_SEPARATOR.test(token) && !named) continue;
    const terms = textTerms(token);
    if (terms.length > 0 && !(terms.length === 1 && STOPWORDS.has(terms[0]))) tokens.push(terms);
  }
  return { tokens, words: new Set(textTerms(body)) };
}

/**
 * Whether two items name the same things: every specific of each is in the other (as a whole,
 * or as the words it is made of: "git-ignored" is in "ignored by git"). Items that differ in a
 * number, a name, an identifier, a version or a place are never the same item.
 */
export function sameSpecifics(a: ItemSpecifics, b: ItemSpecifics): boolean {
  const within = (tokens: string[][], words: Set<string>) => tokens.every((terms) => terms.every((t) => words.has(t)));
  return within(a.tokens, b.words) && within(b.tokens, a.words);
}

/**
 * Term handling outside SQLite: snippets of hits are cut with these functions (the engine
 * returns ids and scores only), and the comparisons that rank or match words without the index
 * (near-duplicate items, existing items of a harvest, topics) use the same terms. The stemmer is
 * a light English one (plural, -ing, -ed), deliberately simpler than FTS5's porter: highlighting
 * a little narrower than matching costs nothing, and the same word is the same term everywhere.
 */
import type { HighlightMarkers } from './searchTypes';
import type { ParsedQuery } from './queryParser';

const WORD = /[\p{L}\p{N}\p{M}\p{Co}]+/gu;
const ASCII_WORD = /[A-Za-z0-9]+/g;
const MARKS = /\p{M}+/gu;

const ASCII = /^[\x00-\x7f]*$/;
const LOWER_ASCII = /^[a-z]+$/;

/** Lowercase, without diacritics (as unicode61's remove_diacritics), lightly stemmed. */
export function normalizeTerm(word: string): string {
  return stem(fold(word));
}

/** Lowercase without diacritics; most words are ASCII, which skips the Unicode decomposition. */
function fold(word: string): string {
  const lower = word.toLowerCase();
  return ASCII.test(lower) ? lower : lower.normalize('NFD').replace(MARKS, '').normalize('NFC');
}

const isVowel = (c: string) => c === 'a' || c === 'e' || c === 'i' || c === 'o' || c === 'u';

/** Drops a doubled final consonant left by -ing/-ed (running → runn → run), but not ll/ss/zz. */
function undouble(word: string): string {
  const n = word.length;
  const c = word[n - 1];
  return n > 2 && c === word[n - 2] && !isVowel(c) && c !== 'l' && c !== 's' && c !== 'z' ? word.slice(0, -1) : word;
}

// endsWith rather than regular expressions: this runs for every word the fallback indexes and
// every word of every snippet.
function stem(word: string): string {
  if (word.length <= 3 || !LOWER_ASCII.test(word)) return word;
  if (word.endsWith('ies') && word.length > 4) return word.slice(0, -3) + 'y';
  if (word.endsWith('ss') || word.endsWith('us') || word.endsWith('is')) return word;
  if (word.endsWith('xes') || word.endsWith('zes') || word.endsWith('ches') || word.endsWith('shes')) return word.slice(0, -2);
  if (word.endsWith('ing') && word.length > 5) return undouble(word.slice(0, -3));
  if (word.endsWith('ed') && word.length > 4) return undouble(word.slice(0, -2));
  if (word.endsWith('s')) return word.slice(0, -1);
  return word;
}

/** The raw words of a text with their offsets. */
export function wordsWithOffsets(text: string): Array<{ word: string; start: number; end: number }> {
  const out: Array<{ word: string; start: number; end: number }> = [];
  // In ASCII text the Unicode classes are exactly letters and digits, and far cheaper to match.
  const pattern = ASCII.test(text) ? ASCII_WORD : WORD;
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) out.push({ word: m[0], start: m.index, end: m.index + m[0].length });
  return out;
}

/** The normalized terms of a text, in order (the fallback's tokenizer + term processor). */
export function textTerms(text: string): string[] {
  return wordsWithOffsets(text).map((w) => normalizeTerm(w.word));
}

/** Whether a word of a document matches a query; build once per query (see termMatcher). */
export interface TermMatcher {
  (word: string): boolean;
  /**
   * Find just the words that could match (those sharing a query word's first letters), so a
   * snippet does not tokenize a whole 2 KB transcript chunk: for ASCII text, and for any text.
   */
  candidates?: RegExp;
}

/** Decides whether a word of a document matches the query (exact stem, or prefix of the last word). */
export function termMatcher(query: ParsedQuery): TermMatcher {
  const words = query.items.flat();
  const exact = new Set(words.map(normalizeTerm));
  const last = query.items[query.items.length - 1];
  const prefix = query.prefixLast && last ? fold(last[0]) : undefined;
  // Words repeat across the snippets of one query: remember each verdict.
  const seen = new Map<string, boolean>();
  const matcher: TermMatcher = (word) => {
    let verdict = seen.get(word);
    if (verdict === undefined) {
      const folded = fold(word);
      verdict = exact.has(stem(folded)) || (prefix !== undefined && folded.startsWith(prefix));
      seen.set(word, verdict);
    }
    return verdict;
  };
  const roots = [...new Set(words.map((w) => fold(w).slice(0, 3)))];
  // Stems share their first three letters with the word (porter's and ours alike).
  // A plain alternation, no look-behind or Unicode classes: those made the scan 20× slower.
  if (roots.length > 0 && roots.every((r) => /^[a-z0-9]+$/.test(r))) matcher.candidates = new RegExp(roots.join('|'), 'gi');
  return matcher;
}

const WORD_CHAR = /[\p{L}\p{N}\p{M}\p{Co}]/u;
/** Whitespace other than single spaces. */
const RUNS_OF_SPACE = /[^\S ]| {2}/;
const WORD_TAIL = /[\p{L}\p{N}\p{M}\p{Co}]*/uy;
// The same in ASCII text, where the Unicode classes are letters and digits (and cost a compile).
const ASCII_WORD_CHAR = /[A-Za-z0-9]/;
const ASCII_WORD_TAIL = /[A-Za-z0-9]*/y;

/** Offsets of the matching words of a text, at most `max` of them. */
function matchOffsets(flat: string, matches: TermMatcher, max = Infinity): Array<[number, number]> {
  const hits: Array<[number, number]> = [];
  const roots = matches.candidates;
  const ascii = ASCII.test(flat);
  if (roots) {
    const wordChar = ascii ? ASCII_WORD_CHAR : WORD_CHAR;
    const tail = ascii ? ASCII_WORD_TAIL : WORD_TAIL;
    // Words starting with a query word's first letters, checked whole.
    roots.lastIndex = 0;
    for (let m = roots.exec(flat); m && hits.length < max; m = roots.exec(flat)) {
      const start = m.index;
      if (start > 0 && wordChar.test(flat[start - 1])) continue;
      tail.lastIndex = start;
      tail.exec(flat);
      const end = tail.lastIndex;
      if (matches(flat.slice(start, end))) hits.push([start, end]);
      roots.lastIndex = end;
    }
    // Accented first letters (déjà for "deja") escape the roots: scan every word then.
    if (hits.length > 0 || ascii) return hits;
  }
  const pattern = ascii ? ASCII_WORD : WORD;
  pattern.lastIndex = 0;
  for (let m = pattern.exec(flat); m && hits.length < max; m = pattern.exec(flat))
    if (matches(m[0])) hits.push([m.index, m.index + m[0].length]);
  return hits;
}

/**
 * The part of a long text a snippet can come from: a few windows' worth around the first match,
 * cut at whitespace, so a 2 KB transcript chunk is not flattened and scanned whole.
 */
function snippetSource(text: string, matches: TermMatcher, maxChars: number): { source: string; cutBefore: boolean; cutAfter: boolean } {
  if (text.length <= 3 * maxChars) return { source: text, cutBefore: false, cutAfter: false };
  const first = matchOffsets(text, matches, 1)[0]?.[0] ?? 0;
  let from = Math.max(0, first - maxChars);
  if (from > 0) {
    const space = text.slice(from, first).search(/\s/);
    from = space >= 0 ? from + space + 1 : first;
  }
  let to = Math.min(text.length, from + 3 * maxChars);
  if (to < text.length) {
    const space = text.lastIndexOf(' ', to);
    if (space > first) to = space;
  }
  return { source: text.slice(from, to), cutBefore: from > 0, cutAfter: to < text.length };
}

/**
 * A window of about `maxChars` around the first matching word, matching words wrapped in the
 * markers and cut ends marked with `…`. Without a match, the start of the text.
 */
export function makeSnippet(text: string, query: ParsedQuery | TermMatcher, markers: HighlightMarkers, maxChars = 200): string {
  const matcher = typeof query === 'function' ? query : termMatcher(query);
  const { source, cutBefore, cutAfter } = snippetSource(text, matcher, maxChars);
  // Most items are one line with single spaces: nothing to flatten, no copy.
  const flat = RUNS_OF_SPACE.test(source) ? source.replace(/\s+/g, ' ').trim() : source.trim();
  const hits = matchOffsets(flat, matcher);
  let start = 0;
  if (hits.length > 0 && hits[0][0] > maxChars / 3) {
    // Keep some words before the first match, cut at a word start.
    const space = flat.indexOf(' ', hits[0][0] - Math.floor(maxChars / 3));
    start = space >= 0 && space < hits[0][0] ? space + 1 : hits[0][0];
  }
  let end = Math.min(flat.length, start + maxChars);
  if (end < flat.length) {
    const lastSpace = flat.lastIndexOf(' ', end);
    if (lastSpace > start) end = lastSpace;
  }
  let out = '';
  let at = start;
  for (const [from, to] of hits) {
    if (from < start || to > end) continue;
    out += flat.slice(at, from) + markers.open + flat.slice(from, to) + markers.close;
    at = to;
  }
  out += flat.slice(at, end);
  return (start > 0 || cutBefore ? '…' : '') + out + (end < flat.length || cutAfter ? '…' : '');
}

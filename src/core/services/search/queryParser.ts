/**
 * User queries are plain text, never engine syntax. Whatever is typed (quotes, AND/OR/NOT/NEAR,
 * `*`, `:`, `^`, parentheses, control characters, any script) is reduced to words and quoted
 * phrases, and only then rebuilt as an FTS5 expression in which every word is a quoted string,
 * so nothing the user types can be read as an operator or a column filter.
 */

/** A sanitized query. */
export interface ParsedQuery {
  /** Words and phrases in input order; a phrase is several words that must be adjacent. */
  items: string[][];
  /** True when the last item is a single word matched as a prefix (search as you type). */
  prefixLast: boolean;
}

/** Longest input looked at; the rest is ignored (a query is not a document). */
const MAX_QUERY_CHARS = 1000;
/** The last word is matched as a prefix only from this length on (see isPrefixWorthy). */
const MIN_PREFIX_CHARS = 3;
/** At most this many words and phrases; more only slow the engine down. */
export const MAX_QUERY_ITEMS = 32;

/** Characters FTS5's unicode61 tokenizer keeps in tokens: letters, digits, marks, private use. */
const WORD = /[\p{L}\p{N}\p{M}\p{Co}]+/gu;
const ASCII = /^[\x00-\x7f]*$/;
const ASCII_WORD = /[A-Za-z0-9]+/g;

function words(text: string): string[] {
  // In ASCII text (most queries) the Unicode classes are exactly letters and digits, matched here
  // without compiling those classes (about a millisecond, in a one-shot search).
  if (ASCII.test(text)) return (text.match(ASCII_WORD) ?? []).map((w) => w.toLowerCase());
  return (text.match(WORD) ?? []).map((w) => w.toLowerCase()).filter((w) => /[\p{L}\p{N}\p{Co}]/u.test(w));
}

/**
 * Parses anything into a query. `"…"` (balanced) is a phrase; an unbalanced quote is ignored.
 * The last word is a prefix unless the input ends with a space or a closing quote (a finished
 * word) or the word is shorter than three letters. Never throws; a query without words is empty.
 */
export function parseQuery(input: unknown): ParsedQuery {
  let text = typeof input === 'string' ? input : '';
  if (text.length > MAX_QUERY_CHARS) text = text.slice(0, MAX_QUERY_CHARS);
  // Lone surrogates (a cut emoji) would make later string handling lossy; drop them.
  text = text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, ' ').normalize('NFKC');
  const items: string[][] = [];
  let lastIsPhrase = false;
  const quote = /"([^"]*)"/g;
  let at = 0;
  const addWords = (part: string) => {
    for (const w of words(part)) items.push([w]);
    if (words(part).length > 0) lastIsPhrase = false;
  };
  for (let m = quote.exec(text); m; m = quote.exec(text)) {
    addWords(text.slice(at, m.index));
    const phrase = words(m[1]);
    if (phrase.length > 0) {
      items.push(phrase);
      lastIsPhrase = true;
    }
    at = m.index + m[0].length;
  }
  addWords(text.slice(at).replace(/"/g, ' '));
  const kept = dedupe(items).slice(0, MAX_QUERY_ITEMS);
  const last = kept[kept.length - 1];
  const prefixLast =
    last !== undefined &&
    last.length === 1 &&
    isPrefixWorthy(last[0]) &&
    !lastIsPhrase &&
    !/[\s"]$/u.test(text) &&
    kept.length === dedupe(items).length;
  return { items: kept, prefixLast };
}

/**
 * A one- or two-letter fragment as a prefix matches a large part of any store and is the most
 * expensive query there is, for results nobody wants yet; ideographic scripts are the exception
 * (one or two characters are a word there).
 */
function isPrefixWorthy(word: string): boolean {
  return (
    [...word].length >= MIN_PREFIX_CHARS ||
    (!ASCII.test(word) && /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(word))
  );
}

function dedupe(items: string[][]): string[][] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = item.join(' ');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** True when nothing searchable is left. */
export function isEmptyQuery(query: ParsedQuery): boolean {
  return query.items.length === 0;
}

/**
 * The FTS5 MATCH expression: every item a quoted string (a `"` cannot occur inside, the parser
 * keeps only word characters), the last one followed by `*` when it is a prefix. `and` requires
 * every item; `or` any of them, ranked by bm25.
 */
export function toFtsExpression(query: ParsedQuery, mode: 'and' | 'or'): string | undefined {
  if (query.items.length === 0) return undefined;
  const parts = query.items.map((item, i) => {
    const quoted = `"${item.join(' ')}"`;
    return query.prefixLast && i === query.items.length - 1 ? `${quoted}*` : quoted;
  });
  return parts.join(mode === 'and' ? ' AND ' : ' OR ');
}

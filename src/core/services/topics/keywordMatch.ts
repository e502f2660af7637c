/**
 * Keyword triggers: words or phrases found in a text on word edges, in any case, with any run of
 * whitespace inside a phrase. Done with indexOf on a lower-cased, whitespace-folded copy of the
 * text (made once per text) rather than with a regular expression per topic: a case-insensitive
 * Unicode expression with `\p{L}` edges costs about half a millisecond to compile, which 20 topics
 * would pay before every prompt.
 */
import { MAX_MATCH_INPUT_CHARS } from './safeRegex';

/** One letter, digit or underscore: what a word edge must not have on either side. */
const WORD_CHAR = /[\p{L}\p{N}_]/u;

let lastText: string | undefined;
let lastFolded = '';

/** The text as keywords are looked up in: bounded, lower-cased, whitespace runs folded to one space. */
function folded(text: string): string {
  if (text !== lastText) {
    lastText = text;
    lastFolded = text.slice(0, MAX_MATCH_INPUT_CHARS).toLowerCase().replace(/\s+/g, ' ');
  }
  return lastFolded;
}

/** A keyword as it is looked up. */
export function foldKeyword(keyword: string): string {
  return keyword.toLowerCase().replace(/\s+/g, ' ').trim();
}

function isWordChar(char: string | undefined): boolean {
  return char !== undefined && char !== '' && WORD_CHAR.test(char);
}

/** The (folded) keyword found earliest in `text` on word edges, or undefined. */
export function findKeyword(text: string, keywords: readonly string[]): string | undefined {
  const haystack = folded(text);
  let best: { at: number; keyword: string } | undefined;
  for (const keyword of keywords) {
    if (!keyword) continue;
    for (let at = haystack.indexOf(keyword); at !== -1 && (!best || at < best.at); at = haystack.indexOf(keyword, at + 1)) {
      // A whole code point before and after (surrogate pairs: look two units away).
      const before = haystack.codePointAt(at - 1 >= 0 && /[\udc00-\udfff]/.test(haystack[at - 1]) ? at - 2 : at - 1);
      const after = haystack.codePointAt(at + keyword.length);
      const edgeBefore = at === 0 || !isWordChar(before === undefined ? undefined : String.fromCodePoint(before));
      const edgeAfter =
        at + keyword.length >= haystack.length || !isWordChar(after === undefined ? undefined : String.fromCodePoint(after));
      if (edgeBefore && edgeAfter) {
        best = { at, keyword };
        break;
      }
    }
  }
  return best?.keyword;
}

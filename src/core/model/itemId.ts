/**
 * Stable short ids of knowledge items, so agents, links and supersession can name one line.
 *
 * The id is derived from the line's identity (see lineIdentity: its text without the provenance
 * date, whitespace and case folded, plus the provenance source), not written into the file: every
 * line a person or an older Lore wrote has one without a migration, moving a line (a task marked
 * done, a reordered file) keeps it, and two stores that hold the same line agree on it. Editing
 * the statement gives the line a new id, as it is a new statement; replies name the new id.
 */
import { sha256Digest } from '../base/lazyCrypto';
import { lineIdentity, recordLine, renderItemLine } from './itemLines';

/** Crockford's base32 alphabet: no I, L, O or U, so an id read aloud or retyped survives. */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/** Characters in an id: 40 bits, so a store of 10,000 items has a 1 in 20,000 chance of a clash. */
export const ITEM_ID_LENGTH = 8;

/** The shape of an id, for schemas at the boundaries (MCP arguments, CLI flags). */
export const ITEM_ID_PATTERN = /^[0-9a-hjkmnp-tv-z]{8}$/;

/** The id of an item line (`- statement … [from: ID, date]`), the same for the same identity. */
export function itemId(line: string): string {
  return base32Id(sha256Digest(lineIdentity(line)), ITEM_ID_LENGTH);
}

/** The first `length` Crockford base32 characters of some bytes (a digest, random bytes). */
export function base32Id(bytes: Uint8Array, length: number): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5 && out.length < length) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    if (out.length === length) break;
  }
  return out;
}

/** Whether `text` looks like an item id (case-insensitive, as people retype them). */
export function isItemId(text: string): boolean {
  return ITEM_ID_PATTERN.test(text.trim().toLowerCase());
}

/**
 * The id of a parsed list item (categoryFile's listItems): of its whole text, continuation lines
 * joined, so a person's item wrapped over two lines has the id search and recall give it (they
 * index the joined text); an item on one line has its line's id.
 */
export function listItemId(item: { text: string }): string {
  return itemId(renderItemLine(item.text));
}

/**
 * The id of an indexed item (a search hit, a recall item: its text without the provenance, with
 * the source and date it carried): the id of the line it came from, as the line is rebuilt the
 * way review.md and the instruction rules see it (recordLine).
 */
export function recordItemId(record: { text: string; source?: string; date?: string }): string {
  return itemId(recordLine(record));
}

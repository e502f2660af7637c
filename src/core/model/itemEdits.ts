/**
 * Edits of one item, found by its line identity, in the text of a category or note file: replace
 * its text, or mark it superseded with its successor beside it. Like the other edits of
 * categoryFile.ts they work on lines and keep every byte they do not own (BOM, each line's own
 * break, hand-written lines), and they are pure: the store applies them through the guarded
 * replace, which re-applies them on top of a person's concurrent save.
 */
import { itemBlocks, parseLines, serializeLines, spliceLines } from './categoryFile';
import { lineIdentity } from './itemLines';
import { parseProvenance, toIsoDate } from './provenance';
import { markSuperseded } from './supersession';

/**
 * Replaces the item with `identity` (continuation lines included) by `newLine`, where it stands.
 * Copies of it elsewhere in the file go (they were the same item). Undefined when the item is
 * not in the text.
 */
export function replaceItem(text: string, identity: string, newLine: string): string | undefined {
  const doc = parseLines(text);
  const blocks = itemBlocks(doc, text, new Set([identity]));
  if (blocks.length === 0) return undefined;
  const [first, ...rest] = blocks;
  for (const i of rest.flat().sort((a, b) => b - a)) spliceLines(doc, i, 1);
  spliceLines(doc, first[0], first.length, [newLine]);
  return serializeLines(doc);
}

/**
 * Marks the item with `identity` as superseded by `newId` (see supersession.ts) and puts
 * `newLine` right after it, in the same section (an open task's successor stays open), unless
 * the file holds that line already. Undefined when the item is not in the text.
 */
export function supersedeItem(
  text: string,
  identity: string,
  newId: string,
  newLine: string,
  date = parseProvenance(newLine)?.date ?? toIsoDate(new Date()),
): string | undefined {
  const doc = parseLines(text);
  const blocks = itemBlocks(doc, text, new Set([identity]));
  if (blocks.length === 0) return undefined;
  for (const block of blocks) doc.lines[block[0]] = markSuperseded(doc.lines[block[0]], newId, date);
  const successor = lineIdentity(newLine);
  if (itemBlocks(doc, serializeLines(doc), new Set([successor])).length === 0) {
    const last = blocks[blocks.length - 1];
    spliceLines(doc, last[last.length - 1] + 1, 0, [newLine]);
  }
  return serializeLines(doc);
}

/**
 * Marks the item with `identity` as superseded by the item `newId` written elsewhere (a person's
 * `lore supersede OLD NEW`, a harvest's `supersedes`, `lore tidy`), on `date`. Undefined when the
 * item is not in the text, or is already marked so.
 */
export function markItemSuperseded(text: string, identity: string, newId: string, date: string): string | undefined {
  const doc = parseLines(text);
  const blocks = itemBlocks(doc, text, new Set([identity]));
  let changed = false;
  for (const block of blocks) {
    const marked = markSuperseded(doc.lines[block[0]], newId, date);
    if (marked === doc.lines[block[0]]) continue;
    doc.lines[block[0]] = marked;
    changed = true;
  }
  return changed ? serializeLines(doc) : undefined;
}

/**
 * Taking one source out of a category or note file's text, as a pure edit (the store applies it
 * through the guarded replace): an item only that source taught goes, continuation lines and
 * all; an item other sources taught too (`[from: a, d1; b, d2]`, duplicates merged) stays with
 * that source's entries taken out of its provenance. Every other byte is kept.
 */
import { itemBlock, listItems, parseLines, serializeLines, spliceLines } from '../../model/categoryFile';
import { listItemId } from '../../model/itemId';
import { formatSources, parseProvenance, plainSources } from '../../model/provenance';

/** What taking a source out of a file's text does. */
export interface SourceRemoval {
  /** The text after the edit; undefined when nothing in it came from the source. */
  text?: string;
  /** Items removed: their first line, as it was, and their id (of the whole item). */
  removed: Array<{ line: string; id: string }>;
  /** Items kept for their other sources: the line as it was and as it becomes. */
  trimmed: Array<{ before: string; after: string }>;
}

/** Takes `source` out of the items of `text` (see the module comment). */
export function removeSource(text: string, source: string): SourceRemoval {
  const result: SourceRemoval = { removed: [], trimmed: [] };
  if (!text.includes(source)) return result;
  const doc = parseLines(text);
  const drop = new Set<number>();
  for (const item of listItems(text)) {
    if (!item.text.includes(source)) continue;
    const block = itemBlock(doc, item.line);
    // The marker ends the item: on its first line, or on the last of a wrapped item's lines.
    const at = [...block].reverse().find((i) => parseProvenance(doc.lines[i]) !== undefined);
    if (at === undefined) continue;
    const parsed = parseProvenance(doc.lines[at])!;
    if (!parsed.sources.some((p) => p.source === source)) continue;
    const rest = parsed.sources.filter((p) => p.source !== source);
    if (rest.length === 0) {
      result.removed.push({ line: item.raw, id: listItemId(item) });
      for (const i of block) drop.add(i);
      continue;
    }
    const line = doc.lines[at];
    const after = `${line.slice(0, parsed.start)}${formatSources(plainSources(rest))}${line.slice(parsed.end)}`;
    result.trimmed.push({ before: line, after });
    doc.lines[at] = after;
  }
  if (drop.size === 0 && result.trimmed.length === 0) return result;
  for (const i of [...drop].sort((a, b) => b - a)) spliceLines(doc, i, 1);
  result.text = serializeLines(doc);
  return result;
}

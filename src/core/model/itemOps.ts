/**
 * Changes to items already in a file that keep the knowledge true, as data (so a plan can show
 * them, and apply can re-apply them on top of a person's concurrent save): add sources to a line
 * (a duplicate merged into it), remove the lines merged into another, mark a line superseded by a
 * newer item. Items are named by line identity (lineIdentity), which merging and marking do not
 * change, so applying the ops twice changes nothing the second time.
 */
import { itemBlocks, parseLines, serializeLines, spliceLines } from './categoryFile';
import { markItemSuperseded } from './itemEdits';
import { addSources, type Provenance } from './provenance';

export type ItemOp =
  /** The item `keep` gains `sources`; the items `drop` (duplicates of it) go. */
  | { op: 'merge'; keep: string; sources: Provenance[]; drop: string[] }
  /** The item `old` is marked superseded by the item with id `by`, on `date`. */
  | { op: 'supersede'; old: string; by: string; date: string };

/** The text after the ops; ops whose item is gone (removed by hand meanwhile) change nothing. */
export function applyItemOps(text: string | undefined, ops: readonly ItemOp[]): string {
  let current = text ?? '';
  for (const op of ops) {
    if (op.op === 'supersede') {
      current = markItemSuperseded(current, op.old, op.by, op.date) ?? current;
      continue;
    }
    const doc = parseLines(current);
    const kept = itemBlocks(doc, current, new Set([op.keep]));
    if (kept.length === 0) continue; // The line that was to carry the sources is gone: keep the duplicates.
    const first = kept[0];
    // The sources go on the line holding the provenance: the item's last (a wrapped item's continuation).
    const at = first.find((i) => doc.lines[i].includes('[from:')) ?? first[first.length - 1];
    doc.lines[at] = addSources(doc.lines[at], op.sources);
    // Copies of the kept line itself go too (the same item twice), as do the duplicates.
    const drops = [...kept.slice(1), ...itemBlocks(doc, current, new Set(op.drop.filter((d) => d !== op.keep)))];
    for (const i of drops.flat().sort((a, b) => b - a)) spliceLines(doc, i, 1);
    current = serializeLines(doc);
  }
  return current;
}

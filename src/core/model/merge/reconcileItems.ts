/**
 * After a merge, one file of items brought in step with the merged store, as a pure edit (the
 * store applies it through the guarded replace, store/history/reconcileMerge.ts):
 *
 * - an item whose id or statement is tombstoned in the merged ledger goes (a teammate's forget
 *   reaches us even when we harvested the same words before pulling);
 * - a forgotten conversation's source is taken out of every line (the line goes when it was its
 *   only source);
 * - one statement on two lines of one section (the same words from two sides or two
 *   conversations) becomes one line with every source, the first line's place and id kept. Only
 *   current one-line items are folded: a superseded item, or one a person wrapped over lines, is
 *   left as it is.
 *
 * Undefined when nothing changes, so a store with nothing to reconcile is not written.
 */
import { itemBlock, listItems, parseLines, serializeLines, spliceLines } from '../categoryFile';
import { addSources, formatSources, parseProvenance, plainSources } from '../provenance';
import { readSupersession } from '../supersession';
import { statementHash } from '../tombstones';

export interface ReconcileRules {
  /** Whether a line's id or statement was forgotten (tombstones.ts forgottenLineTest). */
  forgottenLine?: (line: string) => boolean;
  /** Conversation ids forgotten for good. */
  forgottenSources: ReadonlySet<string>;
}

/** The text reconciled (see the module comment), or undefined when nothing changes. */
export function reconcileItems(text: string, rules: ReconcileRules): string | undefined {
  const doc = parseLines(text);
  const drop = new Set<number>();
  const firstOf = new Map<string, number>();
  let changed = false;
  for (const item of listItems(text)) {
    const block = itemBlock(doc, item.line);
    let line = doc.lines[item.line];
    if (rules.forgottenLine?.(line)) {
      for (const i of block) drop.add(i);
      continue;
    }
    const provenance = parseProvenance(line);
    if (provenance && rules.forgottenSources.size && provenance.sources.some((p) => rules.forgottenSources.has(p.source))) {
      const rest = provenance.sources.filter((p) => !rules.forgottenSources.has(p.source));
      if (!rest.length) {
        for (const i of block) drop.add(i);
        continue;
      }
      line = `${line.slice(0, provenance.start)}${formatSources(plainSources(rest))}${line.slice(provenance.end)}`;
      doc.lines[item.line] = line;
      changed = true;
    }
    if (block.length > 1 || readSupersession(line)) continue;
    const key = `${item.section ?? ''}\u0000${statementHash(line)}`;
    const first = firstOf.get(key);
    if (first === undefined) {
      firstOf.set(key, item.line);
      continue;
    }
    doc.lines[first] = addSources(doc.lines[first], plainSources(parseProvenance(line)?.sources ?? []));
    drop.add(item.line);
  }
  if (!drop.size && !changed) return undefined;
  for (const i of [...drop].sort((a, b) => b - a)) spliceLines(doc, i, 1);
  return serializeLines(doc);
}

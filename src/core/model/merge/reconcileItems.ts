/**
 * After a merge, one file of items brought in step with the merged store, as a pure edit (the
 * store applies it through the guarded replace, store/history/reconcileMerge.ts):
 *
 * - an item whose id or statement is tombstoned in the merged ledger goes (a teammate's forget
 *   reaches us even when we harvested the same words before pulling);
 * - a forgotten conversation's source is taken out of every line (the line goes when it was its
 *   only source);
 * - one statement on two lines (the same words from two sides or two conversations) becomes one
 *   line with every source, by the one rule of model/sameStatement.ts (the earliest-sourced line
 *   keeps its place and id, so every clone folds alike).
 *
 * Undefined when nothing changes, so a store with nothing to reconcile is not written.
 */
import { itemBlock, listItems, parseLines, serializeLines, spliceLines } from '../categoryFile';
import { applyItemOps } from '../itemOps';
import { formatSources, parseProvenance, plainSources } from '../provenance';
import { sameStatementOps } from '../sameStatement';

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
  let changed = false;
  for (const item of listItems(text)) {
    const block = itemBlock(doc, item.line);
    const line = doc.lines[item.line];
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
      doc.lines[item.line] = `${line.slice(0, provenance.start)}${formatSources(plainSources(rest))}${line.slice(provenance.end)}`;
      changed = true;
    }
  }
  for (const i of [...drop].sort((a, b) => b - a)) spliceLines(doc, i, 1);
  const kept = drop.size || changed ? serializeLines(doc) : text;
  const ops = sameStatementOps(kept);
  const folded = ops.length ? applyItemOps(kept, ops) : kept;
  return folded === text ? undefined : folded;
}

/**
 * What a harvest does with the model's `same_as` and `supersedes` (the ids of existing items the
 * prompt showed it): an item the same as an existing line is not written again, its conversation
 * is added to that line's sources; an item that supersedes existing ones is written and they are
 * marked `[superseded by <its id>, today]`. Ids are resolved against the store as the plan reads
 * it; an id that names nothing current (made up, or changed since) is ignored and the item is
 * written as usual, and so is a `same_as` whose line names other numbers, versions, identifiers or
 * names than the item (sameSpecifics: "TTL is 10 minutes" is not "TTL is 5 minutes", whatever the
 * model says; merged, the new fact's text would be lost). The edits are item ops (itemOps.ts) in the plan, so the preview shows them and
 * apply re-applies them on a person's concurrent save.
 */
import { itemId } from '../../model/itemId';
import { lineIdentity } from '../../model/itemLines';
import { findItemsById, type LocatedItem } from '../../store/items/itemLocator';
import { itemSpecifics, sameSpecifics } from '../search/itemSimilarity';
import type { ItemOp } from '../../model/itemOps';
import { toIsoDate, type Provenance } from '../../model/provenance';
import type { ItemRelations } from '../../model/categories';
import type { StorePaths } from '../../store/storePaths';
import type { PlannedRelations } from '../../store/harvestPlan';

/** Collects a plan's relations while its lines are built. */
export class PlanRelations {
  private readonly found = new Map<string, LocatedItem[]>();
  private readonly merges: Array<{ target: LocatedItem; provenance: Provenance; line: string }> = [];
  private readonly supersessions: Array<{ target: LocatedItem; line: string }> = [];
  /** Lines saying what an existing line says (sameStatements.ts): their sources go to it. */
  private readonly sameStatements: Array<{ file: string; target: string; line: string; sources: Provenance[] }> = [];
  private readonly today: string;

  constructor(
    private readonly paths: StorePaths,
    now: Date,
  ) {
    this.today = toIsoDate(now);
  }

  /** The current items an id names (looked up once per plan). */
  private current(id: string): LocatedItem[] {
    let places = this.found.get(id);
    if (!places) {
      places = findItemsById(this.paths, id).filter((p) => !p.supersededBy);
      this.found.set(id, places);
    }
    return places;
  }

  /** True when `line` goes into an existing item as a source (then it is not written itself). */
  mergeInto(item: ItemRelations, line: string, provenance: Provenance): boolean {
    const target = item.sameAs ? this.current(item.sameAs)[0] : undefined;
    if (!target || !sameSpecifics(itemSpecifics(target.raw), itemSpecifics(line))) return false;
    this.merges.push({ target, provenance, line });
    return true;
  }

  /** Records that `line` is not written: it says what `target` (a line of `file`) says, which gains its `sources`. */
  mergeSameStatement(file: string, target: string, line: string, sources: Provenance[]): void {
    this.sameStatements.push({ file, target, line, sources });
  }

  /** Records that the written `line` supersedes the existing items its relations name. */
  supersede(item: ItemRelations, line: string): void {
    for (const id of item.supersedes ?? []) {
      for (const target of this.current(id)) if (target.id !== itemId(line)) this.supersessions.push({ target, line });
    }
  }

  /** The item ops per store-relative file; supersessions by a `held` line (not written) left out. */
  opsByFile(held: readonly string[]): Map<string, ItemOp[]> {
    const heldIds = new Set(held.map(itemId));
    const ops = new Map<string, ItemOp[]>();
    const add = (file: string, op: ItemOp) => ops.set(file, [...(ops.get(file) ?? []), op]);
    for (const { target, provenance } of this.merges)
      add(target.file, { op: 'merge', keep: lineIdentity(target.raw), sources: [provenance], drop: [] });
    for (const { file, target, sources } of this.sameStatements) add(file, { op: 'merge', keep: lineIdentity(target), sources, drop: [] });
    for (let i = this.supersessions.length - 1; i >= 0; i--)
      if (heldIds.has(itemId(this.supersessions[i].line))) this.supersessions.splice(i, 1);
    for (const { target, line } of this.supersessions)
      add(target.file, { op: 'supersede', old: lineIdentity(target.raw), by: itemId(line), date: this.today });
    return ops;
  }

  /** What the relations do, for the report. */
  planned(): PlannedRelations {
    return {
      merged: [
        ...this.merges.map(({ target, provenance, line }) => ({ id: target.id, file: target.file, line, source: provenance.source })),
        ...this.sameStatements.map(({ file, target, line, sources }) => ({
          id: itemId(target),
          file,
          line,
          source: sources.map((p) => p.source).join(', '),
          same: 'statement' as const,
        })),
      ],
      superseded: this.supersessions.map(({ target, line }) => ({ id: target.id, file: target.file, by: itemId(line), line: target.raw })),
    };
  }
}

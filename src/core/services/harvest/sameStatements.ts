/**
 * A harvest writes each statement once (model/sameStatement.ts): the same statement from several
 * conversations of this run becomes one line carrying every source, earliest first, and a
 * statement the target file already holds (a teammate's harvest, an earlier run) adds its sources
 * to that line (an item op, applied again on a person's concurrent save) instead of becoming a
 * second line. Only lines bound for the same file meet: a note meets the notes of its file, a
 * done task the done tasks.
 */
import * as path from 'node:path';
import { CATEGORY_FILES, PLAN_LIST_FILE, type PlanListKey } from '../../model/categories';
import { parseNoteFile } from '../../model/noteFile';
import { foldSameStatements, sameStatementIndex, sameStatementKey } from '../../model/sameStatement';
import { parseProvenance, plainSources } from '../../model/provenance';
import { readTextLossless } from '../../base/readText';
import type { CategoryTexts } from '../../store/digest';
import type { StorePaths } from '../../store/storePaths';
import type { PlanRelations } from './planRelations';

/** The plan's new lines by list, as buildPlan collects them. */
type PlanLists = Record<PlanListKey, string[]>;

/** What folding did: lines of this harvest folded into another of it, and lines that became a source of an existing one. */
export interface DuplicateCounts {
  folded: number;
  merged: number;
}

/**
 * Folds the plan's lists and note lines in place (see the module comment) and records the merges
 * into existing lines in `relations`. `orphanLines` (notes that went to facts.md) follows its lines.
 */
export function foldDuplicates(
  paths: StorePaths,
  before: CategoryTexts,
  lists: PlanLists,
  notes: Map<string, { lines: string[] }>,
  orphanLines: Set<string>,
  relations: PlanRelations,
): DuplicateCounts {
  const counts: DuplicateCounts = { folded: 0, merged: 0 };
  const fold = (lines: string[], file: string, text: string | undefined, section?: string): string[] => {
    const within = foldSameStatements(lines);
    counts.folded += within.folded;
    const existing = sameStatementIndex(text);
    return within.lines.filter((line) => {
      const target = existing(line, section);
      if (target === undefined) return true;
      const have = new Set(parseProvenance(target)!.sources.map((p) => `${p.source}\u0000${p.date}`));
      const sources = plainSources(parseProvenance(line)?.sources ?? []).filter((p) => !have.has(`${p.source}\u0000${p.date}`));
      // Already one of its sources (the same conversation harvested again): nothing to add.
      if (sources.length) {
        relations.mergeSameStatement(file, target, line, sources);
        counts.merged++;
      }
      return false;
    });
  };

  const orphanKeys = new Set([...orphanLines].map(sameStatementKey));
  for (const key of Object.keys(lists) as Array<keyof PlanLists>) {
    const file = PLAN_LIST_FILE[key];
    lists[key] = fold(lists[key], CATEGORY_FILES[file].file, before[file], key === 'done' ? 'Done' : undefined);
  }
  orphanLines.clear();
  for (const line of lists.facts) if (orphanKeys.has(sameStatementKey(line))) orphanLines.add(line);

  for (const [file, entry] of notes) {
    const current = readTextLossless(path.join(paths.root, file));
    entry.lines = fold(entry.lines, file, current === undefined ? undefined : parseNoteFile(current).body);
    if (entry.lines.length === 0) notes.delete(file);
  }
  return counts;
}

/**
 * The three-way merge of a day's journal (journalFormat.ts): the union of both sides' bullets per
 * source and category (ours's order, then what only theirs has), less a bullet one side took out
 * (an undone harvest) that the other left; the summary is ours, theirs when only theirs changed
 * it, and both (ours first) when both wrote a different one. The file is re-rendered, as every
 * journal write does.
 */
import { parseJournal, renderJournal, type Journal } from '../journalFormat';
import { withoutConflictMarkers } from './conflictMarkers';

function bulletKeys(journal: Journal): Set<string> {
  const keys = new Set<string>();
  for (const [source, categories] of journal.sources)
    for (const [category, bullets] of categories) for (const b of bullets) keys.add(`${source}\u0000${category}\u0000${b}`);
  return keys;
}

const sameLines = (a: readonly string[], b: readonly string[]) => a.join('\n') === b.join('\n');

/** Three-way merge of the journal of `date` (see the module comment). */
export function mergeJournalTexts(date: string, base: string, ours: string, theirs: string): string {
  const [b, o, t] = [base, ours, theirs].map((text) => parseJournal(date, withoutConflictMarkers(text)));
  const [inBase, inOurs, inTheirs] = [b, o, t].map(bulletKeys);
  const removed = new Set([...inBase].filter((k) => !inOurs.has(k) || !inTheirs.has(k)));
  const merged: Journal = { date, summary: mergeSummary(b.summary, o.summary, t.summary), sources: new Map() };
  for (const side of [o, t]) {
    for (const [source, categories] of side.sources) {
      const into = merged.sources.get(source) ?? new Map<string, string[]>();
      merged.sources.set(source, into);
      for (const [category, bullets] of categories) {
        const list = into.get(category) ?? [];
        into.set(category, list);
        for (const bullet of bullets) {
          if (!removed.has(`${source}\u0000${category}\u0000${bullet}`) && !list.includes(bullet)) list.push(bullet);
        }
      }
    }
  }
  for (const [source, categories] of merged.sources) {
    for (const [category, bullets] of categories) if (!bullets.length) categories.delete(category);
    if (!categories.size) merged.sources.delete(source);
  }
  return renderJournal(merged);
}

function mergeSummary(base: string[], ours: string[], theirs: string[]): string[] {
  if (sameLines(ours, theirs) || sameLines(base, theirs) || !theirs.length) return ours;
  if (sameLines(base, ours) || !ours.length) return theirs;
  return [...ours, '', ...theirs];
}

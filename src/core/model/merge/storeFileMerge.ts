/**
 * What git's merge driver does with one store file (`lore merge-driver`, registered by
 * store/history/mergeDriver.ts): the file's kind from its path, then the merge by meaning of that
 * kind (design.md, "A team shares the store through git"):
 *
 * - ledger.json: ledgerMerge.ts; journal/YYYY-MM-DD.md: journalMerge.ts; files/*.md:
 *   noteFileMerge.ts; every other markdown file of the store (category files, archive/knowledge/,
 *   review.md): itemFileMerge.ts.
 * - digest.md is derived: ours is kept and the store's reconcile regenerates it after the merge
 *   (store/reconcile.ts); it is never merged by hand.
 *
 * A markdown merge that fails for any reason falls back to a union of lines (ours, then the lines
 * only theirs has), without conflict markers: never a lost line, never a marker. Only a ledger
 * that cannot be read on one side is given back to git as a conflict.
 */
import { mergeJournalTexts } from './journalMerge';
import { mergeLedgerTexts } from './ledgerMerge';
import { mergeNoteFile } from './noteFileMerge';
import { mergeItemFile } from './itemFileMerge';
import { withoutConflictMarkers } from './conflictMarkers';

export type StoreFileKind = 'ledger' | 'journal' | 'note' | 'derived' | 'items';

/** The kind of a store file from its path (repository- or store-relative, `/` or `\`). */
export function storeFileKind(file: string): StoreFileKind {
  const parts = file.split(/[\\/]/);
  const name = parts[parts.length - 1];
  const folder = parts[parts.length - 2];
  if (name === 'ledger.json') return 'ledger';
  if (name === 'digest.md') return 'derived';
  if (folder === 'journal' && /^\d{4}-\d{2}-\d{2}\.md$/.test(name)) return 'journal';
  if (folder === 'files' && parts[parts.length - 3] !== 'knowledge') return 'note';
  return 'items';
}

export type StoreFileMerge = { text: string; kind: StoreFileKind; fallback?: true } | { problem: string };

/** Ours, then each line only theirs has (markers of an earlier conflict dropped): the fallback that loses nothing. */
export function lineUnion(ours: string, theirs: string): string {
  const o = withoutConflictMarkers(ours);
  const have = new Set(o.split(/\r?\n/));
  const more = withoutConflictMarkers(theirs)
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '' && !have.has(l));
  if (!more.length) return o;
  const eol = o.includes('\r\n') ? '\r\n' : '\n';
  return (o === '' || o.endsWith('\n') ? o : o + eol) + more.join(eol) + eol;
}

/** Merges ancestor, ours and theirs of the store file at `file` (see the module comment). */
export function mergeStoreFile(file: string, base: string, ours: string, theirs: string): StoreFileMerge {
  const kind = storeFileKind(file);
  if (kind === 'ledger') {
    const text = mergeLedgerTexts(base, ours, theirs);
    return text === undefined ? { problem: 'ours or theirs is not a valid ledger' } : { text, kind };
  }
  try {
    if (kind === 'derived') return { text: withoutConflictMarkers(ours), kind };
    if (kind === 'journal') {
      const date = /(\d{4}-\d{2}-\d{2})\.md$/.exec(file)![1];
      return { text: mergeJournalTexts(date, base, ours, theirs), kind };
    }
    if (kind === 'note') return { text: mergeNoteFile(base, ours, theirs), kind };
    return { text: mergeItemFile(base, ours, theirs), kind };
  } catch {
    return { text: lineUnion(ours, theirs), kind, fallback: true };
  }
}

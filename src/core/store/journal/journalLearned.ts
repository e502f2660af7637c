/**
 * The day's journal for writes outside a harvest apply: a review accept, an agent's write applied
 * directly, a person's note (`lore note`, Add Note in VS Code). Each merges what it taught into
 * `journal/YYYY-MM-DD.md` (the day of the write, UTC like provenance dates) through the same
 * merge a harvest uses, with a guarded atomic write; the caller holds the store lock.
 *
 * Not journaled, on purpose: a forget or a rejection (nothing learned), an in-place accept (the
 * line was in its file already), lore tidy (merges and supersessions restate items the journal
 * has from when they were learned), the language server's note upkeep (renames, marks
 * still valid).
 */
import * as path from 'node:path';
import { CATEGORY_FILES, type CategoryFileKey } from '../../model/categories';
import { withoutBullet } from '../../model/itemLines';
import { parseProvenance, stripProvenance, toIsoDate } from '../../model/provenance';
import { editStoreFile } from '../../base/storeText';
import { resolveInStore, type StorePaths } from '../storePaths';
import { journalFile, mergeEntries, parseJournal, renderJournal, type JournalEntry } from '../../model/journalFormat';
import { mkdirNoFollow } from '../../base/storeLinks';

/** Where a line goes, as the journal names its category. */
export interface JournalPlace {
  /** Store-relative file: a category file or a note file. */
  file: string;
  /** For tasks.md: the section. */
  section?: 'open' | 'done';
  /** For a note file: the workspace path the notes are about. */
  notedPath?: string;
}

/** The journal's category heading for a place: `Facts`, `Open tasks`, `Done tasks`, `Notes on src/a.ts`. */
export function journalCategory(place: JournalPlace): string {
  if (place.file === CATEGORY_FILES.tasks.file) return place.section === 'done' ? 'Done tasks' : 'Open tasks';
  const key = (Object.keys(CATEGORY_FILES) as CategoryFileKey[]).find((k) => CATEGORY_FILES[k].file === place.file);
  if (key) return CATEGORY_FILES[key].title;
  if (place.notedPath !== undefined) return `Notes on ${place.notedPath.replace(/\s+/g, ' ')}`;
  return path.basename(place.file, '.md');
}

/**
 * The journal entry of an item line: its text without bullet and provenance, under `category`,
 * from `source` (default: the source its provenance names, else `unknown`).
 */
export function journalEntryOf(line: string, category: string, source?: string): JournalEntry {
  return { source: source ?? parseProvenance(line)?.source ?? 'unknown', category, text: withoutBullet(stripProvenance(line)).trim() };
}

/**
 * Merges `entries` into the journal of the day of `now`; returns the store-relative journal file
 * when it changed (nothing new: undefined). The caller holds the store lock.
 */
export function journalLearned(paths: StorePaths, entries: readonly JournalEntry[], now = new Date()): string | undefined {
  if (entries.length === 0) return undefined;
  const date = toIsoDate(now);
  const file = journalFile(date);
  const absolute = resolveInStore(paths, file);
  mkdirNoFollow(path.dirname(absolute));
  return editStoreFile(absolute, (current) => renderJournal(mergeEntries(parseJournal(date, current), entries))) ? file : undefined;
}

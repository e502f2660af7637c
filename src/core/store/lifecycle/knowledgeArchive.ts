/**
 * The knowledge archive (Autopoiesis §8.6): items that decayed leave their category file for
 * `archive/knowledge/<category>.md`, one file per category in the same line shapes (tasks keep
 * their Open and Done sections), so a person can read and edit them like the live files and an
 * archived line keeps its id. Nothing there reaches the digest, a compiled context, a hook or the
 * search index (sourceFiles.ts skips the folder); `lore search --archived` reads it on request.
 *
 * Moves are crash-safe without a journal: the archive gets its lines first, then the live file
 * loses them; a crash in between leaves an item in both, and the next move or restore (both skip
 * lines already present) finishes the job. Every edit goes through the guarded replace (people
 * edit these files too); the caller holds the store lock.
 */
import * as path from 'node:path';
import { lockStoreForApply } from '../changes/applyPlan';
import { CATEGORY_FILES, type CategoryFileKey } from '../../model/categories';
import { appendItems, insertTasks, listItems, removeItems, type KnowledgeItem } from '../../model/categoryFile';
import { listItemId } from '../../model/itemId';
import { isDoneSection } from '../../model/itemKinds';
import { lineIdentity, renderItemLine, withoutBullet } from '../../model/itemLines';
import { stripProvenance } from '../../model/provenance';
import { removeStaleTempFiles } from '../../base/atomicWrite';
import { recoverStaleAsides } from '../../base/guardedReplace';
import type { StoreLock } from '../../base/storeLock';
import { editStoreFile } from '../../base/storeText';
import { readTextLossless } from '../../base/readText';
import { storeRelative, type StorePaths } from '../storePaths';
import { archiveFileOf, knowledgeArchiveDir } from './archivePaths';
import { mkdirNoFollow } from '../../base/storeLinks';

/**
 * The store lock for moves into and out of the archive: the harvest's (which first cleans up
 * what a crashed writer left in the store and files/), and the same for the archive's folder.
 */
export async function lockForArchiveMoves(paths: StorePaths, lockTimeoutMs = 15_000): Promise<StoreLock> {
  const lock = await lockStoreForApply(paths, lockTimeoutMs);
  try {
    removeStaleTempFiles(knowledgeArchiveDir(paths));
    recoverStaleAsides(knowledgeArchiveDir(paths));
  } catch (error) {
    lock.release();
    throw error;
  }
  return lock;
}

/** An item of a category file (live or archived), as moves need it. */
export interface StoreItem {
  id: string;
  category: CategoryFileKey;
  /** The item as one line: its first line, or its joined text when a person wrapped it. */
  line: string;
  /** Text without list marker and provenance. */
  text: string;
  /** tasks.md: whether it sits under `## Done`. */
  done?: boolean;
  /** Store-relative file it was read from. */
  file: string;
  item: KnowledgeItem;
}

/** The items of a category file's text. */
export function storeItemsOf(text: string | undefined, category: CategoryFileKey, file: string): StoreItem[] {
  if (!text) return [];
  return listItems(text).map((item) => ({
    id: listItemId(item),
    category,
    line: withoutBullet(item.raw).trim() === item.text ? item.raw.trimEnd() : renderItemLine(item.text),
    text: stripProvenance(item.text),
    ...(category === 'tasks' ? { done: isDoneSection(item.section) } : {}),
    file,
    item,
  }));
}

/** Every item of the live category files. */
export function liveItems(paths: StorePaths): StoreItem[] {
  return (Object.keys(CATEGORY_FILES) as CategoryFileKey[]).flatMap((key) =>
    storeItemsOf(readTextLossless(path.join(paths.root, CATEGORY_FILES[key].file)), key, CATEGORY_FILES[key].file),
  );
}

/** Every archived item. */
export function archivedItems(paths: StorePaths): StoreItem[] {
  return (Object.keys(CATEGORY_FILES) as CategoryFileKey[]).flatMap((key) => {
    const file = archiveFileOf(paths, key);
    return storeItemsOf(readTextLossless(file), key, storeRelative(paths, file));
  });
}

/** Adds lines to a category-shaped file (live or archive), tasks by section; lines already there are skipped. */
export function addItemLines(file: string, category: CategoryFileKey, title: string, items: readonly StoreItem[]): void {
  if (items.length === 0) return;
  mkdirNoFollow(path.dirname(file));
  editStoreFile(file, (text) => {
    // insertTasks heads a new file `# Tasks`; an archive file says what it is.
    const base = category === 'tasks' && !text?.trim() ? `# ${title}\n` : text;
    const next =
      category === 'tasks'
        ? insertTasks(
            base,
            items.filter((i) => !i.done).map((i) => i.line),
            items.filter((i) => i.done).map((i) => i.line),
          )
        : appendItems(
            base,
            title,
            items.map((i) => i.line),
          );
    return next === (base ?? '') ? undefined : next;
  });
}

function removeLines(file: string, items: readonly StoreItem[]): void {
  if (items.length === 0) return;
  const identities = new Set(items.map((i) => lineIdentity(i.item.raw)));
  editStoreFile(file, (text) => (text === undefined ? undefined : removeItems(text, identities)));
}

function byCategory(items: readonly StoreItem[]): Map<CategoryFileKey, StoreItem[]> {
  const out = new Map<CategoryFileKey, StoreItem[]>();
  for (const item of items) out.set(item.category, [...(out.get(item.category) ?? []), item]);
  return out;
}

/** Moves live items to the archive, category by category (caller holds the store lock). */
export function moveToArchive(paths: StorePaths, items: readonly StoreItem[]): void {
  for (const [category, group] of byCategory(items)) {
    addItemLines(archiveFileOf(paths, category), category, `Archived ${CATEGORY_FILES[category].title.toLowerCase()}`, group);
    removeLines(path.join(paths.root, CATEGORY_FILES[category].file), group);
  }
}

/** Moves archived items back to their category files (caller holds the store lock). */
export function restoreFromArchive(paths: StorePaths, items: readonly StoreItem[]): void {
  for (const [category, group] of byCategory(items)) {
    addItemLines(path.join(paths.root, CATEGORY_FILES[category].file), category, CATEGORY_FILES[category].title, group);
    removeLines(archiveFileOf(paths, category), group);
  }
}

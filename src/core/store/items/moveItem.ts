/**
 * Moving an item between the store's layers (personalLayer.ts): a shared item a person keeps to
 * themselves, or a personal one they share with the team. The line moves as it is, so the item
 * keeps its id and its provenance. It is written into the other layer's file first and removed
 * from its own after (a crash in between leaves it in both, never in neither; running the move
 * again finishes it). A note on a file is shared knowledge and does not move; a flagged item a
 * person accepted stays accepted in the layer it goes to.
 */
import * as path from 'node:path';
import { acquireStoreLock } from '../../base/storeLock';
import { editStoreFile } from '../../base/storeText';
import { CATEGORY_FILES, type CategoryFileKey } from '../../model/categories';
import {
  appendItems,
  freshItemLines,
  insertTasks,
  itemBlock,
  listItems,
  parseLines,
  removeItems,
  serializeLines,
  spliceLines,
} from '../../model/categoryFile';
import { readTextLossless } from '../../base/readText';
import { isItemId } from '../../model/itemId';
import { REVIEW_FILE } from '../../model/reviewFile';
import { lineIdentity } from '../../model/itemLines';
import { addAccepted } from '../../model/reviewFile';
import { regenerateDigest } from '../digest';
import { acceptedIdentities, acceptedIdentitiesIn, readReviewText } from '../heldItems';
import { ensureStoreLayout } from '../initStore';
import { loadStoreConfig } from '../storeConfig';
import { fileInLayer, personalFileName, personalStorePaths, type StoreLayer, type StorePaths } from '../storePaths';
import { recordStoreChange, type HistoryOutcome } from '../history/storeHistory';
import { findItemsById, type LocatedItem } from './itemLocator';

export type MoveItemResult =
  | { moved: true; id: string; from: string; to: string; line: string; history?: HistoryOutcome }
  | { moved: false; id: string; reason: string; places?: LocatedItem[]; unchanged?: boolean };

/** The category key of a file named in its layer (`facts.md`), if it is a category file. */
function categoryOf(fileInItsLayer: string): CategoryFileKey | undefined {
  return (Object.keys(CATEGORY_FILES) as CategoryFileKey[]).find((k) => CATEGORY_FILES[k].file === fileInItsLayer);
}

/** The lines that continue the item with line identity `identity` in `text` (indented lines under its first one). */
function continuationLines(text: string, identity: string): string[] {
  const item = listItems(text).find((i) => lineIdentity(i.raw) === identity);
  if (!item) return [];
  const doc = parseLines(text);
  return itemBlock(doc, item.line)
    .slice(1)
    .map((i) => doc.lines[i]);
}

/** `text` with `continued` put right under the item line `line` (just appended, so there once). */
function withContinuation(text: string, line: string, continued: string[]): string {
  const at = listItems(text).find((i) => lineIdentity(i.raw) === lineIdentity(line));
  if (!at) return text;
  const doc = parseLines(text);
  spliceLines(doc, at.line + 1, 0, continued);
  return serializeLines(doc);
}

/**
 * Moves the item whose first line is `line` from category file `key` of layer `source` to the same
 * file of layer `target`, with the lines that continue it (a person's hand-wrapped detail), as it
 * is: written where it goes first (once: a re-run after a crash finds it there), then removed where
 * it was. A task goes to its section (`done`). The caller holds the store lock.
 */
export function moveLine(source: StorePaths, target: StorePaths, key: CategoryFileKey, line: string, done: boolean): void {
  const file = CATEGORY_FILES[key].file;
  ensureStoreLayout(target);
  const continued = continuationLines(readTextLossless(path.join(source.root, file)) ?? '', lineIdentity(line));
  editStoreFile(path.join(target.root, file), (text) => {
    if (freshItemLines(text, [line]).length === 0) return undefined;
    const added =
      key !== 'tasks'
        ? appendItems(text, CATEGORY_FILES[key].title, [line])
        : done
          ? insertTasks(text, [], [line])
          : insertTasks(text, [line], []);
    return continued.length ? withContinuation(added, line, continued) : added;
  });
  editStoreFile(path.join(source.root, file), (text) =>
    text === undefined ? undefined : removeItems(text, new Set([lineIdentity(line)])),
  );
}

/**
 * Moves item `id` to layer `to` (under the store lock). `file` picks one place when the same line
 * is written in several. Refused for notes, unknown ids, and an item already in that layer.
 */
export async function moveItem(
  paths: StorePaths,
  id: string,
  to: StoreLayer,
  options: { file?: string; lockTimeoutMs?: number } = {},
): Promise<MoveItemResult> {
  const wanted = id.trim().toLowerCase();
  if (!isItemId(wanted)) return { moved: false, id, reason: `"${id}" is not an item id (8 characters, as replies name them)` };
  const lock = await acquireStoreLock(paths.root, options.lockTimeoutMs);
  try {
    const places = findItemsById(paths, wanted).filter((p) => !options.file || p.file === options.file);
    if (places.length === 0) return { moved: false, id: wanted, reason: `no item ${wanted}${options.file ? ` in ${options.file}` : ''}` };
    if (places.every((p) => p.layer === to))
      return {
        moved: false,
        id: wanted,
        unchanged: true,
        reason: `item ${wanted} is already ${to === 'personal' ? 'personal' : 'shared'}`,
      };
    const movable = places.filter((p) => p.layer !== to);
    if (movable.length > 1)
      return {
        moved: false,
        id: wanted,
        places: movable,
        reason: `item ${wanted} is written in ${movable.length} places (${movable.map((p) => `${p.file}:${p.line}`).join(', ')}); name the file`,
      };
    const item = movable[0];
    const key = categoryOf(fileInLayer(item.file));
    if (item.kind === 'note' || !key)
      return {
        moved: false,
        id: wanted,
        reason: `item ${wanted} is a note on ${item.notedPath ?? 'a file'}: notes on files are shared knowledge`,
      };
    const personal = personalStorePaths(paths);
    const source = item.layer === 'personal' ? personal : paths;
    const target = to === 'personal' ? personal : paths;
    const line = item.raw.trim();
    const file = CATEGORY_FILES[key].file;
    // A flagged item the person accepted stays let through in the layer it goes to.
    if (acceptedIdentities(source).has(lineIdentity(line)) && !acceptedIdentitiesIn(readReviewText(target)).has(lineIdentity(line)))
      editStoreFile(path.join(target.root, REVIEW_FILE), (text) => addAccepted(text ?? '', [line]));
    moveLine(source, target, key, line, item.kind === 'done_task');
    regenerateDigest(paths, { enabled: loadStoreConfig(paths.config).config.digestEnabled, automatic: true });
    const to_ = to === 'personal' ? personalFileName(file) : file;
    // The commit names the item and says where it went; a line going personal is not quoted.
    const history = await recordStoreChange(paths, {
      type: 'memory',
      subject: `move ${wanted} to ${to === 'personal' ? 'the personal layer' : 'the shared store'}`,
      body: to === 'shared' ? [`Item ${wanted}: ${line.slice(0, 200)}`] : [],
    });
    return { moved: true, id: wanted, from: item.file, to: to_, line, ...(history ? { history } : {}) };
  } finally {
    lock.release();
  }
}

/**
 * A person's supersession (`lore supersede OLD NEW`, VS Code's "Supersede…"): two items already in
 * the store, named by id; the older is marked `[superseded by NEW, today]` where it stands and
 * leaves the digest, the context and default search. As a person's decision it is written at
 * once (no review queue), under the store lock, through the guarded replace.
 */
import { regenerateDigest } from '../digest';
import { ensureStoreLayout } from '../initStore';
import { loadStoreConfig } from '../storeConfig';
import { acquireStoreLock } from '../../base/storeLock';
import { editStoreFile } from '../../base/storeText';
import { resolveInStore, type StorePaths } from '../storePaths';
import { isItemId } from '../../model/itemId';
import { markItemSuperseded } from '../../model/itemEdits';
import { lineIdentity } from '../../model/itemLines';
import { findItemsById, type LocatedItem } from './itemLocator';
import { toIsoDate } from '../../model/provenance';

export interface SupersedeByHandResult {
  status: 'recorded' | 'unchanged' | 'refused' | 'not-found' | 'ambiguous';
  reason?: string;
  /** The old item as it was, and the line it now reads. */
  old?: LocatedItem;
  line?: string;
  by?: LocatedItem;
}

/** Marks item `oldId` superseded by item `newId` (`file`: the old item's file, when it is in several). */
export async function supersedeByHand(
  paths: StorePaths,
  oldId: string,
  newId: string,
  options: { today?: Date; file?: string; lockTimeoutMs?: number } = {},
): Promise<SupersedeByHandResult> {
  const [oldKey, newKey] = [oldId, newId].map((id) => id.trim().toLowerCase());
  for (const id of [oldKey, newKey]) if (!isItemId(id)) return { status: 'refused', reason: `"${id}" is not an item id (8 characters)` };
  if (oldKey === newKey) return { status: 'refused', reason: 'an item cannot supersede itself' };
  ensureStoreLayout(paths);
  const lock = await acquireStoreLock(paths.root, options.lockTimeoutMs ?? 15_000);
  try {
    const olds = findItemsById(paths, oldKey).filter((p) => !options.file || p.file === options.file);
    if (olds.length === 0) return { status: 'not-found', reason: `no item ${oldKey}${options.file ? ` in ${options.file}` : ''}` };
    if (olds.length > 1)
      return {
        status: 'ambiguous',
        reason: `item ${oldKey} is written in ${olds.map((p) => `${p.file}:${p.line}`).join(', ')}; name the file`,
      };
    const by = findItemsById(paths, newKey)[0];
    if (!by) return { status: 'not-found', reason: `no item ${newKey}: the newer item must be in the store` };
    if (by.supersededBy === oldKey) return { status: 'refused', reason: `${newKey} is itself superseded by ${oldKey}` };
    const old = olds[0];
    const date = toIsoDate(options.today ?? new Date());
    if (old.supersededBy === newKey) return { status: 'unchanged', old, by, line: old.raw, reason: `already superseded by ${newKey}` };
    let line: string | undefined;
    const changed = editStoreFile(resolveInStore(paths, old.file), (text) => {
      const next = text === undefined ? undefined : markItemSuperseded(text, lineIdentity(old.raw), newKey, date);
      line = next?.split(/\r?\n/)[old.line - 1];
      return next;
    });
    if (!changed) return { status: 'not-found', old, reason: `item ${oldKey} is no longer in ${old.file}` };
    regenerateDigest(paths, { enabled: loadStoreConfig(paths.config).config.digestEnabled, automatic: true });
    return { status: 'recorded', old, by, line };
  } finally {
    lock.release();
  }
}

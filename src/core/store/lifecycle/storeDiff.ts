/**
 * What a reconstructed store (reconstruct.ts) would change in the live one: per category file
 * and per noted file, the items that would appear, disappear or change. Items match by id
 * (itemId.ts: same text, same source); of the rest, an item that disappears and one that appears
 * in the same place from the same conversation, with mostly the same words, are one item changed.
 * `applyStoreDiff` takes the difference as a plan, like a harvest: what appears or changes is
 * written, what disappears or is replaced goes to the archive (never deleted); notes that would
 * disappear stay (the archive holds category items only).
 */
import * as path from 'node:path';
import { recordStoreChange } from '../history/storeHistory';
import { CATEGORY_FILES, type CategoryFileKey } from '../../model/categories';
import { listItemId } from '../../model/itemId';
import { renderItemLine } from '../../model/itemLines';
import { stripProvenance } from '../../model/provenance';
import { regenerateDigest } from '../digest';
import { addNotesToFile, listNoteFiles, resolveNoteTarget } from '../fileNotes';
import { loadStoreConfig } from '../storeConfig';
import type { StorePaths } from '../storePaths';
import { addItemLines, liveItems, lockForArchiveMoves, moveToArchive, type StoreItem } from './knowledgeArchive';
import { pushAll } from '../../base/bulkArrays';

/** Least share of words two items must have in common to count as one item changed. */
const CHANGED_SIMILARITY = 0.5;

/** One item in a diff. */
export interface DiffItem {
  id: string;
  line: string;
  text: string;
  source?: string;
}

/** The differences of one category file, or of the notes on one workspace file (`notes:<path>`). */
export interface DiffGroup {
  group: string;
  appear: DiffItem[];
  disappear: DiffItem[];
  change: Array<{ before: DiffItem; after: DiffItem; similarity: number }>;
  same: number;
}

export interface StoreDiff {
  groups: DiffGroup[];
  totals: { appear: number; disappear: number; change: number; same: number };
}

interface Sided {
  item: DiffItem;
  store?: StoreItem;
}

function diffItem(id: string, line: string, text: string, source: string | undefined): DiffItem {
  return { id, line, text: stripProvenance(text), ...(source ? { source } : {}) };
}

/** Every item of a store by group: category files, then the notes on each noted path. */
function groupsOf(paths: StorePaths): Map<string, Sided[]> {
  const groups = new Map<string, Sided[]>();
  const add = (group: string, sided: Sided) => groups.set(group, [...(groups.get(group) ?? []), sided]);
  for (const item of liveItems(paths))
    add(item.category, { item: diffItem(item.id, item.line, item.item.text, item.item.provenance?.source), store: item });
  for (const { note } of listNoteFiles(paths)) {
    for (const item of note.notes)
      add(`notes:${note.meta.path}`, { item: diffItem(listItemId(item), renderItemLine(item.text), item.text, item.provenance?.source) });
  }
  return groups;
}

function words(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length > 1),
  );
}

/** Shared words over all words (Jaccard). */
export function similarity(a: string, b: string): number {
  const x = words(a);
  const y = words(b);
  if (x.size === 0 && y.size === 0) return 1;
  let shared = 0;
  for (const w of x) if (y.has(w)) shared++;
  return shared / (x.size + y.size - shared);
}

/** The difference from `live` to `other`, group by group. */
export function diffStores(live: StorePaths, other: StorePaths): StoreDiff {
  const before = groupsOf(live);
  const after = groupsOf(other);
  const names = [...new Set([...before.keys(), ...after.keys()])].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  const groups: DiffGroup[] = [];
  for (const group of names) {
    const oldItems = dedupe(before.get(group) ?? []);
    const newItems = dedupe(after.get(group) ?? []);
    const newIds = new Set(newItems.map((s) => s.item.id));
    const oldIds = new Set(oldItems.map((s) => s.item.id));
    const gone = oldItems.filter((s) => !newIds.has(s.item.id)).map((s) => s.item);
    let come = newItems.filter((s) => !oldIds.has(s.item.id)).map((s) => s.item);
    const change: DiffGroup['change'] = [];
    const disappear: DiffItem[] = [];
    for (const old of gone) {
      let best: { item: DiffItem; score: number } | undefined;
      for (const candidate of come) {
        if (old.source && candidate.source && old.source !== candidate.source) continue;
        const score = similarity(old.text, candidate.text);
        if (score >= CHANGED_SIMILARITY && (!best || score > best.score)) best = { item: candidate, score };
      }
      if (!best) {
        disappear.push(old);
        continue;
      }
      change.push({ before: old, after: best.item, similarity: Math.round(best.score * 100) / 100 });
      come = come.filter((c) => c !== best!.item);
    }
    const same = oldItems.length - gone.length;
    if (come.length || disappear.length || change.length) groups.push({ group, appear: come, disappear, change, same });
    else if (same) groups.push({ group, appear: [], disappear: [], change: [], same });
  }
  const totals = { appear: 0, disappear: 0, change: 0, same: 0 };
  for (const g of groups) {
    totals.appear += g.appear.length;
    totals.disappear += g.disappear.length;
    totals.change += g.change.length;
    totals.same += g.same;
  }
  return { groups, totals };
}

/** Category files first, in their usual order, then notes. */
function rank(group: string): number {
  const keys = Object.keys(CATEGORY_FILES);
  return keys.includes(group) ? keys.indexOf(group) : keys.length;
}

function dedupe(items: Sided[]): Sided[] {
  const seen = new Set<string>();
  return items.filter((s) => !seen.has(s.item.id) && seen.add(s.item.id));
}

/** What an apply did. */
export interface AppliedDiff {
  diff: StoreDiff;
  added: number;
  archived: number;
  /** Notes that would disappear, left where they are. */
  notesKept: number;
  /** Notes whose file is no longer in the workspace, not written. */
  skipped: Array<{ path: string; reason: string }>;
}

/**
 * Applies the difference to the live store under its lock, decided again from the files as they
 * are then: appearing and changed items are added (tasks by section, notes to their file's note
 * file), disappearing and replaced category items move to the archive; the digest is regenerated.
 */
export async function applyStoreDiff(live: StorePaths, other: StorePaths, options: { lockTimeoutMs?: number } = {}): Promise<AppliedDiff> {
  const lock = await lockForArchiveMoves(live, options.lockTimeoutMs);
  try {
    const diff = diffStores(live, other);
    const otherItems = new Map(liveItems(other).map((i) => [i.id, i]));
    const liveById = new Map(liveItems(live).map((i) => [i.id, i]));
    const result: AppliedDiff = { diff, added: 0, archived: 0, notesKept: 0, skipped: [] };
    const toArchive: StoreItem[] = [];
    for (const group of diff.groups) {
      const adding = [...group.appear, ...group.change.map((c) => c.after)];
      const removing = [...group.disappear, ...group.change.map((c) => c.before)];
      if (group.group.startsWith('notes:')) {
        result.notesKept += removing.length;
        if (adding.length === 0) continue;
        const noted = group.group.slice('notes:'.length);
        const target = resolveNoteTarget(live, noted);
        if (target.kind === 'orphan') {
          result.skipped.push({ path: noted, reason: target.reason });
          continue;
        }
        addNotesToFile(
          live,
          target,
          adding.map((a) => a.line),
        );
        result.added += adding.length;
        continue;
      }
      const category = group.group as CategoryFileKey;
      const items = adding.map((a) => otherItems.get(a.id)).filter((i): i is StoreItem => i !== undefined);
      addItemLines(path.join(live.root, CATEGORY_FILES[category].file), category, CATEGORY_FILES[category].title, items);
      result.added += items.length;
      pushAll(
        toArchive,
        removing.map((r) => liveById.get(r.id)).filter((i): i is StoreItem => i !== undefined),
      );
    }
    moveToArchive(live, toArchive);
    result.archived = toArchive.length;
    regenerateDigest(live, { enabled: loadStoreConfig(live.config).config.digestEnabled, automatic: true });
    if (result.added || result.archived) {
      await recordStoreChange(live, {
        type: 'maintenance',
        subject: `reconstruction applied: ${result.added} item(s) written, ${result.archived} archived`,
        body: [`From: ${other.root}`],
      });
    }
    return result;
  } finally {
    lock.release();
  }
}

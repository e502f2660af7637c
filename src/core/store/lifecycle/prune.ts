/**
 * `lore prune`: which items decayed (decay.ts) or overflow their category's budget, proposed for
 * the archive (knowledgeArchive.ts) in a preview, moved there by an apply under the store lock,
 * and brought back one at a time by a restore. Nothing is deleted. Only the category files are
 * pruned: per-file notes are handed out only with their file, so they do not crowd anything.
 */
import * as fs from 'node:fs';
import { recordStoreChange } from '../history/storeHistory';
import { CATEGORY_FILES, type CategoryFileKey } from '../../model/categories';
import { toIsoDate } from '../../model/provenance';
import { supersededBy } from '../../model/supersession';
import { regenerateDigest } from '../digest';
import { loadStoreConfig } from '../storeConfig';
import type { StorePaths } from '../storePaths';
import { decayKey, selectForArchive, type ArchiveReason, type DecayItem } from './decay';
import { archivedItems, liveItems, lockForArchiveMoves, moveToArchive, restoreFromArchive, type StoreItem } from './knowledgeArchive';
import { loadLifecycleConfig, type LifecycleConfig } from './lifecycleConfig';
import { currentUsage, foldUsage, type UsageSummary } from './usageSummary';
import { recordUses } from './usageLog';

const LOCK_TIMEOUT_MS = 15_000;

/** An item proposed for the archive, and why. */
export interface PruneCandidate {
  id: string;
  category: CategoryFileKey;
  file: string;
  line: string;
  reason: ArchiveReason;
  lastTouch: string;
  ageDays: number;
  weight: number;
  uses: number;
  lastUse?: string;
}

/** A category against its budget. */
export interface CategoryBudget {
  category: CategoryFileKey;
  items: number;
  budget: number;
  archived: number;
  proposed: number;
  /** Whether its items decay (false for the kept categories, superseded items aside). */
  decays: boolean;
}

export interface PrunePlan {
  today: string;
  /** The day usage records began: nothing is known of uses before it. */
  usageSince: string;
  config: LifecycleConfig;
  categories: CategoryBudget[];
  digest: { bytes: number; budget: number };
  candidates: PruneCandidate[];
  warnings: string[];
}

function decayItem(item: StoreItem): DecayItem {
  const prov = item.item.provenance;
  return {
    id: item.id,
    category: item.category,
    ...(prov?.validDate ? { date: prov.date } : {}),
    superseded: supersededBy(item.item.raw) !== undefined,
  };
}

function fileSize(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

function buildPlan(
  paths: StorePaths,
  live: StoreItem[],
  archived: StoreItem[],
  summary: UsageSummary,
  config: LifecycleConfig,
  today: string,
  warnings: string[],
): { plan: PrunePlan; items: StoreItem[] } {
  const chosen = selectForArchive(live.map(decayItem), summary, config, today);
  const moving = live.filter((item) => chosen.has(decayKey(item.category, item.id)));
  const seen = new Set<string>();
  const candidates: PruneCandidate[] = [];
  for (const item of moving) {
    const key = decayKey(item.category, item.id);
    if (seen.has(key)) continue;
    seen.add(key);
    const { decay, reason } = chosen.get(key)!;
    candidates.push({
      id: item.id,
      category: item.category,
      file: item.file,
      line: item.line,
      reason,
      lastTouch: decay.lastTouch,
      ageDays: decay.ageDays,
      weight: decay.weight,
      uses: decay.uses,
      ...(decay.lastUse ? { lastUse: decay.lastUse } : {}),
    });
  }
  const count = (list: ReadonlyArray<{ category: CategoryFileKey }>) => {
    const counts = new Map<CategoryFileKey, number>();
    for (const { category } of list) counts.set(category, (counts.get(category) ?? 0) + 1);
    return counts;
  };
  const [items, inArchive, proposed] = [count(live), count(archived), count(candidates)];
  const categories = (Object.keys(CATEGORY_FILES) as CategoryFileKey[]).map((category) => ({
    category,
    items: items.get(category) ?? 0,
    budget: config.budgets[category],
    archived: inArchive.get(category) ?? 0,
    proposed: proposed.get(category) ?? 0,
    decays: !config.keep.includes(category),
  }));
  return {
    plan: {
      today,
      usageSince: summary.since,
      config,
      categories,
      digest: { bytes: fileSize(paths.digest), budget: config.digestBytes },
      candidates,
      warnings,
    },
    items: moving,
  };
}

/** What a prune would archive today, without writing anything. */
export function previewPrune(paths: StorePaths, now = new Date()): PrunePlan {
  const { config, problem } = loadLifecycleConfig(paths);
  const live = liveItems(paths);
  const usage = currentUsage(
    paths,
    live.map((i) => i.id),
    now,
  );
  const warnings = [problem, usage.problem].filter((w): w is string => !!w);
  return buildPlan(paths, live, archivedItems(paths), usage.summary, config, toIsoDate(now), warnings).plan;
}

/**
 * Archives what the prune proposes, decided again under the store lock from the files as they
 * are then (what the preview showed, unless someone used or edited an item since), folds the
 * usage log into its summary, and regenerates the digest.
 */
export async function applyPrune(paths: StorePaths, options: { now?: Date; lockTimeoutMs?: number } = {}): Promise<PrunePlan> {
  const now = options.now ?? new Date();
  const lock = await lockForArchiveMoves(paths, options.lockTimeoutMs ?? LOCK_TIMEOUT_MS);
  try {
    const { config, problem } = loadLifecycleConfig(paths);
    const live = liveItems(paths);
    const archived = archivedItems(paths);
    const keep = new Set([...live, ...archived].map((i) => i.id));
    const usage = foldUsage(
      paths,
      live.map((i) => i.id),
      keep,
      now,
    );
    const warnings = [problem, usage.problem].filter((w): w is string => !!w);
    const { plan, items } = buildPlan(paths, live, archived, usage.summary, config, toIsoDate(now), warnings);
    if (items.length > 0) moveToArchive(paths, items);
    // Also when nothing moved: an apply killed after its moves left the digest listing them (written only when it changes).
    regenerateDigest(paths, { enabled: loadStoreConfig(paths.config).config.digestEnabled, automatic: true });
    if (items.length > 0)
      await recordStoreChange(paths, { type: 'maintenance', subject: `prune: ${items.length} unused item(s) archived` });
    return plan;
  } finally {
    lock.release();
  }
}

export type RestoreResult =
  | { status: 'restored'; item: { id: string; category: CategoryFileKey; line: string; file: string } }
  | { status: 'not-found' | 'unchanged'; reason: string };

/**
 * Brings one archived item back to its category file (an open task to Open, a done one to Done)
 * and records the restore as a use, so the next prune does not send it straight back.
 */
export async function restoreArchivedItem(
  paths: StorePaths,
  id: string,
  options: { now?: Date; lockTimeoutMs?: number } = {},
): Promise<RestoreResult> {
  const wanted = id.trim().toLowerCase();
  const lock = await lockForArchiveMoves(paths, options.lockTimeoutMs ?? LOCK_TIMEOUT_MS);
  try {
    const found = archivedItems(paths).filter((i) => i.id === wanted);
    if (found.length === 0) {
      const live = liveItems(paths).some((i) => i.id === wanted);
      return live
        ? { status: 'unchanged', reason: `item ${wanted} is not archived: it is in its category file` }
        : { status: 'not-found', reason: `no archived item ${wanted} (an edited item has a new id)` };
    }
    restoreFromArchive(paths, found);
    recordUses(paths, [wanted], 'restore', options.now);
    regenerateDigest(paths, { enabled: loadStoreConfig(paths.config).config.digestEnabled, automatic: true });
    await recordStoreChange(paths, { type: 'maintenance', subject: `prune: item ${wanted} restored from the archive` });
    const item = found[0];
    return {
      status: 'restored',
      item: { id: item.id, category: item.category, line: item.line, file: CATEGORY_FILES[item.category].file },
    };
  } finally {
    lock.release();
  }
}

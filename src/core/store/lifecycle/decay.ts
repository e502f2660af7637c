/**
 * Decay of knowledge items (Autopoiesis §8.5): an item's weight halves every half-life it goes
 * unused and unedited, counted from its last touch, the latest of its provenance date (the day
 * its conversation or its last update happened), its last use and the day its id was first seen
 * (usageSummary.ts). Items of the kept categories (decisions and playbooks by default) do not
 * decay unless superseded. Pure: the store is read by prune.ts.
 */
import type { CategoryFileKey } from '../../model/categories';
import type { LifecycleConfig } from './lifecycleConfig';
import type { UsageSummary } from './usageSummary';

const DAY_MS = 86_400_000;

/** What decay needs to know of an item. */
export interface DecayItem {
  id: string;
  category: CategoryFileKey;
  /** Its provenance date, when it has a valid one. */
  date?: string;
  superseded: boolean;
}

/** An item's decay as of a day. */
export interface ItemDecay {
  id: string;
  category: CategoryFileKey;
  /** The latest day it was written, edited or used (YYYY-MM-DD). */
  lastTouch: string;
  ageDays: number;
  /** 1 when touched today (or when it does not decay), halving every half-life. */
  weight: number;
  uses: number;
  lastUse?: string;
  decays: boolean;
}

/** Why an item is proposed for the archive. */
export type ArchiveReason = 'unused' | 'over-budget';

/** Day numbers of dates already parsed: a store's items share a few hundred dates. */
const dayNumbers = new Map<string, number>();

function dayNumber(date: string): number {
  let n = dayNumbers.get(date);
  if (n === undefined) {
    n = Math.round(Date.parse(`${date}T00:00:00Z`) / DAY_MS);
    if (dayNumbers.size > 10_000) dayNumbers.clear();
    dayNumbers.set(date, n);
  }
  return n;
}

/** Whole days from `from` to `to` (both YYYY-MM-DD), never negative. */
export function daysBetween(from: string, to: string): number {
  return Math.max(0, dayNumber(to) - dayNumber(from));
}

/**
 * The last touch of an item: never before the summary began (`since`), as nothing is known of its
 * use before then; its first sighting counts only when it came after that day (an edit).
 */
export function lastTouch(item: DecayItem, summary: UsageSummary): string {
  const usage = summary.items.get(item.id);
  const days = [summary.since];
  if (item.date) days.push(item.date);
  if (usage?.used) days.push(usage.used);
  if (usage && usage.seen > summary.since) days.push(usage.seen);
  return days.reduce((a, b) => (b > a ? b : a));
}

/** The decay of one item on `today` (YYYY-MM-DD). */
export function decayOf(item: DecayItem, summary: UsageSummary, config: LifecycleConfig, today: string): ItemDecay {
  const touched = lastTouch(item, summary);
  const ageDays = daysBetween(touched, today);
  const decays = item.superseded || !config.keep.includes(item.category);
  const usage = summary.items.get(item.id);
  return {
    id: item.id,
    category: item.category,
    lastTouch: touched,
    ageDays,
    weight: decays ? 0.5 ** (ageDays / config.halfLifeDays) : 1,
    uses: usage?.uses ?? 0,
    ...(usage?.used ? { lastUse: usage.used } : {}),
    decays,
  };
}

/** The key of an item in selectForArchive's answer: the same line may stand in two category files, and each decays by its own rules. */
export function decayKey(category: CategoryFileKey, id: string): string {
  return `${category}/${id}`;
}

/**
 * The items to archive (keyed by decayKey): every decaying item lighter than `archiveBelow`, then, in a category still
 * over its budget, the lightest decaying items unused for more than one half-life until it fits
 * (a fresh item is never archived for want of room: the budget waits).
 */
export function selectForArchive(
  items: readonly DecayItem[],
  summary: UsageSummary,
  config: LifecycleConfig,
  today: string,
): Map<string, { decay: ItemDecay; reason: ArchiveReason }> {
  const chosen = new Map<string, { decay: ItemDecay; reason: ArchiveReason }>();
  const byCategory = new Map<CategoryFileKey, ItemDecay[]>();
  for (const item of items) {
    const decay = decayOf(item, summary, config, today);
    const list = byCategory.get(item.category) ?? [];
    list.push(decay);
    byCategory.set(item.category, list);
  }
  for (const [category, decays] of byCategory) {
    const key = (d: ItemDecay) => decayKey(category, d.id);
    for (const d of decays) if (d.decays && d.weight < config.archiveBelow) chosen.set(key(d), { decay: d, reason: 'unused' });
    let over = decays.length - decays.filter((d) => chosen.has(key(d))).length - config.budgets[category];
    if (over <= 0) continue;
    const lightest = decays
      .filter((d) => d.decays && !chosen.has(key(d)) && d.weight < 0.5)
      .sort((a, b) => a.weight - b.weight || a.id.localeCompare(b.id));
    for (const d of lightest) {
      if (over-- <= 0) break;
      chosen.set(key(d), { decay: d, reason: 'over-budget' });
    }
  }
  return chosen;
}

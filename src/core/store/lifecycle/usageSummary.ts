/**
 * The usage log folded per item: when each item was last used, how often, and when Lore first saw
 * it. `seen` stands in for "last edited" without git: an edited line has a new id (itemId.ts), so
 * the day its id was first seen is the day of the edit, at the latest. Ids seen on the day the
 * summary began (`since`) were there before anyone looked, so that day says nothing about them.
 *
 * `.logs/usage-summary.json`, written atomically under the store lock by a prune (foldUsage);
 * read-only callers (a preview, a tooltip) merge the pending log lines in memory (currentUsage).
 * Deleting it restarts the clock: nothing decays for a half-life or two after, which errs on the
 * side of keeping.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { toIsoDate } from '../../model/provenance';
import { writeFileAtomic } from '../../base/atomicWrite';
import type { StorePaths } from '../storePaths';
import { describeSchemaIssue } from '../../base/schemaIssue';
import { logsDir, parseUseLines, usageLogFile, type UseRecord } from './usageLog';
import { mkdirNoFollow, removeNoFollow, renameNoFollow } from '../../base/storeLinks';
import { readStoreFile } from '../../base/readText';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const day = z.string().regex(DAY);
/**
 * The envelope is checked by zod; the entries, tens of thousands of them, by isItemUsage (zod took
 * about 50 ms for 23,000). An entry that is not well-formed is dropped: that item's clock restarts.
 */
const summarySchema = z.object({ version: z.literal(1), since: day, items: z.record(z.string(), z.unknown()) });

/** One item's usage. */
export interface ItemUsage {
  /** The last day it was used. */
  used?: string;
  uses: number;
  /** The first day Lore saw its id. */
  seen: string;
}

function isItemUsage(value: unknown): value is ItemUsage {
  if (!value || typeof value !== 'object') return false;
  const { used, uses, seen } = value as Record<string, unknown>;
  return (
    Number.isInteger(uses) &&
    (uses as number) >= 0 &&
    typeof seen === 'string' &&
    DAY.test(seen) &&
    (used === undefined || (typeof used === 'string' && DAY.test(used)))
  );
}
/** The summary in memory: a Map (a store holds tens of thousands of ids; an object that large is slow to grow). */
export interface UsageSummary {
  version: 1;
  since: string;
  items: Map<string, ItemUsage>;
}

/** The summary file of a store. */
export function usageSummaryFile(paths: StorePaths): string {
  return path.join(logsDir(paths), 'usage-summary.json');
}

/** A summary that starts today. */
export function emptySummary(now: Date): UsageSummary {
  return { version: 1, since: toIsoDate(now), items: new Map() };
}

/** The summary on disk; a missing one is undefined, a damaged one too, with the reason. */
export function readUsageSummary(paths: StorePaths): { summary?: UsageSummary; problem?: string } {
  let text: string;
  try {
    text = readStoreFile(usageSummaryFile(paths), 'utf8');
  } catch {
    return {};
  }
  try {
    const parsed = summarySchema.safeParse(JSON.parse(text));
    if (!parsed.success)
      return { problem: `${usageSummaryFile(paths)}: ${describeSchemaIssue(parsed.error)}; usage starts again from today` };
    const items = new Map<string, ItemUsage>();
    for (const [id, usage] of Object.entries(parsed.data.items)) {
      if (isItemUsage(usage)) items.set(id, { uses: usage.uses, seen: usage.seen, ...(usage.used ? { used: usage.used } : {}) });
    }
    return { summary: { version: 1, since: parsed.data.since, items } };
  } catch (error) {
    return { problem: `${usageSummaryFile(paths)} is not valid JSON (${(error as Error).message}); usage starts again from today` };
  }
}

/** Log files not folded yet: the rotated one, the current one, and any left aside by a fold that crashed. */
function pendingLogs(paths: StorePaths): string[] {
  const dir = logsDir(paths);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const aside = names.filter((n) => /^usage\.folding\.\d+$/.test(n)).sort();
  const current = ['usage.log.1', 'usage.log'].filter((n) => names.includes(n));
  return [...aside, ...current].map((n) => path.join(dir, n));
}

function readUses(files: string[]): UseRecord[] {
  return files.flatMap((file) => {
    try {
      return parseUseLines(readStoreFile(file, 'utf8'));
    } catch {
      return []; // Rotated away meanwhile: its lines are in the other file.
    }
  });
}

/** Adds uses to the summary (in place). A use of an id not seen before also counts as seeing it. */
export function mergeUses(summary: UsageSummary, records: readonly UseRecord[]): void {
  for (const record of records) {
    for (const id of record.ids) {
      let entry = summary.items.get(id);
      if (!entry) summary.items.set(id, (entry = { uses: 0, seen: record.date < summary.since ? summary.since : record.date }));
      entry.uses += 1;
      if (!entry.used || entry.used < record.date) entry.used = record.date;
    }
  }
}

/** Records `today` as the first sighting of every id not in the summary yet (in place). */
export function noteSeen(summary: UsageSummary, ids: Iterable<string>, today: string): void {
  for (const id of ids) if (!summary.items.has(id)) summary.items.set(id, { uses: 0, seen: today });
}

/** The usage as of now, summary plus unfolded log lines, without writing anything. */
export function currentUsage(paths: StorePaths, liveIds: Iterable<string>, now: Date): { summary: UsageSummary; problem?: string } {
  const read = readUsageSummary(paths);
  const summary = read.summary ?? emptySummary(now);
  mergeUses(summary, readUses(pendingLogs(paths)));
  noteSeen(summary, liveIds, toIsoDate(now));
  return { summary, ...(read.problem ? { problem: read.problem } : {}) };
}

/**
 * Folds the log into the summary and writes it (the caller holds the store lock). The log files
 * are renamed aside first, so a hook appending meanwhile starts a new log instead of writing into
 * one about to be removed; a fold that crashes leaves them aside, and the next fold reads them
 * (uses counted twice at worst, last-use dates unchanged). Entries of ids found neither among
 * `keepIds` (the store's and the archive's items) are dropped, so the summary stays the store's size.
 */
export function foldUsage(
  paths: StorePaths,
  liveIds: Iterable<string>,
  keepIds: ReadonlySet<string>,
  now: Date,
): { summary: UsageSummary; problem?: string } {
  const dir = logsDir(paths);
  mkdirNoFollow(dir);
  let serial = Date.now();
  for (const file of [`${usageLogFile(paths)}.1`, usageLogFile(paths)]) {
    try {
      renameNoFollow(file, path.join(dir, `usage.folding.${serial++}`));
    } catch {
      // Not there.
    }
  }
  // Only the files set aside: a log a hook started since is left for the next fold.
  const files = pendingLogs(paths).filter((f) => path.basename(f).startsWith('usage.folding.'));
  const read = readUsageSummary(paths);
  const summary = read.summary ?? emptySummary(now);
  mergeUses(summary, readUses(files));
  noteSeen(summary, liveIds, toIsoDate(now));
  for (const id of summary.items.keys()) if (!keepIds.has(id)) summary.items.delete(id);
  const onDisk = {
    version: 1,
    since: summary.since,
    items: Object.fromEntries([...summary.items].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
  };
  writeFileAtomic(usageSummaryFile(paths), JSON.stringify(onDisk, null, 1) + '\n', { durable: false });
  for (const file of files) removeNoFollow(file, { force: true });
  return { summary, ...(read.problem ? { problem: read.problem } : {}) };
}

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
import { toIsoDate } from '../knowledge/provenance';
import { writeFileAtomic } from '../store/atomicWrite';
import type { StorePaths } from '../store/storePaths';
import { describeSchemaIssue } from '../util/schemaIssue';
import { logsDir, parseUseLines, usageLogFile, type UseRecord } from './usageLog';

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const itemUsageSchema = z.object({ used: day.optional(), uses: z.number().int().min(0), seen: day });
const summarySchema = z.object({ version: z.literal(1), since: day, items: z.record(z.string(), itemUsageSchema) });

export type ItemUsage = z.infer<typeof itemUsageSchema>;
export type UsageSummary = z.infer<typeof summarySchema>;

/** The summary file of a store. */
export function usageSummaryFile(paths: StorePaths): string {
  return path.join(logsDir(paths), 'usage-summary.json');
}

/** A summary that starts today. */
export function emptySummary(now: Date): UsageSummary {
  return { version: 1, since: toIsoDate(now), items: {} };
}

/** The summary on disk; a missing one is undefined, a damaged one too, with the reason. */
export function readUsageSummary(paths: StorePaths): { summary?: UsageSummary; problem?: string } {
  let text: string;
  try {
    text = fs.readFileSync(usageSummaryFile(paths), 'utf8');
  } catch {
    return {};
  }
  try {
    const parsed = summarySchema.safeParse(JSON.parse(text));
    return parsed.success ? { summary: parsed.data } : { problem: `${usageSummaryFile(paths)}: ${describeSchemaIssue(parsed.error)}; usage starts again from today` };
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
      return parseUseLines(fs.readFileSync(file, 'utf8'));
    } catch {
      return []; // Rotated away meanwhile: its lines are in the other file.
    }
  });
}

/** Adds uses to the summary (in place). A use of an id not seen before also counts as seeing it. */
export function mergeUses(summary: UsageSummary, records: readonly UseRecord[]): void {
  for (const record of records) {
    for (const id of record.ids) {
      const entry = (summary.items[id] ??= { uses: 0, seen: record.date < summary.since ? summary.since : record.date });
      entry.uses += 1;
      if (!entry.used || entry.used < record.date) entry.used = record.date;
    }
  }
}

/** Records `today` as the first sighting of every id not in the summary yet (in place). */
export function noteSeen(summary: UsageSummary, ids: Iterable<string>, today: string): void {
  for (const id of ids) summary.items[id] ??= { uses: 0, seen: today };
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
export function foldUsage(paths: StorePaths, liveIds: Iterable<string>, keepIds: ReadonlySet<string>, now: Date): { summary: UsageSummary; problem?: string } {
  const dir = logsDir(paths);
  fs.mkdirSync(dir, { recursive: true });
  let serial = Date.now();
  for (const file of [`${usageLogFile(paths)}.1`, usageLogFile(paths)]) {
    try {
      fs.renameSync(file, path.join(dir, `usage.folding.${serial++}`));
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
  for (const id of Object.keys(summary.items)) if (!keepIds.has(id)) delete summary.items[id];
  const sorted: UsageSummary = { ...summary, items: Object.fromEntries(Object.entries(summary.items).sort(([a], [b]) => a.localeCompare(b))) };
  writeFileAtomic(usageSummaryFile(paths), JSON.stringify(sorted, null, 1) + '\n', { durable: false });
  for (const file of files) fs.rmSync(file, { force: true });
  return { summary: sorted, ...(read.problem ? { problem: read.problem } : {}) };
}

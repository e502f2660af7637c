/**
 * What Lore spent on model calls, one JSON line per call, appended to
 * `<store>/.logs/spending.jsonl` as soon as the call ends (older logs hold one line per run and
 * model; both read the same): git-ignored with `.logs/`, so it is this machine's record and a team
 * never commits or merges it. A run killed halfway keeps the calls it paid for, and the caps
 * (budget.ts) read the log right before each call, so two processes see each other's spending.
 * Lines are appended with one write each (O_APPEND), so concurrent runs never tear a line; past
 * SPENDING_LOG_MAX_BYTES the file moves to `spending.jsonl.1` (many thousand calls, far more than
 * a month holds) and both are read. `lore cost` sums these lines; the offline extractor writes none.
 */
import * as path from 'node:path';
import { appendCapped, readCappedLines } from '../../store/cappedLog';
import type { StorePaths } from '../../store/storePaths';

export const SPENDING_LOG_MAX_BYTES = 1024 * 1024;

/** Where a harvest was started from, as `lore cost` lists runs. */
export type SpendingVia = 'cli' | 'vscode' | 'scheduled';

/** What a model call served: a harvest, `lore journal --summarize`, `lore tidy --provider`, @lore chat. */
export const SPENDING_TASKS = ['harvest', 'journal', 'tidy', 'chat'] as const;
export type SpendingTask = (typeof SPENDING_TASKS)[number];

/** One model call (or, in older logs, one run's calls to one model). */
export interface SpendingRecord {
  /** When the call ended (ISO time). */
  at: string;
  /** Names the run: every call of one harvest, summary or tidy carries its id. */
  run: string;
  /** What the call served; absent in older logs, which only harvests wrote. */
  task?: SpendingTask;
  /** The provider's registry name: openai, anthropic, gemini, ollama, vscode-lm. */
  provider: string;
  /** The model the provider said answered ('' when none was named). */
  model: string;
  calls: number;
  /** Every prompt token, cached ones included. */
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** At list prices; absent when no price is known for the model (tokens only). */
  usd?: number;
  /** True when the provider reported no usage and the tokens were counted from the text (bytes / 4). */
  estimated?: boolean;
  /** Conversations whose cached reply was reused: they cost nothing. */
  reused?: number;
  via?: SpendingVia;
}

/** Sums of records. */
export interface SpendingTotals {
  /** Input plus output tokens: what the token caps count. */
  tokens: number;
  inputTokens: number;
  outputTokens: number;
  usd: number;
  /** Tokens of records without a price: their money is not in `usd`. */
  unpricedTokens: number;
  calls: number;
  runs: number;
}

export function spendingLogFile(paths: StorePaths): string {
  return path.join(paths.root, '.logs', 'spending.jsonl');
}

/** What a record's call served (older records: a harvest). */
export function taskOf(record: SpendingRecord): SpendingTask {
  return record.task ?? 'harvest';
}

/** Appends records. Throws what fs throws: a spend that cannot be recorded is worth saying. */
export function appendSpending(paths: StorePaths, records: readonly SpendingRecord[]): void {
  if (!records.length) return;
  appendCapped(spendingLogFile(paths), records.map((r) => JSON.stringify(r)).join('\n') + '\n', SPENDING_LOG_MAX_BYTES);
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

/** A line as a record, or undefined for a torn or hand-edited one. */
function recordOf(line: string): SpendingRecord | undefined {
  try {
    const r = JSON.parse(line) as Partial<SpendingRecord> | null;
    if (!r || typeof r.at !== 'string' || Number.isNaN(Date.parse(r.at)) || typeof r.provider !== 'string') return undefined;
    if (![r.calls, r.inputTokens, r.outputTokens].every(isCount)) return undefined;
    return {
      ...(r as SpendingRecord),
      model: typeof r.model === 'string' ? r.model : '',
      cacheReadTokens: isCount(r.cacheReadTokens) ? r.cacheReadTokens : 0,
      cacheWriteTokens: isCount(r.cacheWriteTokens) ? r.cacheWriteTokens : 0,
      ...(isCount(r.usd) ? { usd: r.usd } : { usd: undefined }),
      task: (SPENDING_TASKS as readonly unknown[]).includes(r.task) ? r.task : undefined,
    };
  } catch {
    return undefined;
  }
}

/** Every record of the log (the rotated file's first), oldest first. */
export function readSpending(paths: StorePaths): SpendingRecord[] {
  const records: SpendingRecord[] = [];
  for (const line of readCappedLines(spendingLogFile(paths))) {
    const record = recordOf(line);
    if (record) records.push(record);
  }
  return records;
}

export function emptyTotals(): SpendingTotals {
  return { tokens: 0, inputTokens: 0, outputTokens: 0, usd: 0, unpricedTokens: 0, calls: 0, runs: 0 };
}

/** The sums of records (runs counted by their id). */
export function totalsOf(records: readonly SpendingRecord[]): SpendingTotals {
  const totals = emptyTotals();
  const runs = new Set<string>();
  for (const r of records) {
    const tokens = r.inputTokens + r.outputTokens;
    totals.tokens += tokens;
    totals.inputTokens += r.inputTokens;
    totals.outputTokens += r.outputTokens;
    totals.calls += r.calls;
    if (r.usd === undefined) totals.unpricedTokens += tokens;
    else totals.usd += r.usd;
    runs.add(r.run);
  }
  totals.runs = runs.size;
  return totals;
}

/** Local midnight of `now`'s day: the daily caps start again then. */
export function startOfDay(now: Date): Date {
  return new Date(now.getFullYear(), now.getMonth(), now.getDate());
}

/** Local midnight of the first of `now`'s month: the monthly caps start again then. */
export function startOfMonth(now: Date): Date {
  return new Date(now.getFullYear(), now.getMonth(), 1);
}

/** The records at or after `start`. */
export function recordsSince(records: readonly SpendingRecord[], start: Date): SpendingRecord[] {
  const from = start.getTime();
  return records.filter((r) => Date.parse(r.at) >= from);
}

/** What was spent today and this month (local time), from the log. */
export function spentSoFar(paths: StorePaths, now: Date): { today: SpendingTotals; month: SpendingTotals } {
  const month = recordsSince(readSpending(paths), startOfMonth(now));
  return { today: totalsOf(recordsSince(month, startOfDay(now))), month: totalsOf(month) };
}

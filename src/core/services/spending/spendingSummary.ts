/**
 * What model calls cost, for the places a person looks (`lore cost`, `lore sources`, VS Code's
 * Ledger view): today and this month against the caps, this month by task (harvest, journal
 * summary, tidy) and by provider and model, and the last runs. Read from this machine's log
 * (spendingLog.ts); writes nothing.
 */
import type { BudgetCaps } from '../../model/storeConfigFormat';
import { loadStoreConfig } from '../../store/storeConfig';
import type { StorePaths } from '../../store/storePaths';
import { CONFIG_WHERE, resolveCaps, SETTINGS_WHERE, type ResolvedCaps } from './budget';
import {
  readSpending,
  recordsSince,
  startOfDay,
  startOfMonth,
  taskOf,
  totalsOf,
  type SpendingRecord,
  type SpendingTask,
  type SpendingTotals,
} from './spendingLog';

/** This month's calls of one model. */
export interface ModelSpending extends SpendingTotals {
  provider: string;
  model: string;
  /** Some of its tokens were counted from the text: the provider reported none. */
  estimated: boolean;
}

/** This month's calls for one task. */
export interface TaskSpending extends SpendingTotals {
  task: SpendingTask;
}

/** One run (a harvest, a journal summary, a tidy), its calls and models summed. */
export interface RunSpending {
  /** When its last call ended. */
  at: string;
  task: SpendingTask;
  provider: string;
  models: string[];
  tokens: number;
  /** Undefined when no model of the run had a price. */
  usd?: number;
  calls: number;
  reused: number;
  via?: string;
}

export interface SpendingSummary {
  today: SpendingTotals;
  month: SpendingTotals;
  caps: ResolvedCaps;
  byTask: TaskSpending[];
  byModel: ModelSpending[];
  /** The latest runs, newest first. */
  recent: RunSpending[];
}

/** How many runs the summary lists. */
const RECENT_RUNS = 10;

/** The spending summary of a store; `caps`: the caller's own settings' (VS Code), besides config.json's. */
export function spendingSummary(paths: StorePaths, now: Date, caps?: BudgetCaps): SpendingSummary {
  const records = readSpending(paths);
  const month = recordsSince(records, startOfMonth(now));
  const budget = loadStoreConfig(paths.config).config.budget;
  return {
    today: totalsOf(recordsSince(month, startOfDay(now))),
    month: totalsOf(month),
    caps: resolveCaps([
      { caps: budget, where: CONFIG_WHERE },
      { caps, where: SETTINGS_WHERE },
    ]),
    byTask: byTask(month),
    byModel: byModel(month),
    recent: recentRuns(records),
  };
}

function byTask(records: readonly SpendingRecord[]): TaskSpending[] {
  const groups = new Map<SpendingTask, SpendingRecord[]>();
  for (const r of records) if (r.calls > 0) groups.set(taskOf(r), [...(groups.get(taskOf(r)) ?? []), r]);
  return [...groups.entries()].map(([task, group]) => ({ task, ...totalsOf(group) })).sort((a, b) => b.tokens - a.tokens);
}

function byModel(records: readonly SpendingRecord[]): ModelSpending[] {
  const groups = new Map<string, SpendingRecord[]>();
  for (const r of records) {
    if (r.calls === 0) continue;
    const key = `${r.provider}\u0000${r.model}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  return [...groups.values()]
    .map((group) => ({
      provider: group[0].provider,
      model: group[0].model,
      estimated: group.some((r) => r.estimated),
      ...totalsOf(group),
    }))
    .sort((a, b) => b.tokens - a.tokens);
}

function recentRuns(records: readonly SpendingRecord[]): RunSpending[] {
  const runs = new Map<string, RunSpending>();
  for (const r of records) {
    const run = runs.get(r.run) ?? {
      at: r.at,
      task: taskOf(r),
      provider: r.provider,
      models: [],
      tokens: 0,
      calls: 0,
      reused: 0,
      ...(r.via ? { via: r.via } : {}),
    };
    if (r.at > run.at) run.at = r.at;
    if (r.model && !run.models.includes(r.model)) run.models.push(r.model);
    run.tokens += r.inputTokens + r.outputTokens;
    run.calls += r.calls;
    run.reused += r.reused ?? 0;
    if (r.usd !== undefined) run.usd = (run.usd ?? 0) + r.usd;
    runs.set(r.run, run);
  }
  return [...runs.values()].sort((a, b) => b.at.localeCompare(a.at)).slice(0, RECENT_RUNS);
}

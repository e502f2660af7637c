/**
 * What `<store>/config.json` holds, as types and defaults (no zod: every command reads these,
 * and the schema that checks a file, configSchema.ts, loads on first use).
 */
import type { PrivateMarkers } from './safety/privateSpans';

export type ReclaimMode = 'delete' | 'archive' | 'keep';

export const RECLAIM_MODES = ['delete', 'archive', 'keep'] as const satisfies readonly ReclaimMode[];

/** Where agents' writes (MCP `remember`, `change_item`) go: a person's queue first, or straight into the files. */
export type AgentWritesMode = 'pending' | 'direct';

export const AGENT_WRITES_MODES = ['pending', 'direct'] as const satisfies readonly AgentWritesMode[];

/** When Lore commits its own changes to the store's git repository (history/storeHistory.ts). */
export type GitCommitMode = 'off' | 'apply' | 'interval';

export const GIT_COMMIT_MODES = ['off', 'apply', 'interval'] as const satisfies readonly GitCommitMode[];

/** The `git` section of config.json. */
export interface GitHistoryConfig {
  /** Unset: `apply` when the store is its own repository, `off` inside a workspace's (see historyMode). */
  commit?: GitCommitMode;
  /** For `interval`: minutes between batched commits (30 by default, as the Autopoiesis spec's cadence). */
  intervalMinutes: number;
  /** Keep a tag `memory/daily/YYYY-MM-DD` on each day's last Lore commit. */
  dailyTags: boolean;
}

export const DEFAULT_GIT_HISTORY: GitHistoryConfig = { intervalMinutes: 30, dailyTags: false };

/** The agent tools whose sessions of the workspace a harvest reads by default (services/harvest/agentSources.ts). */
export type HarvestToolKey = 'claudeCode' | 'codex' | 'aider';

/** The `sources` section of config.json: what `lore harvest` reads without --from (the `lore.sources.*` settings in VS Code). */
export type SourceSwitches = { inbox: boolean } & Record<HarvestToolKey, boolean>;

export const DEFAULT_SOURCE_SWITCHES: SourceSwitches = { inbox: true, claudeCode: true, codex: true, aider: true };

/**
 * Spending caps of the harvest's model calls (services/spending/budget.ts): tokens and US dollars,
 * per harvest, per day and per calendar month (local time). Unset: no cap of that kind.
 */
export interface BudgetCaps {
  perHarvestTokens?: number;
  dailyTokens?: number;
  monthlyTokens?: number;
  perHarvestUsd?: number;
  dailyUsd?: number;
  monthlyUsd?: number;
}

export const BUDGET_CAP_KEYS = [
  'perHarvestTokens',
  'dailyTokens',
  'monthlyTokens',
  'perHarvestUsd',
  'dailyUsd',
  'monthlyUsd',
] as const satisfies readonly (keyof BudgetCaps)[];

/** A list price config.json gives a model (USD per million tokens), over the built-in table's. */
export interface ModelPriceOverride {
  input: number;
  output: number;
  /** Cached input; the input price when unset. */
  cacheRead?: number;
}

/** The `budget` section of config.json. */
export interface BudgetConfig extends BudgetCaps {
  /** By model id (a dated snapshot of it matches too, as in the built-in table). */
  prices?: Record<string, ModelPriceOverride>;
}

export interface StoreConfig {
  /** What happens to an inbox conversation after a proven harvest. */
  reclaim: ReclaimMode;
  /** When false the digest is not written (and an existing one is removed). */
  digestEnabled: boolean;
  /** When false a harvest keeps no rendered transcript in transcripts/ (config key `transcripts`). */
  transcripts: boolean;
  /** Agents' writes wait in review.md for a person (`pending`, the default) or go straight in (`direct`). */
  agentWrites: AgentWritesMode;
  /** `privateMarkers: {open, close}`: a marker pair around private text, besides `<private>` … `</private>`. */
  privateMarkers?: PrivateMarkers;
  /** `context.budgetTokens`: the token budget of compiled contexts (`lore context`); unset: the compiler's default. */
  contextBudgetTokens?: number;
  /** `git`: committing the store's changes to git. */
  git: GitHistoryConfig;
  /** `sources`: what a harvest reads when not told (each on unless set to false). */
  sources: SourceSwitches;
  /** `budget`: caps on what harvests spend, and model prices (absent: no caps). */
  budget?: BudgetConfig;
}

export const DEFAULT_STORE_CONFIG: StoreConfig = {
  reclaim: 'delete',
  digestEnabled: true,
  transcripts: true,
  agentWrites: 'pending',
  git: DEFAULT_GIT_HISTORY,
  sources: DEFAULT_SOURCE_SWITCHES,
};

/**
 * Optional per-store settings in `<store>/config.json`, so the CLI honours the same choices as
 * the VS Code settings (which pass them explicitly). Unknown keys are ignored; a malformed file
 * or a wrong field is reported (naming the file and the field), not fatal.
 */
import * as fs from 'node:fs';
import { privateMarkerList, type PrivateMarkers } from '../safety/privateSpans';

export type ReclaimMode = 'delete' | 'archive' | 'keep';
export const RECLAIM_MODES = ['delete', 'archive', 'keep'] as const satisfies readonly ReclaimMode[];

/** Where agents' writes (MCP `remember`, `update_item`, …) go: a person's queue first, or straight into the files. */
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
}

export const DEFAULT_STORE_CONFIG: StoreConfig = { reclaim: 'delete', digestEnabled: true, transcripts: true, agentWrites: 'pending', git: DEFAULT_GIT_HISTORY };

export interface LoadedConfig {
  config: StoreConfig;
  warning?: string;
}

export function loadStoreConfig(file: string): LoadedConfig {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return { config: { ...DEFAULT_STORE_CONFIG } };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text.replace(/^\ufeff/, ''));
  } catch (error) {
    return {
      config: { ...DEFAULT_STORE_CONFIG },
      warning: `${file} is not valid JSON (${(error as Error).message}); using defaults`,
    };
  }
  const { config, problem } = (require('./configSchema') as typeof import('./configSchema')).checkStoreConfig(raw);
  return problem ? { config, warning: `${file}: ${problem}; the default is used instead` } : { config };
}

/**
 * The private-span markers that hold for a store: the default pair and config.json's
 * `privateMarkers`, plus `extra` (a VS Code setting). A config file that cannot be read gives
 * the default pair, never none.
 */
export function storePrivateMarkers(configFile: string, extra?: PrivateMarkers): PrivateMarkers[] {
  const list = privateMarkerList(loadStoreConfig(configFile).config.privateMarkers);
  if (extra) for (const pair of privateMarkerList(extra).slice(1)) list.push(pair);
  return list;
}

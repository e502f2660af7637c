/**
 * Typed access to the `lore.*` settings, in one place. Every setting is declared with a scope
 * and a markdownDescription in package.json.
 */
import type { PrivateMarkers } from '../core/model/safety/privateSpans';
import * as vscode from 'vscode';
import {
  BUDGET_CAP_KEYS,
  DEFAULT_SOURCE_SWITCHES,
  type BudgetCaps,
  type GitCommitMode,
  type ReclaimMode,
} from '../core/model/storeConfigFormat';

export type StoreLocation = 'workspace' | 'global';
export type ProviderSetting = 'vscode-lm' | 'rules' | 'openai' | 'anthropic' | 'gemini' | 'ollama';
export type SearchBackendSetting = 'auto' | 'memory';
export type HarvestSchedule = 'off' | 'hourly' | 'daily';

export interface LoreSettings {
  storeLocation: StoreLocation;
  sourcesInbox: boolean;
  sourcesClaudeCode: boolean;
  sourcesCodex: boolean;
  sourcesAider: boolean;
  sourcesExtra: string[];
  provider: ProviderSetting;
  model: string;
  baseUrl: string;
  reclaim: ReclaimMode;
  /** `lore.harvest.transcripts` when a person set it; else the store's config.json decides (default on). */
  transcripts: boolean | undefined;
  digestEnabled: boolean;
  /** `lore.privateMarkers`: a marker pair around private text besides `<private>` and config.json's; undefined when unset or incomplete. */
  privateMarkers: PrivateMarkers | undefined;
  timeoutSeconds: number;
  /** A background harvest every hour or day (off by default). */
  harvestSchedule: HarvestSchedule;
  searchBackend: SearchBackendSetting;
  /** Agent instruction files that get the digest block (AGENTS.md, CLAUDE.md, …). */
  instructionsSync: string[];
  /** Show the prompt-cache countdown in the status bar. */
  cacheStatusBar: boolean;
  /** Where agents' MCP writes go: as the store's config.json says, or pending / direct. */
  agentWrites: AgentWritesSetting;
  /** When Lore commits the store's changes to git: as config.json says, or off / apply / interval. */
  gitCommit: GitCommitSetting;
  /** `lore.budget.*`: spending caps of harvests, beside config.json's (the lower one holds). */
  budget: BudgetCaps;
}

/** `lore.git.commit`: `store` leaves it to the store's config.json (`git.commit`). */
export type GitCommitSetting = 'store' | GitCommitMode;

/** The override a `lore.git.commit` value makes (none for `store`), for the server's options and child processes. */
export function gitCommitOption(setting: GitCommitSetting): { gitCommit?: GitCommitMode } {
  return setting === 'store' ? {} : { gitCommit: setting };
}

/** `lore.agentWrites`: `store` leaves it to the store's config.json. */
export type AgentWritesSetting = 'store' | 'pending' | 'direct';

/** The configuration section for the folder the store belongs to (several settings are resource-scoped). */
function section(scope?: vscode.ConfigurationScope): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration('lore', scope ?? vscode.workspace.workspaceFolders?.[0]?.uri ?? null);
}

export function readSettings(scope?: vscode.ConfigurationScope): LoreSettings {
  const c = section(scope);
  return {
    storeLocation: c.get<StoreLocation>('store.location', 'workspace'),
    sourcesInbox: c.get<boolean>('sources.inbox', DEFAULT_SOURCE_SWITCHES.inbox),
    sourcesClaudeCode: c.get<boolean>('sources.claudeCode', DEFAULT_SOURCE_SWITCHES.claudeCode),
    sourcesCodex: c.get<boolean>('sources.codex', DEFAULT_SOURCE_SWITCHES.codex),
    sourcesAider: c.get<boolean>('sources.aider', DEFAULT_SOURCE_SWITCHES.aider),
    sourcesExtra: c.get<string[]>('sources.extra', []),
    provider: c.get<ProviderSetting>('provider', 'vscode-lm'),
    model: c.get<string>('model', ''),
    baseUrl: c.get<string>('baseUrl', ''),
    reclaim: c.get<ReclaimMode>('harvest.reclaim', 'delete'),
    transcripts: explicitlySet<boolean>(c, 'harvest.transcripts'),
    digestEnabled: c.get<boolean>('digest.enabled', true),
    privateMarkers: markerPair(c.get<{ open?: unknown; close?: unknown }>('privateMarkers')),
    agentWrites: c.get<AgentWritesSetting>('agentWrites', 'store'),
    gitCommit: c.get<GitCommitSetting>('git.commit', 'store'),
    timeoutSeconds: c.get<number>('harvest.timeoutSeconds', 120),
    harvestSchedule: c.get<HarvestSchedule>('harvest.schedule', 'off'),
    // `minisearch` was the in-memory index of older versions; `sqlite` was the default.
    searchBackend: ['memory', 'minisearch'].includes(c.get<string>('search.backend', 'auto')) ? 'memory' : 'auto',
    instructionsSync: c.get<string[]>('instructions.sync', []),
    cacheStatusBar: c.get<boolean>('cache.statusBar', true),
    budget: budgetCaps(c),
  };
}

/** The `lore.budget.*` caps that are set to a number (null or empty: no cap here). */
function budgetCaps(c: vscode.WorkspaceConfiguration): BudgetCaps {
  const caps: BudgetCaps = {};
  for (const key of BUDGET_CAP_KEYS) {
    const value = c.get<unknown>(`budget.${key}`);
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0) caps[key] = value;
  }
  return caps;
}

/** The pair of `lore.privateMarkers` when both markers are non-empty strings. */
function markerPair(value: { open?: unknown; close?: unknown } | undefined): PrivateMarkers | undefined {
  const open = typeof value?.open === 'string' ? value.open.trim() : '';
  const close = typeof value?.close === 'string' ? value.close.trim() : '';
  return open && close ? { open, close } : undefined;
}

/** A setting's value when set at any level (user, workspace, folder), undefined when only its default applies. */
function explicitlySet<T>(c: vscode.WorkspaceConfiguration, key: string): T | undefined {
  const i = c.inspect<T>(key);
  return i?.workspaceFolderValue ?? i?.workspaceValue ?? i?.globalValue;
}

/** Records the instruction files to keep in step with the digest, for this workspace. */
export async function updateInstructionsSync(files: string[]): Promise<void> {
  await section().update('instructions.sync', files, vscode.ConfigurationTarget.Workspace);
}

/** True when a user, workspace or folder setting names the provider: the package default is not a choice the person made. */
export function providerChosen(): boolean {
  const inspected = section().inspect<string>('provider');
  return [inspected?.globalValue, inspected?.workspaceValue, inspected?.workspaceFolderValue].some((v) => v !== undefined);
}

/**
 * Records how to distill: in the workspace when the workspace already names a provider (a user
 * value would be shadowed by it), else in the user settings. Returns where it went.
 */
export async function updateProvider(provider: ProviderSetting): Promise<'workspace' | 'user'> {
  const config = section();
  const inWorkspace = config.inspect<string>('provider')?.workspaceValue !== undefined;
  const target = inWorkspace ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  const previous = config.get<string>('provider');
  await config.update('provider', provider, target);
  // A model name and a server URL belong to the provider they were chosen for (gpt-… means nothing
  // to Anthropic): switching providers drops those set beside the old one, and the new one's defaults apply.
  for (const key of ['model', 'baseUrl']) {
    const value = config.inspect<string>(key);
    if (previous !== provider && (inWorkspace ? value?.workspaceValue : value?.globalValue) !== undefined)
      await config.update(key, undefined, target);
  }
  return inWorkspace ? 'workspace' : 'user';
}

/** Records the provider's server URL and model where the provider is recorded (undefined: the provider's default). */
export async function updateEndpoint(values: { baseUrl?: string; model?: string }): Promise<void> {
  const config = section();
  const inWorkspace = config.inspect<string>('provider')?.workspaceValue !== undefined;
  const target = inWorkspace ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  await config.update('baseUrl', values.baseUrl, target);
  await config.update('model', values.model, target);
}

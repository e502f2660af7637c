/**
 * The prompt caches of a workspace's agent sessions: discovery's sessions of the tools that
 * record cache usage (Claude Code, Codex, Copilot Chat), the most recently modified first, each
 * read (bounded, sessionCalls.ts) and described at `now`, with a summary per tool. What
 * `lore cache` prints and the language server answers to `lore/cacheSessions`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { addCacheUsage, cacheHitRate, emptyCacheUsage, type CacheUsage } from './cacheUsage';
import { discoverSessions } from '../discovery/discoverSessions';
import type { Host } from '../discovery/host';
import { claudeCodeProjectDir, TOOL_LABELS } from '../discovery/toolLocations';
import { CACHE_TOOLS, type CacheTool } from './cacheCalls';
import { modelPrices, type CacheMoney, type ModelPrice } from './modelPrices';
import { readSessionCalls, type SessionCallsMemo } from './sessionCalls';
import { sessionCacheState, TOOL_PROVIDERS, TTL_MS, type SessionCacheState } from './sessionCacheState';

/** How many sessions are read by default: the most recently modified. */
export const DEFAULT_SESSION_LIMIT = 10;

/** One tool's sessions summed (the Cache view's provider rows). */
export interface ToolCacheSummary {
  tool: CacheTool;
  label: string;
  provider: string;
  sessions: number;
  /** Sessions warm (or provider-managed) now. */
  active: number;
  /** Totals of the calls whose cached part is known; undefined when none is (Copilot Chat). */
  usage?: CacheUsage;
  /** Prompt tokens of every call. */
  inputTokens: number;
  hitRatio?: number;
  /** The soonest expiry among warm sessions, ms from now. */
  nextExpiryMs?: number;
  /** `5m`, `1h`, `implicit` or `unknown`: what the tool's caching lasts. */
  ttl: string;
  money?: CacheMoney;
}

export interface CacheReport {
  workspace: string;
  /** The moment described, epoch ms. */
  now: number;
  sessions: SessionCacheState[];
  tools: ToolCacheSummary[];
  /** The folders holding the listed sessions, and Claude Code's folder of the workspace where new sessions appear (the extension watches them). */
  folders: string[];
  /** Sessions found but not read (beyond the limit). */
  notRead: number;
  /** The price table's oldest check date, `YYYY-MM-DD`. */
  pricesChecked: string;
}

export interface CacheReportOptions {
  now: number;
  limit?: number;
  allWorkspaces?: boolean;
  /** Calls already read, per session file (the language server keeps one between reports). */
  memo?: SessionCallsMemo;
  prices?: readonly ModelPrice[];
  tailBytes?: number;
  /** Only sessions whose file changed at or after this moment, epoch ms (a warm cache had a call within its TTL). */
  modifiedSince?: number;
}

function mtime(file: string): number {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

function existing(folders: string[]): string[] {
  return folders.filter((folder) => fs.existsSync(folder));
}

function summarize(tool: CacheTool, states: readonly SessionCacheState[]): ToolCacheSummary {
  const known = states.filter((s) => s.usage);
  const usage = known.length ? known.reduce((sum, s) => addCacheUsage(sum, s.usage!), emptyCacheUsage()) : undefined;
  const warm = states.filter((s) => s.status === 'warm');
  const priced = states.filter((s) => s.money);
  const ttls = [...new Set(states.map((s) => s.ttl))];
  return {
    tool,
    label: TOOL_LABELS[tool],
    provider: TOOL_PROVIDERS[tool],
    sessions: states.length,
    active: states.filter((s) => s.status === 'warm' || s.status === 'provider-managed').length,
    usage,
    inputTokens: states.reduce((sum, s) => sum + s.inputTokens, 0),
    hitRatio: usage ? cacheHitRate(usage) : undefined,
    nextExpiryMs: warm.length ? Math.min(...warm.map((s) => s.remainingMs!)) : undefined,
    ttl: ttls.length === 1 ? ttls[0] : ttls.sort().join('/'),
    money: priced.length
      ? priced.reduce(
          (sum, s) => ({
            saved: sum.saved + s.money!.saved,
            writePremium: sum.writePremium + s.money!.writePremium,
            net: sum.net + s.money!.net,
          }),
          { saved: 0, writePremium: 0, net: 0 },
        )
      : undefined,
  };
}

/** The workspace's recent agent sessions and their caches at `options.now`. */
export function cacheReport(host: Host, workspace: string, options: CacheReportOptions): CacheReport {
  const found = discoverSessions(host, workspace, { tools: CACHE_TOOLS, allWorkspaces: options.allWorkspaces })
    .flatMap((entry) =>
      entry.sessions.map((session) => ({ tool: entry.tool as CacheTool, path: session.path, modified: mtime(session.path) })),
    )
    .filter((s) => options.modifiedSince === undefined || s.modified >= options.modifiedSince)
    .sort((a, b) => b.modified - a.modified || (a.path < b.path ? -1 : 1));
  const limit = options.limit ?? DEFAULT_SESSION_LIMIT;
  const prices = options.prices ?? modelPrices();
  const sessions = found
    .slice(0, limit)
    .map((s) =>
      sessionCacheState(readSessionCalls(s.tool, s.path, { memo: options.memo, tailBytes: options.tailBytes }), options.now, prices),
    )
    // A session with no call and no file yet at that moment (`--now` in the past) did not exist then.
    .filter((s) => s.lastActivity !== undefined || s.unreadable !== undefined);
  // The most recently active first (a file touched last may hold an older last call).
  sessions.sort((a, b) => (b.lastActivity ?? 0) - (a.lastActivity ?? 0));
  const tools = CACHE_TOOLS.map((tool) => sessions.filter((s) => s.tool === tool))
    .filter((states) => states.length)
    .map((states) => summarize(states[0].tool, states));
  return {
    workspace,
    now: options.now,
    sessions,
    tools,
    folders: [
      ...new Set([...found.slice(0, limit).map((s) => path.dirname(s.path)), ...existing([claudeCodeProjectDir(host, workspace)])]),
    ].sort(),
    notRead: Math.max(0, found.length - limit),
    pricesChecked: prices.map((p) => p.checked).sort()[0] ?? '',
  };
}

/**
 * The workspace's sessions that can be warm at `now`: those whose file changed within the longest
 * cache lifetime (1 hour), read. Cheap enough for every harvest run.
 */
export function recentCacheSessions(host: Host, workspace: string, now: number): SessionCacheState[] {
  return cacheReport(host, workspace, { now, modifiedSince: now - TTL_MS['1h'], limit: 50 }).sessions;
}

/** The session the user is working in: the most recently active one. */
export function currentSession(report: Pick<CacheReport, 'sessions'>): SessionCacheState | undefined {
  return report.sessions[0];
}

/**
 * A session's prompt-cache state at a given moment, from its calls (sessionCalls.ts). The clock
 * is passed in, so `lore cache --now` and the tests see the same state every time; calls after
 * `now` have not happened yet at that moment.
 * - Anthropic (Claude Code): the cache lives for its TTL after the last call that read or wrote
 *   it (each hit refreshes it): 5 minutes by default, 1 hour when the session's latest writes went
 *   to the 1-hour cache. Subagent calls keep a prefix of their own, so the session's expiry comes
 *   from its main conversation's calls (all calls when it has none).
 * - OpenAI (Codex): caching is implicit and its lifetime provider-managed: shown as such, never
 *   as a countdown; OpenAI documents that an idle prefix is gone within an hour, after which the
 *   session shows expired.
 * - Copilot Chat records no cached tokens: the state is unknown, never guessed.
 */
import { addCacheUsage, cacheHitRate, emptyCacheUsage, type CacheUsage } from './cacheUsage';
import { formatRemaining } from './cacheState';
import type { CacheCall, CacheTool, CacheTtlClass } from './cacheCalls';
import { cacheMoney, priceFor, type CacheMoney, type ModelPrice } from './modelPrices';
import type { SessionCalls } from './sessionCalls';

export const TTL_MS: Record<'5m' | '1h', number> = { '5m': 5 * 60_000, '1h': 60 * 60_000 };
/** OpenAI: "always removed within one hour of the cache's last use" (prompt caching guide). */
export const IMPLICIT_MAX_IDLE_MS = 60 * 60_000;

/**
 * `warm`: cached, with time left (Anthropic); `expired`; `provider-managed`: recently used and
 * cached by the provider on its own terms (Codex); `unknown`: the tool records no cache usage
 * (Copilot Chat); `never-cached`: calls that neither wrote nor read a cache.
 */
export type SessionCacheStatus = 'warm' | 'expired' | 'provider-managed' | 'unknown' | 'never-cached';

export const TOOL_PROVIDERS: Record<CacheTool, string> = { 'claude-code': 'Anthropic', codex: 'OpenAI', 'copilot-chat': 'GitHub Copilot' };

/** One session's cache as `lore cache`, the Cache view and the status bar show it. */
export interface SessionCacheState {
  tool: CacheTool;
  path: string;
  /** The model of the latest call. */
  model?: string;
  /** The latest call, else the file's modification time, epoch ms. */
  lastActivity?: number;
  status: SessionCacheStatus;
  /** The lifetime class of the session's cache now. */
  ttl: CacheTtlClass;
  /** When the cache lapses (Anthropic), epoch ms. */
  expiresAt?: number;
  /** Time left while warm, ms. */
  remainingMs?: number;
  /** `4:32` while warm, else the status in words. */
  ttlLabel: string;
  calls: number;
  /** Calls that read from the cache. */
  hits: number;
  /** Share of the prompt tokens read from the cache, 0..1; undefined when the cache is unknown. */
  hitRatio?: number;
  /** Prompt tokens of every call (all of them, whether or not their cached part is known). */
  inputTokens: number;
  /** Token totals of the calls whose cached part is known. */
  usage?: CacheUsage;
  /** Of usage.cacheWriteTokens: written to the 1-hour cache. */
  cacheWrite1hTokens: number;
  /** The prefix the latest main-conversation call read or wrote, in tokens: what a changed prefix makes it write again. */
  prefixTokens: number;
  /** USD at list prices; undefined when no call's model has a price (see moneyNote). */
  money?: CacheMoney;
  /** Why the money figure is missing or partial. */
  moneyNote?: string;
  /** Bytes at the file's start not read: usage covers the rest (Codex's totals are the tool's own and cover all). */
  skippedBytes: number;
  malformed: number;
  unreadable?: string;
}

function byTime(a: CacheCall, b: CacheCall): number {
  return a.at - b.at;
}

/** The cache's TTL class from the latest call that wrote it (1h only when all its writes were). */
function anthropicTtl(calls: readonly CacheCall[]): '5m' | '1h' {
  for (let i = calls.length - 1; i >= 0; i--) if (calls[i].usage.cacheWriteTokens > 0) return calls[i].ttl === '1h' ? '1h' : '5m';
  return '5m';
}

function moneyOf(calls: readonly CacheCall[], prices?: readonly ModelPrice[]): { money?: CacheMoney; note?: string } {
  const unpriced = new Set<string>();
  let money: CacheMoney | undefined;
  for (const call of calls) {
    if (!call.cacheKnown) continue;
    const price = priceFor(call.model, prices);
    if (!price) {
      unpriced.add(call.model ?? 'an unnamed model');
      continue;
    }
    const m = cacheMoney(
      {
        cacheReadTokens: call.usage.cacheReadTokens,
        cacheWrite5mTokens: call.usage.cacheWriteTokens - call.cacheWrite1hTokens,
        cacheWrite1hTokens: call.cacheWrite1hTokens,
      },
      price,
    );
    money = money ? { saved: money.saved + m.saved, writePremium: money.writePremium + m.writePremium, net: money.net + m.net } : m;
  }
  const names = [...unpriced].sort().join(', ');
  if (!unpriced.size) return { money };
  return { money, note: money ? `calls of ${names} not counted: no price for that model` : `no price for ${names}` };
}

/** The state of one session at `now` (epoch ms). */
export function sessionCacheState(session: SessionCalls, now: number, prices?: readonly ModelPrice[]): SessionCacheState {
  const calls = session.calls.filter((call) => call.at <= now).sort(byTime);
  const known = calls.filter((call) => call.cacheKnown);
  const last = calls[calls.length - 1];
  const main = calls.filter((call) => !call.sidechain);
  const prefixCalls = main.length ? main : calls;
  const lastPrefix = prefixCalls[prefixCalls.length - 1];
  // Codex writes its own running total: it covers calls a bounded read skipped.
  const usage =
    known.length === 0
      ? undefined
      : session.reportedTotal && session.skippedBytes > 0 && known.length === calls.length
        ? session.reportedTotal
        : known.reduce((sum, call) => addCacheUsage(sum, call.usage), emptyCacheUsage());
  const { money, note } = moneyOf(calls, prices);
  const base = {
    tool: session.tool,
    path: session.path,
    model: last?.model,
    lastActivity: last?.at ?? (session.modifiedAt !== undefined && session.modifiedAt <= now ? session.modifiedAt : undefined),
    calls: calls.length,
    hits: known.filter((call) => call.usage.cacheReadTokens > 0).length,
    hitRatio: usage ? cacheHitRate(usage) : undefined,
    inputTokens: calls.reduce((sum, call) => sum + call.usage.inputTokens, 0),
    usage,
    cacheWrite1hTokens: known.reduce((sum, call) => sum + call.cacheWrite1hTokens, 0),
    prefixTokens: lastPrefix && lastPrefix.cacheKnown ? lastPrefix.usage.cacheReadTokens + lastPrefix.usage.cacheWriteTokens : 0,
    money,
    moneyNote: note,
    skippedBytes: session.skippedBytes,
    malformed: session.malformed,
    unreadable: session.unreadable,
  };
  if (session.tool === 'copilot-chat' || known.length === 0) return { ...base, status: 'unknown', ttl: 'unknown', ttlLabel: 'unknown' };
  if (session.tool === 'codex') {
    const recent = last !== undefined && now - last.at < IMPLICIT_MAX_IDLE_MS;
    return { ...base, status: recent ? 'provider-managed' : 'expired', ttl: 'implicit', ttlLabel: recent ? 'provider-managed' : 'expired' };
  }
  const cachedCalls = prefixCalls.filter((call) => call.usage.cacheReadTokens + call.usage.cacheWriteTokens > 0);
  const lastCached = cachedCalls[cachedCalls.length - 1];
  if (!lastCached) return { ...base, status: 'never-cached', ttl: '5m', ttlLabel: 'never cached' };
  const ttl = anthropicTtl(prefixCalls);
  const expiresAt = lastCached.at + TTL_MS[ttl];
  if (now >= expiresAt) return { ...base, status: 'expired', ttl, expiresAt, ttlLabel: 'expired' };
  const remainingMs = expiresAt - now;
  return { ...base, status: 'warm', ttl, expiresAt, remainingMs, ttlLabel: formatRemaining(remainingMs) };
}

/** The state described again at a later moment, without re-reading anything (the status bar's tick). */
export function atMoment(state: SessionCacheState, now: number): SessionCacheState {
  if (state.expiresAt === undefined || (state.status !== 'warm' && state.status !== 'expired')) return state;
  const remainingMs = state.expiresAt - now;
  return remainingMs > 0
    ? { ...state, status: 'warm', remainingMs, ttlLabel: formatRemaining(remainingMs) }
    : { ...state, status: 'expired', remainingMs: undefined, ttlLabel: 'expired' };
}

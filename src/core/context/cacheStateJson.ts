/**
 * Reading cache states back from storage (VS Code workspace state, a JSON file). The states are
 * plain data, so writing is JSON.stringify; reading validates, because what comes back may be
 * from an older version, hand-edited, or partly missing. Expired entries are kept: describe()
 * shows them as expired.
 */
import { emptyCacheUsage, type CacheUsage } from './cacheUsage';
import type { CacheMode, DiscussionCacheState, InvalidationCause } from './cacheState';

const MODES: readonly CacheMode[] = ['ephemeral', 'explicit', 'implicit', 'off'];
const CAUSES: readonly InvalidationCause[] = ['user', 'prefix-changed', 'provider-changed'];

function record(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function count(value: unknown): number {
  const n = num(value);
  return n !== undefined && n >= 0 ? Math.floor(n) : 0;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value ? value : undefined;
}

function usage(value: unknown): CacheUsage {
  const r = record(value);
  if (!r) return emptyCacheUsage();
  return {
    inputTokens: count(r.inputTokens),
    uncachedInputTokens: count(r.uncachedInputTokens),
    cacheReadTokens: count(r.cacheReadTokens),
    cacheWriteTokens: count(r.cacheWriteTokens),
    outputTokens: count(r.outputTokens),
  };
}

/** Parses one stored state; undefined when it lacks a discussion id or provider. */
export function parseCacheState(value: unknown): DiscussionCacheState | undefined {
  const r = record(value);
  const discussionId = str(r?.discussionId);
  const provider = str(r?.provider);
  if (!r || !discussionId || !provider) return undefined;
  const mode = MODES.includes(r.mode as CacheMode) ? (r.mode as CacheMode) : 'off';
  const cause = CAUSES.includes(r.invalidatedBy as InvalidationCause) ? (r.invalidatedBy as InvalidationCause) : undefined;
  return {
    version: 1,
    discussionId,
    provider,
    mode,
    cachingEnabled: r.cachingEnabled !== false,
    cachedAt: num(r.cachedAt),
    expiresAt: num(r.expiresAt),
    ttlMs: num(r.ttlMs),
    hits: count(r.hits),
    calls: count(r.calls),
    tokensCached: count(r.tokensCached),
    lastCallAt: num(r.lastCallAt),
    lastInvalidated: num(r.lastInvalidated),
    invalidatedBy: cause,
    prefixHash: str(r.prefixHash),
    cacheName: str(r.cacheName),
    fallbackReason: str(r.fallbackReason),
    totals: usage(r.totals),
  };
}

/**
 * Parses a stored collection: an array of states or a record keyed by discussion id. Entries that
 * do not parse are skipped; the result is sorted by discussion id so a view built from it is stable.
 */
export function parseCacheStates(value: unknown): DiscussionCacheState[] {
  const items = Array.isArray(value) ? value : Object.values(record(value) ?? {});
  return items
    .map(parseCacheState)
    .filter((s): s is DiscussionCacheState => s !== undefined)
    .sort((a, b) => (a.discussionId < b.discussionId ? -1 : a.discussionId > b.discussionId ? 1 : 0));
}

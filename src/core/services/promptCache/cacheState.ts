/**
 * Per-discussion prompt-cache state: plain JSON-serializable data and the pure transitions the
 * extension applies after each call (recordCall), on the user's buttons (invalidate, disable,
 * enable), and when it draws the Cache view or the status bar (describe). Times are epoch
 * milliseconds passed in by the caller, so nothing here reads a clock.
 */
import { addCacheUsage, cacheHitRate, emptyCacheUsage, type CacheUsage } from './cacheUsage';

/**
 * How a provider caches: `ephemeral` (Anthropic: marked breakpoints, TTL refreshed by every hit),
 * `explicit` (Gemini: a named cachedContent with a fixed expiry), `implicit` (OpenAI: automatic,
 * provider-managed TTL), `off` (not cached this call).
 */
export type CacheMode = 'ephemeral' | 'explicit' | 'implicit' | 'off';

/** Anthropic's default cache lifetime, refreshed on each hit. */
export const ANTHROPIC_CACHE_TTL_MS = 5 * 60_000;
/** Anthropic's optional long lifetime (`ttl: "1h"`). */
export const ANTHROPIC_LONG_CACHE_TTL_MS = 60 * 60_000;
/** Default lifetime of a Gemini cachedContent. */
export const GEMINI_CACHE_TTL_MS = 60 * 60_000;
/** OpenAI keeps an implicit prefix "5-10 minutes" after its last use; past this it is shown expired (estimated). */
const IMPLICIT_CACHE_WINDOW_MS = 10 * 60_000;

/** What an adapter reports about the caching of one call; recordCall folds it into the state. */
export interface CacheCallInfo {
  provider: string;
  mode: CacheMode;
  /** Lifetime of the entry this call read or wrote. */
  ttlMs?: number;
  /** A fixed expiry reported by the provider (Gemini's expireTime), epoch ms. */
  expiresAt?: number;
  /** sha256 of the stable prefix sent (see stablePrefixHash). */
  prefixHash?: string;
  /** Gemini: the cachedContent resource name. */
  cacheName?: string;
  /** Why this call was not cached (prefix below the provider's minimum, rejected, disabled). */
  fallbackReason?: string;
}

/** Why a cache was dropped. */
export type InvalidationCause = 'user' | 'prefix-changed' | 'provider-changed';

/** The cache state of one discussion, as persisted in workspace state. */
export interface DiscussionCacheState {
  version: 1;
  discussionId: string;
  provider: string;
  mode: CacheMode;
  /** The user can turn caching off per discussion; the state then shows `disabled`. */
  cachingEnabled: boolean;
  /** When the current cache entry was written, epoch ms; undefined when nothing is cached. */
  cachedAt?: number;
  /** When it lapses, epoch ms; undefined for implicit caches and when nothing is cached. */
  expiresAt?: number;
  ttlMs?: number;
  /** Calls that read from the cache. */
  hits: number;
  calls: number;
  /** Size of the cached prefix at the last call, in tokens. */
  tokensCached: number;
  lastCallAt?: number;
  lastInvalidated?: number;
  invalidatedBy?: InvalidationCause;
  prefixHash?: string;
  cacheName?: string;
  fallbackReason?: string;
  /** Usage summed over every call of the discussion. */
  totals: CacheUsage;
}

/** A fresh state: nothing cached yet. */
export function createCacheState(discussionId: string, provider: string, options: { cachingEnabled?: boolean } = {}): DiscussionCacheState {
  return {
    version: 1,
    discussionId,
    provider,
    mode: 'off',
    cachingEnabled: options.cachingEnabled ?? true,
    hits: 0,
    calls: 0,
    tokensCached: 0,
    totals: emptyCacheUsage(),
  };
}

/** The lifetime a provider gives a cache entry when the adapter did not say. */
function defaultCacheTtlMs(provider: string, mode: CacheMode): number | undefined {
  if (mode === 'ephemeral') return ANTHROPIC_CACHE_TTL_MS;
  if (mode === 'explicit') return GEMINI_CACHE_TTL_MS;
  return provider === 'anthropic' ? ANTHROPIC_CACHE_TTL_MS : provider === 'gemini' ? GEMINI_CACHE_TTL_MS : undefined;
}

/** The state with nothing cached (history and counters kept). */
function cleared(state: DiscussionCacheState): DiscussionCacheState {
  return { ...state, cachedAt: undefined, expiresAt: undefined, tokensCached: 0, cacheName: undefined };
}

/**
 * Folds one call into the state. A read is a hit and, for ephemeral caches, pushes the expiry to
 * now + TTL (the provider refreshes it on use); a write (re)starts the entry; a call that neither
 * read nor wrote leaves nothing cached, except for implicit caches where only reads are visible.
 * A changed prefix hash or provider is recorded as an invalidation.
 */
export function recordCall(state: DiscussionCacheState, usage: CacheUsage, now: number, info?: CacheCallInfo): DiscussionCacheState {
  const provider = info?.provider ?? state.provider;
  const mode = info?.mode ?? state.mode;
  let next: DiscussionCacheState = {
    ...state,
    provider,
    mode,
    calls: state.calls + 1,
    lastCallAt: now,
    totals: addCacheUsage(state.totals, usage),
  };
  const wasCached = state.cachedAt !== undefined;
  if (provider !== state.provider) {
    next = { ...cleared(next), ...(wasCached ? { lastInvalidated: now, invalidatedBy: 'provider-changed' as const } : {}) };
  } else if (info?.prefixHash && state.prefixHash && info.prefixHash !== state.prefixHash && wasCached) {
    next = { ...next, lastInvalidated: now, invalidatedBy: 'prefix-changed' };
  }
  next.prefixHash = info?.prefixHash ?? state.prefixHash;
  next.ttlMs = info?.ttlMs ?? (provider === state.provider ? state.ttlMs : undefined) ?? defaultCacheTtlMs(provider, mode);
  if (!state.cachingEnabled || mode === 'off') return { ...cleared(next), fallbackReason: info?.fallbackReason ?? next.fallbackReason };

  const read = usage.cacheReadTokens;
  const write = usage.cacheWriteTokens;
  if (read > 0) next.hits = state.hits + 1;
  if (read + write === 0) {
    if (mode === 'implicit') return next;
    return {
      ...cleared(next),
      fallbackReason: info?.fallbackReason ?? 'the provider cached nothing (the stable prefix may be below its minimum size)',
    };
  }
  next.fallbackReason = undefined;
  next.tokensCached = read + write;
  if (write > 0 || next.cachedAt === undefined) next.cachedAt = now;
  if (mode === 'ephemeral') next.expiresAt = now + (next.ttlMs ?? ANTHROPIC_CACHE_TTL_MS);
  else if (mode === 'explicit')
    next.expiresAt =
      info?.expiresAt ?? (write > 0 || next.expiresAt === undefined ? now + (next.ttlMs ?? GEMINI_CACHE_TTL_MS) : next.expiresAt);
  else next.expiresAt = undefined;
  next.cacheName = mode === 'explicit' ? (info?.cacheName ?? next.cacheName) : undefined;
  return next;
}

/** True when the state holds an expiry that has passed. Implicit caches never report expiry here. */
export function isExpired(state: DiscussionCacheState, now: number): boolean {
  return state.expiresAt !== undefined && now >= state.expiresAt;
}

/**
 * Forgets the cache (the user's [Invalidate cache], or a cause found elsewhere). For Gemini the
 * caller also deletes the remote resource (ModelAdapter.invalidate); Anthropic and OpenAI caches
 * cannot be evicted remotely, and an identical prefix read back from them is harmless.
 */
export function invalidate(state: DiscussionCacheState, now: number, cause: InvalidationCause = 'user'): DiscussionCacheState {
  return { ...cleared(state), lastInvalidated: now, invalidatedBy: cause };
}

/** Turns caching off for the discussion; the adapters then send no cache markers. */
export function disable(state: DiscussionCacheState, now: number): DiscussionCacheState {
  if (!state.cachingEnabled) return state;
  return { ...invalidate(state, now, 'user'), cachingEnabled: false };
}

/** Turns caching back on; the next call writes a new entry. */
export function enable(state: DiscussionCacheState): DiscussionCacheState {
  return state.cachingEnabled ? state : { ...state, cachingEnabled: true, fallbackReason: undefined };
}

/** What the Cache view and the status bar show for one discussion. */
export interface CacheDescription {
  discussionId: string;
  provider: string;
  mode: CacheMode;
  status: 'active' | 'expired' | 'none' | 'disabled';
  /** Milliseconds left (0 once expired); undefined when unknown (implicit caches) or nothing is cached. */
  remainingMs?: number;
  expiresAt?: number;
  cachedAt?: number;
  /** `4:32`, `1:02:03`, `expired`, `provider-managed` or `-`. */
  ttlLabel: string;
  /** True when the status is inferred (implicit caches report no expiry). */
  estimated: boolean;
  hits: number;
  calls: number;
  tokensCached: number;
  /** Share of all prompt tokens of the discussion read from the cache, 0..1. */
  hitRate: number;
  totals: CacheUsage;
  lastInvalidated?: number;
  invalidatedBy?: InvalidationCause;
  fallbackReason?: string;
}

/** `m:ss`, or `h:mm:ss` from one hour up; negative durations read `0:00`. */
export function formatRemaining(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** Describes the state at `now`. An expired cache is reported as expired, never dropped. */
export function describe(state: DiscussionCacheState, now: number): CacheDescription {
  const base = {
    discussionId: state.discussionId,
    provider: state.provider,
    mode: state.mode,
    cachedAt: state.cachedAt,
    expiresAt: state.expiresAt,
    hits: state.hits,
    calls: state.calls,
    tokensCached: state.tokensCached,
    hitRate: cacheHitRate(state.totals),
    totals: state.totals,
    lastInvalidated: state.lastInvalidated,
    invalidatedBy: state.invalidatedBy,
    fallbackReason: state.fallbackReason,
    estimated: false,
  };
  if (!state.cachingEnabled) return { ...base, status: 'disabled', ttlLabel: '-' };
  if (state.cachedAt === undefined) return { ...base, status: 'none', ttlLabel: '-' };
  if (state.mode === 'implicit' || state.expiresAt === undefined) {
    const recent = state.lastCallAt !== undefined && now - state.lastCallAt < IMPLICIT_CACHE_WINDOW_MS;
    return { ...base, status: recent ? 'active' : 'expired', ttlLabel: 'provider-managed', estimated: true };
  }
  const remainingMs = Math.max(0, state.expiresAt - now);
  if (remainingMs === 0) return { ...base, status: 'expired', remainingMs: 0, ttlLabel: 'expired' };
  return { ...base, status: 'active', remainingMs, ttlLabel: formatRemaining(remainingMs) };
}

/** Per-provider totals for the Cache view's summary rows (providers sorted by name). */
export interface ProviderCacheSummary {
  provider: string;
  discussions: number;
  active: number;
  totals: CacheUsage;
  hitRate: number;
  /** The soonest expiry among active caches, ms from now. */
  nextExpiryMs?: number;
}

/** Sums the discussions' states per provider. */
export function summarizeByProvider(states: readonly DiscussionCacheState[], now: number): ProviderCacheSummary[] {
  const byProvider = new Map<string, ProviderCacheSummary>();
  for (const state of states) {
    const summary = byProvider.get(state.provider) ?? {
      provider: state.provider,
      discussions: 0,
      active: 0,
      totals: emptyCacheUsage(),
      hitRate: 0,
    };
    const description = describe(state, now);
    summary.discussions++;
    summary.totals = addCacheUsage(summary.totals, state.totals);
    if (description.status === 'active') summary.active++;
    if (description.status === 'active' && description.remainingMs !== undefined) {
      summary.nextExpiryMs = Math.min(summary.nextExpiryMs ?? Infinity, description.remainingMs);
    }
    byProvider.set(state.provider, summary);
  }
  return [...byProvider.values()]
    .map((s) => ({ ...s, hitRate: cacheHitRate(s.totals) }))
    .sort((a, b) => (a.provider < b.provider ? -1 : a.provider > b.provider ? 1 : 0));
}

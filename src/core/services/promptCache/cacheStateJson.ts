/**
 * Reading cache states back from storage (VS Code workspace state, a JSON file). The states are
 * plain data, so writing is JSON.stringify; reading checks them with a zod schema, because what
 * comes back may be from an older version, hand-edited, or partly missing. The schema is lenient
 * field by field (a wrong counter reads as 0, an unknown mode as `off`); a state without a
 * discussion id or provider is skipped. Expired entries are kept: describe() shows them as
 * expired. zod loads on the first read (the extension's Cache view), not with this module.
 */
import type { z as Zod } from 'zod';
import type { DiscussionCacheState } from './cacheState';
import { lazy } from '../../base/lazy';

function buildSchema(z: typeof Zod) {
  const count = z.number().finite().nonnegative().transform(Math.floor).catch(0);
  const time = z.number().finite().optional().catch(undefined);
  const text = z.string().min(1).optional().catch(undefined);
  const usage = z
    .object({ inputTokens: count, uncachedInputTokens: count, cacheReadTokens: count, cacheWriteTokens: count, outputTokens: count })
    .catch({ inputTokens: 0, uncachedInputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 0 });
  return z
    .object({
      discussionId: z.string().min(1),
      provider: z.string().min(1),
      mode: z.enum(['ephemeral', 'explicit', 'implicit', 'off']).catch('off'),
      cachingEnabled: z.boolean().catch(true), // on unless turned off
      cachedAt: time,
      expiresAt: time,
      ttlMs: time,
      hits: count,
      calls: count,
      tokensCached: count,
      lastCallAt: time,
      lastInvalidated: time,
      invalidatedBy: z.enum(['user', 'prefix-changed', 'provider-changed']).optional().catch(undefined),
      prefixHash: text,
      cacheName: text,
      fallbackReason: text,
      totals: usage,
    })
    .transform((state): DiscussionCacheState => ({ version: 1, ...state }));
}

const zod = lazy(() => require('zod') as typeof import('zod'));
const schema = lazy(() => buildSchema(zod().z));

/** Parses one stored state; undefined when it lacks a discussion id or provider. */
export function parseCacheState(value: unknown): DiscussionCacheState | undefined {
  const result = schema().safeParse(value);
  return result.success ? result.data : undefined;
}

/**
 * Parses a stored collection: an array of states or a record keyed by discussion id. Entries that
 * do not parse are skipped; the result is sorted by discussion id so a view built from it is stable.
 */
export function parseCacheStates(value: unknown): DiscussionCacheState[] {
  const items = Array.isArray(value) ? value : value && typeof value === 'object' ? Object.values(value) : [];
  return items
    .map(parseCacheState)
    .filter((s): s is DiscussionCacheState => s !== undefined)
    .sort((a, b) => (a.discussionId < b.discussionId ? -1 : a.discussionId > b.discussionId ? 1 : 0));
}

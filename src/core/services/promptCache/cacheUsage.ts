/**
 * Token accounting across providers. Each API reports prompt caching differently: Anthropic's
 * `input_tokens` excludes what was read from or written to the cache, OpenAI's `prompt_tokens`
 * and Gemini's `promptTokenCount` include the cached part. CacheUsage folds them into one shape
 * where `inputTokens` always means "every prompt token sent", split into uncached, cache-read and
 * cache-write, so hit rates compare across providers.
 */

/** Token counts of one call (or a sum of calls), the same meaning for every provider. */
export interface CacheUsage {
  /** Every prompt token sent: uncachedInputTokens + cacheReadTokens + cacheWriteTokens. */
  inputTokens: number;
  /** Prompt tokens processed at the full price. */
  uncachedInputTokens: number;
  /** Prompt tokens served from the provider's cache. */
  cacheReadTokens: number;
  /** Prompt tokens written to the provider's cache by this call. */
  cacheWriteTokens: number;
  /** Reply tokens (thinking included where the provider bills it as output). */
  outputTokens: number;
}

/** A usage of zero tokens (the start of a sum). */
export function emptyCacheUsage(): CacheUsage {
  return { inputTokens: 0, uncachedInputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 0 };
}

/** Sum of two usages. */
export function addCacheUsage(a: CacheUsage, b: CacheUsage): CacheUsage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    uncachedInputTokens: a.uncachedInputTokens + b.uncachedInputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
    outputTokens: a.outputTokens + b.outputTokens,
  };
}

/** Share of the prompt tokens read from the cache, 0..1 (0 when nothing was sent). */
export function cacheHitRate(usage: CacheUsage): number {
  return usage.inputTokens > 0 ? usage.cacheReadTokens / usage.inputTokens : 0;
}

/** A count from a usage record: finite, non-negative, integral; anything else counts as 0. */
function count(record: Record<string, unknown> | undefined, ...keys: string[]): number {
  if (!record) return 0;
  for (const key of keys) {
    const value = record[key];
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return Math.floor(value);
  }
  return 0;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** Builds a usage from a total that already includes the cached parts. */
function fromInclusive(total: number, read: number, write: number, output: number): CacheUsage {
  // A server that reports more cached than total (seen in proxies) must not yield negatives.
  const cacheRead = Math.min(read, total);
  const cacheWrite = Math.min(write, total - cacheRead);
  return {
    inputTokens: total,
    uncachedInputTokens: total - cacheRead - cacheWrite,
    cacheReadTokens: cacheRead,
    cacheWriteTokens: cacheWrite,
    outputTokens: output,
  };
}

/**
 * Reads a provider's raw usage object (as the SDK returns it) into a CacheUsage.
 * - `anthropic`: `input_tokens` is only the uncached rest, so reads and writes are added to it;
 * - `openai`: chat completions (`prompt_tokens`, `prompt_tokens_details.cached_tokens`) or the
 *   Responses API (`input_tokens`, `input_tokens_details.cached_tokens`); cached is included;
 * - `gemini`: `promptTokenCount` (+ `toolUsePromptTokenCount`) includes `cachedContentTokenCount`;
 *   thinking tokens are billed as output;
 * - anything else (ollama, OpenAI-compatible servers under another name): the usual field names,
 *   no cache.
 * Missing or malformed fields count as 0, so a partial usage never throws.
 */
export function accountUsage(provider: string, rawUsage: unknown): CacheUsage {
  const raw = asRecord(rawUsage);
  if (!raw) return emptyCacheUsage();
  switch (provider) {
    case 'anthropic': {
      const uncached = count(raw, 'input_tokens');
      const read = count(raw, 'cache_read_input_tokens');
      const write = count(raw, 'cache_creation_input_tokens');
      return {
        inputTokens: uncached + read + write,
        uncachedInputTokens: uncached,
        cacheReadTokens: read,
        cacheWriteTokens: write,
        outputTokens: count(raw, 'output_tokens'),
      };
    }
    case 'openai': {
      if ('prompt_tokens' in raw) {
        const details = asRecord(raw.prompt_tokens_details);
        return fromInclusive(
          count(raw, 'prompt_tokens'),
          count(details, 'cached_tokens'),
          count(details, 'cache_write_tokens'),
          count(raw, 'completion_tokens'),
        );
      }
      const details = asRecord(raw.input_tokens_details);
      return fromInclusive(count(raw, 'input_tokens'), count(details, 'cached_tokens'), 0, count(raw, 'output_tokens'));
    }
    case 'gemini': {
      const total = count(raw, 'promptTokenCount') + count(raw, 'toolUsePromptTokenCount');
      return fromInclusive(
        total,
        count(raw, 'cachedContentTokenCount'),
        0,
        count(raw, 'candidatesTokenCount') + count(raw, 'thoughtsTokenCount'),
      );
    }
    default: {
      const total = count(raw, 'input_tokens', 'prompt_tokens', 'promptTokenCount', 'prompt_eval_count', 'inputTokens');
      return fromInclusive(
        total,
        0,
        0,
        count(raw, 'output_tokens', 'completion_tokens', 'candidatesTokenCount', 'eval_count', 'outputTokens'),
      );
    }
  }
}

/**
 * Re-labels the cached part of a usage as written rather than read. Gemini reports the tokens of
 * a freshly created cachedContent as cached (they were, a moment ago, by our own create call);
 * for the discussion they are the write of this turn, as Anthropic would report them.
 */
export function asCacheWrite(usage: CacheUsage): CacheUsage {
  return { ...usage, cacheWriteTokens: usage.cacheWriteTokens + usage.cacheReadTokens, cacheReadTokens: 0 };
}

import * as assert from 'node:assert/strict';
import {
  accountUsage,
  addCacheUsage,
  asCacheWrite,
  cacheHitRate,
  emptyCacheUsage,
} from '../../../src/core/services/promptCache/cacheUsage';

describe('accountUsage', () => {
  it('adds Anthropic cache reads and writes back into the input tokens sent', () => {
    const usage = accountUsage('anthropic', {
      input_tokens: 200,
      cache_read_input_tokens: 1000,
      cache_creation_input_tokens: 50,
      output_tokens: 34,
    });
    assert.deepEqual(usage, { inputTokens: 1250, uncachedInputTokens: 200, cacheReadTokens: 1000, cacheWriteTokens: 50, outputTokens: 34 });
  });

  it('treats OpenAI cached_tokens as part of prompt_tokens (chat completions and Responses API)', () => {
    assert.deepEqual(
      accountUsage('openai', { prompt_tokens: 1200, completion_tokens: 34, prompt_tokens_details: { cached_tokens: 1024 } }),
      {
        inputTokens: 1200,
        uncachedInputTokens: 176,
        cacheReadTokens: 1024,
        cacheWriteTokens: 0,
        outputTokens: 34,
      },
    );
    assert.deepEqual(accountUsage('openai', { input_tokens: 1200, output_tokens: 34, input_tokens_details: { cached_tokens: 1024 } }), {
      inputTokens: 1200,
      uncachedInputTokens: 176,
      cacheReadTokens: 1024,
      cacheWriteTokens: 0,
      outputTokens: 34,
    });
  });

  it('treats Gemini cachedContentTokenCount as part of promptTokenCount and thinking as output', () => {
    const usage = accountUsage('gemini', {
      promptTokenCount: 1200,
      cachedContentTokenCount: 1000,
      candidatesTokenCount: 30,
      thoughtsTokenCount: 4,
    });
    assert.deepEqual(usage, { inputTokens: 1200, uncachedInputTokens: 200, cacheReadTokens: 1000, cacheWriteTokens: 0, outputTokens: 34 });
  });

  it('gives the same totals for the same call on every provider', () => {
    const a = accountUsage('anthropic', {
      input_tokens: 200,
      cache_read_input_tokens: 1000,
      cache_creation_input_tokens: 0,
      output_tokens: 34,
    });
    const o = accountUsage('openai', { prompt_tokens: 1200, completion_tokens: 34, prompt_tokens_details: { cached_tokens: 1000 } });
    const g = accountUsage('gemini', { promptTokenCount: 1200, cachedContentTokenCount: 1000, candidatesTokenCount: 34 });
    assert.deepEqual(a, o);
    assert.deepEqual(o, g);
    assert.equal(cacheHitRate(a), 1000 / 1200);
  });

  it('reads other providers by the usual field names, with no cache', () => {
    assert.deepEqual(accountUsage('ollama', { prompt_eval_count: 80, eval_count: 9 }), {
      inputTokens: 80,
      uncachedInputTokens: 80,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      outputTokens: 9,
    });
  });

  it('never throws or goes negative on malformed usage', () => {
    assert.deepEqual(accountUsage('anthropic', undefined), emptyCacheUsage());
    assert.deepEqual(accountUsage('gemini', 'nonsense'), emptyCacheUsage());
    const odd = accountUsage('openai', { prompt_tokens: 10, prompt_tokens_details: { cached_tokens: 50 }, completion_tokens: -3 });
    assert.deepEqual(odd, { inputTokens: 10, uncachedInputTokens: 0, cacheReadTokens: 10, cacheWriteTokens: 0, outputTokens: 0 });
  });

  it('sums usages and relabels a fresh cache as written', () => {
    const sum = addCacheUsage(
      accountUsage('anthropic', { input_tokens: 1, cache_creation_input_tokens: 9, output_tokens: 2 }),
      accountUsage('anthropic', { input_tokens: 1, cache_read_input_tokens: 9, output_tokens: 2 }),
    );
    assert.deepEqual(sum, { inputTokens: 20, uncachedInputTokens: 2, cacheReadTokens: 9, cacheWriteTokens: 9, outputTokens: 4 });
    assert.deepEqual(asCacheWrite(accountUsage('gemini', { promptTokenCount: 10, cachedContentTokenCount: 8 })), {
      inputTokens: 10,
      uncachedInputTokens: 2,
      cacheReadTokens: 0,
      cacheWriteTokens: 8,
      outputTokens: 0,
    });
    assert.equal(cacheHitRate(emptyCacheUsage()), 0);
  });
});

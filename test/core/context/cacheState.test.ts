import * as assert from 'node:assert/strict';
import {
  ANTHROPIC_CACHE_TTL_MS,
  createCacheState,
  describe as describeState,
  disable,
  enable,
  formatRemaining,
  invalidate,
  isExpired,
  recordCall,
  summarizeByProvider,
  type CacheCallInfo,
} from '../../../src/core/services/promptCache/cacheState';
import { parseCacheState, parseCacheStates } from '../../../src/core/services/promptCache/cacheStateJson';
import { accountUsage } from '../../../src/core/services/promptCache/cacheUsage';

const T0 = 1_767_225_600_000;
const MIN = 60_000;
const write = accountUsage('anthropic', { input_tokens: 50, cache_creation_input_tokens: 3000, output_tokens: 10 });
const hit = accountUsage('anthropic', { input_tokens: 60, cache_read_input_tokens: 3000, output_tokens: 10 });
const nothing = accountUsage('anthropic', { input_tokens: 900, output_tokens: 10 });
const anthropic: CacheCallInfo = { provider: 'anthropic', mode: 'ephemeral', ttlMs: ANTHROPIC_CACHE_TTL_MS, prefixHash: 'h1' };

describe('discussion cache state', () => {
  it('starts with nothing cached', () => {
    const state = createCacheState('d1', 'anthropic');
    assert.equal(describeState(state, T0).status, 'none');
    assert.equal(isExpired(state, T0), false);
  });

  it('writes, then refreshes the 5-minute expiry on each hit', () => {
    let state = recordCall(createCacheState('d1', 'anthropic'), write, T0, anthropic);
    assert.equal(state.cachedAt, T0);
    assert.equal(state.expiresAt, T0 + 5 * MIN);
    assert.equal(state.tokensCached, 3000);
    assert.equal(state.hits, 0);
    state = recordCall(state, hit, T0 + 4 * MIN, anthropic);
    assert.equal(state.hits, 1);
    assert.equal(state.cachedAt, T0, 'a pure hit does not rewrite the entry');
    assert.equal(state.expiresAt, T0 + 9 * MIN);
    const shown = describeState(state, T0 + 6 * MIN);
    assert.equal(shown.status, 'active');
    assert.equal(shown.remainingMs, 3 * MIN);
    assert.equal(shown.ttlLabel, '3:00');
    assert.equal(shown.hitRate, 3000 / (3050 + 3060));
  });

  it('shows an expired cache as expired (not dropped), with the configured 1-hour TTL', () => {
    const state = recordCall(createCacheState('d1', 'anthropic'), write, T0, { ...anthropic, ttlMs: 60 * MIN });
    assert.equal(describeState(state, T0 + 59 * MIN).status, 'active');
    const later = describeState(state, T0 + 61 * MIN);
    assert.equal(later.status, 'expired');
    assert.equal(later.remainingMs, 0);
    assert.equal(later.ttlLabel, 'expired');
    assert.ok(isExpired(state, T0 + 60 * MIN));
  });

  it('keeps a Gemini expiry fixed on hits (explicit caches are not refreshed)', () => {
    const gemini: CacheCallInfo = {
      provider: 'gemini',
      mode: 'explicit',
      expiresAt: T0 + 60 * MIN,
      cacheName: 'cachedContents/x',
      prefixHash: 'g',
    };
    let state = recordCall(createCacheState('d1', 'gemini'), accountUsage('gemini', { promptTokenCount: 3100 }), T0, gemini);
    assert.equal(describeState(state, T0).status, 'none', 'nothing read or written: nothing cached');
    state = recordCall(state, { ...hit }, T0 + MIN, gemini);
    assert.equal(state.expiresAt, T0 + 60 * MIN);
    assert.equal(state.cacheName, 'cachedContents/x');
    state = recordCall(state, { ...hit }, T0 + 30 * MIN, gemini);
    assert.equal(state.expiresAt, T0 + 60 * MIN);
  });

  it('tracks implicit (OpenAI) caches without an expiry, estimating when they lapse', () => {
    const openai: CacheCallInfo = { provider: 'openai', mode: 'implicit', prefixHash: 'o' };
    const usage = accountUsage('openai', { prompt_tokens: 2000, prompt_tokens_details: { cached_tokens: 1024 } });
    let state = recordCall(createCacheState('d1', 'openai'), accountUsage('openai', { prompt_tokens: 2000 }), T0, openai);
    assert.equal(describeState(state, T0).status, 'none');
    state = recordCall(state, usage, T0 + MIN, openai);
    assert.equal(state.expiresAt, undefined);
    const now = describeState(state, T0 + 2 * MIN);
    assert.deepEqual([now.status, now.remainingMs, now.ttlLabel, now.estimated], ['active', undefined, 'provider-managed', true]);
    assert.equal(describeState(state, T0 + 30 * MIN).status, 'expired');
  });

  it('records nothing cached, and why, when the provider cached nothing', () => {
    const state = recordCall(recordCall(createCacheState('d1', 'anthropic'), write, T0, anthropic), nothing, T0 + MIN, anthropic);
    assert.equal(describeState(state, T0 + MIN).status, 'none');
    assert.match(state.fallbackReason ?? '', /minimum size/);
  });

  it('invalidates on request and when the stable prefix or the provider changes', () => {
    const cached = recordCall(createCacheState('d1', 'anthropic'), write, T0, anthropic);
    const dropped = invalidate(cached, T0 + MIN);
    assert.deepEqual([describeState(dropped, T0 + MIN).status, dropped.lastInvalidated, dropped.invalidatedBy], ['none', T0 + MIN, 'user']);
    const rewritten = recordCall(cached, write, T0 + 2 * MIN, { ...anthropic, prefixHash: 'h2' });
    assert.deepEqual(
      [rewritten.invalidatedBy, rewritten.lastInvalidated, rewritten.cachedAt],
      ['prefix-changed', T0 + 2 * MIN, T0 + 2 * MIN],
    );
    const moved = recordCall(cached, accountUsage('openai', { prompt_tokens: 10 }), T0 + 3 * MIN, { provider: 'openai', mode: 'implicit' });
    assert.deepEqual([moved.provider, moved.invalidatedBy, moved.cachedAt], ['openai', 'provider-changed', undefined]);
  });

  it('disables and enables caching per discussion', () => {
    const cached = recordCall(createCacheState('d1', 'anthropic'), write, T0, anthropic);
    const off = disable(cached, T0 + MIN);
    assert.equal(describeState(off, T0 + MIN).status, 'disabled');
    const stillOff = recordCall(off, hit, T0 + 2 * MIN, anthropic);
    assert.equal(describeState(stillOff, T0 + 2 * MIN).status, 'disabled');
    assert.equal(stillOff.calls, 2, 'calls are still counted');
    const on = enable(stillOff);
    assert.equal(describeState(on, T0 + 2 * MIN).status, 'none');
    assert.equal(describeState(recordCall(on, write, T0 + 3 * MIN, anthropic), T0 + 3 * MIN).status, 'active');
  });

  it('survives a JSON round trip (workspace state), expired entries included', () => {
    const state = recordCall(createCacheState('d1', 'anthropic'), write, T0, anthropic);
    const back = parseCacheState(JSON.parse(JSON.stringify(state)));
    assert.deepEqual(JSON.parse(JSON.stringify(back)), JSON.parse(JSON.stringify(state)));
    assert.equal(describeState(back!, T0 + 10 * MIN).status, 'expired');
    const many = parseCacheStates({ b: state, a: { ...state, discussionId: 'a' }, bad: { provider: 'x' }, worse: 42 });
    assert.deepEqual(
      many.map((s) => s.discussionId),
      ['a', 'd1'],
    );
    assert.equal(parseCacheState({ discussionId: 'x', provider: 'gemini', hits: -4, mode: 'bogus' })?.hits, 0);
    const odd = parseCacheState({
      discussionId: 'y',
      provider: 'anthropic',
      cachingEnabled: false,
      totals: 'lots',
      calls: 2.7,
      mode: 'implicit',
      expiresAt: 'soon',
    });
    assert.deepEqual(
      [odd?.cachingEnabled, odd?.totals.inputTokens, odd?.calls, odd?.mode, odd?.expiresAt],
      [false, 0, 2, 'implicit', undefined],
    );
    assert.equal(parseCacheState({ discussionId: '', provider: 'anthropic' }), undefined);
  });

  it('summarizes per provider for the Cache view', () => {
    const a1 = recordCall(createCacheState('d1', 'anthropic'), write, T0, anthropic);
    const a2 = recordCall(recordCall(createCacheState('d2', 'anthropic'), write, T0, anthropic), hit, T0 + 2 * MIN, anthropic);
    const o = createCacheState('d3', 'openai');
    const [first, second] = summarizeByProvider([o, a2, a1], T0 + 3 * MIN);
    assert.equal(first.provider, 'anthropic');
    assert.equal(first.discussions, 2);
    assert.equal(first.active, 2);
    assert.equal(first.nextExpiryMs, 2 * MIN);
    assert.equal(first.totals.cacheReadTokens, 3000);
    assert.equal(second.provider, 'openai');
  });

  it('formats the remaining time for the status bar', () => {
    assert.equal(formatRemaining(272_000), '4:32');
    assert.equal(formatRemaining(3_723_000), '1:02:03');
    assert.equal(formatRemaining(-5), '0:00');
  });
});

import * as assert from 'node:assert/strict';
import { buildContext, stablePrefix, volatileSuffix } from '../../../src/core/services/context/buildContext';
import { createCacheState, describe as describeState, recordCall } from '../../../src/core/services/promptCache/cacheState';
import { OpenAIAdapter } from '../../../src/core/services/providers/openaiAdapter';
import { createAdapter } from '../../../src/core/services/providers/providerRegistry';
import { estimateTokens } from '../../helpers/stubBodies';
import { startStub, type StubServer } from '../../helpers/stubServers';
import { fullInput } from '../context/contextFixtures';

const T0 = 1_767_225_600_000;

describe('OpenAI caching adapter (implicit prefix cache)', () => {
  let stub: StubServer | undefined;
  afterEach(async () => {
    await stub?.close();
    stub = undefined;
  });

  it('sends the stable prefix as the system message and reads cached_tokens back', async () => {
    stub = await startStub('openai', [{ reply: 'one' }, { reply: 'two' }]);
    const client = new OpenAIAdapter({ baseUrl: stub.baseUrl, env: {}, model: 'stub-model' });
    let state = createCacheState('d1', 'openai');
    const first = buildContext(fullInput({ message: 'first' }));
    const r1 = await client.send(first, { cache: { mode: 'explicit', state } });
    state = recordCall(state, r1.usage, T0, r1.cache);
    const r2 = await client.send(buildContext(fullInput({ message: 'second' })), { cache: { mode: 'explicit', state } });
    state = recordCall(state, r2.usage, T0 + 1000, r2.cache);
    const body = stub.requests[0].body;
    assert.deepEqual(body.messages, [
      { role: 'system', content: stablePrefix(first) },
      { role: 'user', content: volatileSuffix(first) },
    ]);
    assert.equal(body.prompt_cache_key, undefined, 'not sent to a custom endpoint by default');
    assert.equal(r1.usage.cacheReadTokens, 0);
    assert.equal(r2.usage.cacheReadTokens, estimateTokens(stablePrefix(first)));
    assert.equal(r2.usage.inputTokens, r2.usage.cacheReadTokens + r2.usage.uncachedInputTokens);
    assert.equal(r2.cache.mode, 'implicit');
    const shown = describeState(state, T0 + 2000);
    assert.deepEqual([shown.status, shown.ttlLabel, state.expiresAt], ['active', 'provider-managed', undefined]);
  });

  it('sends a prompt_cache_key derived from the prefix when asked, the same across turns', async () => {
    stub = await startStub('openai', [{ reply: 'one' }, { reply: 'two' }]);
    const client = new OpenAIAdapter({ baseUrl: stub.baseUrl, env: {}, promptCacheKey: true });
    await client.send(buildContext(fullInput({ message: 'a' })));
    await client.send(buildContext(fullInput({ message: 'b' })));
    const [k1, k2] = stub.requests.map((r) => r.body.prompt_cache_key);
    assert.match(k1, /^lore-[0-9a-f]{32}$/);
    assert.equal(k1, k2);
  });

  it('is created by name from the registry, like the other adapters', () => {
    for (const vendor of ['openai', 'anthropic', 'gemini', 'ollama'] as const)
      assert.equal(createAdapter(vendor, { env: {} }).name, vendor);
  });
});

import * as assert from 'node:assert/strict';
import { ANTHROPIC_DEFAULT_MODEL, AnthropicAdapter } from '../../../src/core/services/providers/anthropicAdapter';
import { startStub, type StubServer } from '../../helpers/stubServers';
import { describeNetworkProvider, expectProviderError, sampleRequest } from './networkProviderSuite';

describe('AnthropicAdapter', () => {
  describeNetworkProvider({
    kind: 'anthropic',
    make: (options) => new AnthropicAdapter(options),
    defaultModel: ANTHROPIC_DEFAULT_MODEL,
    // inputTokens is the total: uncached 200 + cache read 1000 + cache write 0.
    expectedUsage: { inputTokens: 1200, outputTokens: 34, cacheReadTokens: 1000, cacheWriteTokens: 0 },
    attemptsOn429: 2,
  });

  describe('prompt caching and keys', () => {
    let stub: StubServer | undefined;
    afterEach(async () => {
      await stub?.close();
      stub = undefined;
    });

    it('marks the instructions block for caching and sends max_tokens', async () => {
      stub = await startStub('anthropic', [{ reply: '{}' }]);
      await new AnthropicAdapter({ baseUrl: stub.baseUrl, env: {} }).generate(sampleRequest());
      const body = stub.requests[0].body;
      assert.deepEqual(body.system, [
        { type: 'text', text: 'STABLE-INSTRUCTIONS: extract the items as JSON.', cache_control: { type: 'ephemeral' } },
      ]);
      assert.equal(body.max_tokens, 4096);
      assert.deepEqual(
        body.messages.map((m: { role: string }) => m.role),
        ['user'],
      );
    });

    it('reports a cache write, then a cache read for the same instructions', async () => {
      stub = await startStub('anthropic', [{ reply: '{}' }, { reply: '{}' }]);
      const provider = new AnthropicAdapter({ baseUrl: stub.baseUrl, env: {} });
      const first = await provider.generate(sampleRequest());
      const second = await provider.generate(sampleRequest({ content: 'another conversation' }));
      assert.ok((first.usage?.cacheWriteTokens ?? 0) > 0);
      assert.equal(first.usage?.cacheReadTokens, 0);
      assert.equal(second.usage?.cacheReadTokens, first.usage?.cacheWriteTokens);
    });

    it('refuses the default endpoint without a key, naming ANTHROPIC_API_KEY', async () => {
      const error = await expectProviderError(new AnthropicAdapter({ env: {} }).generate(sampleRequest()), 'auth');
      assert.match(error.message, /ANTHROPIC_API_KEY/);
    });

    it('uses ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY from the given environment', async () => {
      stub = await startStub('anthropic', [{ reply: '{}' }]);
      const provider = new AnthropicAdapter({ env: { ANTHROPIC_BASE_URL: stub.baseUrl, ANTHROPIC_API_KEY: 'sk-ant-env' } });
      await provider.generate(sampleRequest());
      const headers = stub.requests[0].headers;
      assert.ok(headers['x-api-key'] === 'sk-ant-env' || headers.authorization === 'Bearer sk-ant-env');
    });
  });
});

import * as assert from 'node:assert/strict';
import { OPENAI_DEFAULT_MODEL, OpenAIAdapter } from '../../../src/core/services/providers/openaiAdapter';
import { startStub, type StubServer } from '../../helpers/stubServers';
import { describeNetworkProvider, expectProviderError, sampleRequest } from './networkProviderSuite';

describe('OpenAIAdapter', () => {
  describeNetworkProvider({
    kind: 'openai',
    make: (options) => new OpenAIAdapter(options),
    defaultModel: OPENAI_DEFAULT_MODEL,
    expectedUsage: { inputTokens: 1200, outputTokens: 34, cacheReadTokens: 1000, cacheWriteTokens: 0 },
    attemptsOn429: 2,
  });

  describe('keys and endpoints', () => {
    let stub: StubServer | undefined;
    afterEach(async () => {
      await stub?.close();
      stub = undefined;
    });

    it('refuses the default endpoint without a key, naming OPENAI_API_KEY', async () => {
      const error = await expectProviderError(new OpenAIAdapter({ env: {} }).generate(sampleRequest()), 'auth');
      assert.match(error.message, /OPENAI_API_KEY/);
    });

    it('sends a placeholder key to a custom endpoint when none is set', async () => {
      stub = await startStub('openai', [{ reply: '{}' }]);
      await new OpenAIAdapter({ baseUrl: stub.baseUrl, env: {} }).generate(sampleRequest());
      assert.equal(stub.requests[0].headers.authorization, 'Bearer not-needed');
    });

    it('reads the key and base URL from the given environment', async () => {
      stub = await startStub('openai', [{ reply: '{}' }]);
      const provider = new OpenAIAdapter({ env: { OPENAI_API_KEY: 'sk-from-env', OPENAI_BASE_URL: stub.baseUrl } });
      assert.equal(provider.label, `openai gpt-4o-mini @ ${stub.baseUrl}`);
      await provider.generate(sampleRequest({ model: undefined }));
      assert.equal(stub.requests[0].headers.authorization, 'Bearer sk-from-env');
      assert.equal(stub.requests[0].prompt.model, 'gpt-4o-mini');
    });

    it('sends a system message then a user message', async () => {
      stub = await startStub('openai', [{ reply: '{}' }]);
      await new OpenAIAdapter({ baseUrl: stub.baseUrl, env: {} }).generate(sampleRequest());
      assert.deepEqual(
        stub.requests[0].body.messages.map((m: { role: string }) => m.role),
        ['system', 'user'],
      );
    });

    it('reports cached prompt tokens on a repeated prefix', async () => {
      stub = await startStub('openai', [{ reply: '{}' }, { reply: '{}' }]);
      const provider = new OpenAIAdapter({ baseUrl: stub.baseUrl, env: {} });
      const first = await provider.generate(sampleRequest());
      const second = await provider.generate(sampleRequest({ content: 'another conversation' }));
      assert.equal(first.usage?.cacheReadTokens, 0);
      assert.ok((second.usage?.cacheReadTokens ?? 0) > 0);
    });
  });
});

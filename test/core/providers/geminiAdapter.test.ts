import * as assert from 'node:assert/strict';
import { HARVEST_REPLY_SCHEMA } from '../../../src/core/services/harvest/replySchema';
import { GEMINI_DEFAULT_MODEL, GeminiAdapter } from '../../../src/core/services/providers/geminiAdapter';
import { startStub, type StubServer } from '../../helpers/stubServers';
import { describeNetworkProvider, expectProviderError, sampleRequest } from './networkProviderSuite';

describe('GeminiAdapter', () => {
  describeNetworkProvider({
    kind: 'gemini',
    make: (options) => new GeminiAdapter(options),
    defaultModel: GEMINI_DEFAULT_MODEL,
    expectedUsage: { inputTokens: 1200, outputTokens: 34, cacheReadTokens: 1000, cacheWriteTokens: 0 },
    attemptsOn429: 2,
  });

  describe('request shape and keys', () => {
    let stub: StubServer | undefined;
    afterEach(async () => {
      await stub?.close();
      stub = undefined;
    });

    it('puts the model in the path, the instructions in systemInstruction, and the reply schema as JSON on harvest', async () => {
      stub = await startStub('gemini', [{ reply: '{}' }, { reply: 'summary' }]);
      const provider = new GeminiAdapter({ baseUrl: stub.baseUrl, env: {} });
      await provider.generate(sampleRequest({ replySchema: HARVEST_REPLY_SCHEMA }));
      await provider.generate(sampleRequest({ task: 'summarize' }));
      const [harvest, summarize] = stub.requests;
      assert.match(harvest.path, /^\/v1(?:beta)?\/models\/stub-model-1:generateContent$/);
      assert.deepEqual(harvest.body.systemInstruction.parts, [{ text: 'STABLE-INSTRUCTIONS: extract the items as JSON.' }]);
      assert.equal(harvest.body.generationConfig.responseMimeType, 'application/json');
      assert.deepEqual(harvest.body.generationConfig.responseJsonSchema, HARVEST_REPLY_SCHEMA.schema);
      assert.equal(summarize.body.generationConfig?.responseMimeType, undefined);
    });

    it('sends the key from GEMINI_API_KEY, else GOOGLE_API_KEY', async () => {
      stub = await startStub('gemini', [{ reply: '{}' }, { reply: '{}' }]);
      await new GeminiAdapter({ baseUrl: stub.baseUrl, env: { GEMINI_API_KEY: 'g-1', GOOGLE_API_KEY: 'g-2' } }).generate(sampleRequest());
      await new GeminiAdapter({ baseUrl: stub.baseUrl, env: { GOOGLE_API_KEY: 'g-2' } }).generate(sampleRequest());
      assert.equal(stub.requests[0].headers['x-goog-api-key'], 'g-1');
      assert.equal(stub.requests[1].headers['x-goog-api-key'], 'g-2');
    });

    it('reads GEMINI_BASE_URL from the given environment', async () => {
      stub = await startStub('gemini', [{ reply: '{}' }]);
      const provider = new GeminiAdapter({ env: { GEMINI_BASE_URL: stub.baseUrl, GEMINI_API_KEY: 'g' } });
      assert.equal(provider.label, `gemini gemini-2.5-flash @ ${stub.baseUrl}`);
      assert.equal((await provider.generate(sampleRequest())).text, '{}');
    });

    it('refuses the default endpoint without a key, naming GEMINI_API_KEY', async () => {
      const error = await expectProviderError(new GeminiAdapter({ env: {} }).generate(sampleRequest()), 'auth');
      assert.match(error.message, /GEMINI_API_KEY/);
    });
  });
});

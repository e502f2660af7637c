import * as assert from 'node:assert/strict';
import { HARVEST_REPLY_SCHEMA } from '../../../src/core/services/harvest/replySchema';
import { OLLAMA_DEFAULT_MODEL, OLLAMA_NUM_CTX, OllamaAdapter } from '../../../src/core/services/providers/ollamaAdapter';
import { closedPortBaseUrl, startStub, type StubServer } from '../../helpers/stubServers';
import { describeNetworkProvider, expectProviderError, sampleRequest } from './networkProviderSuite';

describe('OllamaAdapter', () => {
  describeNetworkProvider({
    kind: 'ollama',
    make: (options) => new OllamaAdapter(options),
    defaultModel: OLLAMA_DEFAULT_MODEL,
    // Ollama reports no cache use: zero, not unknown.
    expectedUsage: { inputTokens: 1200, outputTokens: 34, cacheReadTokens: 0, cacheWriteTokens: 0 },
    // The ollama client does not retry, and a local server gains nothing from it.
    attemptsOn429: 1,
  });

  describe('request shape and host', () => {
    let stub: StubServer | undefined;
    afterEach(async () => {
      await stub?.close();
      stub = undefined;
    });

    it('sends the reply schema as format on harvest only, unstreamed, with a fixed context window', async () => {
      stub = await startStub('ollama', [{ reply: '{}' }, { reply: 'summary' }]);
      const provider = new OllamaAdapter({ baseUrl: stub.baseUrl, env: {} });
      await provider.generate(sampleRequest({ replySchema: HARVEST_REPLY_SCHEMA }));
      await provider.generate(sampleRequest({ task: 'summarize' }));
      const [harvest, summarize] = stub.requests;
      assert.deepEqual(harvest.body.format, HARVEST_REPLY_SCHEMA.schema);
      assert.equal(harvest.body.stream, false);
      assert.equal(harvest.body.options.num_ctx, OLLAMA_NUM_CTX);
      assert.deepEqual(
        harvest.body.messages.map((m: { role: string }) => m.role),
        ['system', 'user'],
      );
      assert.equal(summarize.body.format, undefined);
    });

    it('reads OLLAMA_HOST from the given environment', async () => {
      stub = await startStub('ollama', [{ reply: 'hi' }]);
      const provider = new OllamaAdapter({ env: { OLLAMA_HOST: stub.baseUrl } });
      assert.equal(provider.label, `ollama llama3.2 @ ${stub.baseUrl}`);
      assert.equal((await provider.generate(sampleRequest({ model: undefined }))).text, 'hi');
      assert.equal(stub.requests[0].prompt.model, 'llama3.2');
    });

    it('suggests starting Ollama when nothing listens', async () => {
      const provider = new OllamaAdapter({ baseUrl: await closedPortBaseUrl('ollama'), env: {} });
      const error = await expectProviderError(provider.generate(sampleRequest()), 'unavailable');
      assert.match(error.message, /ollama serve/);
    });

    it('reports a missing model as bad-request with the server’s explanation', async () => {
      stub = await startStub('ollama', [{ status: 404, body: { error: 'model "nope" not found, try pulling it first' } }]);
      const provider = new OllamaAdapter({ baseUrl: stub.baseUrl, env: {} });
      const error = await expectProviderError(provider.generate(sampleRequest({ model: 'nope' })), 'bad-request');
      assert.match(error.message, /try pulling it first/);
    });
  });
});

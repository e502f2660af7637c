/**
 * What each vendor's adapter puts on the wire for the two per-call policies: the reply schema
 * (structured output) and prompt caching. Run against the loopback stubs with the real SDKs.
 */
import * as assert from 'node:assert/strict';
import { z } from 'zod';
import { HARVEST_REPLY_SCHEMA, harvestReplySchema } from '../../../src/core/services/harvest/replySchema';
import { NETWORK_VENDORS, type NetworkVendor } from '../../../src/core/services/providers/endpoints';
import { createAdapter } from '../../../src/core/services/providers/providerRegistry';
import { startStub, type StubServer } from '../../helpers/stubServers';
import { expectProviderError, sampleRequest } from './networkProviderSuite';

/** Where each vendor's API carries a JSON Schema for the reply. */
const schemaOf: Record<NetworkVendor, (body: any) => unknown> = {
  openai: (body) => body.response_format?.json_schema?.schema,
  anthropic: (body) => body.output_config?.format?.schema,
  gemini: (body) => body.generationConfig?.responseJsonSchema,
  ollama: (body) => (typeof body.format === 'object' ? body.format : undefined),
};

describe('per-call policies on the wire', () => {
  let stub: StubServer | undefined;
  afterEach(async () => {
    await stub?.close();
    stub = undefined;
  });

  it('generates the JSON Schema from the zod schema: every category required, closed objects', () => {
    const schema = HARVEST_REPLY_SCHEMA.schema as { required: string[]; additionalProperties: boolean; properties: Record<string, any> };
    assert.deepEqual(schema.required, Object.keys(harvestReplySchema.shape));
    assert.equal(schema.additionalProperties, false);
    assert.deepEqual(schema.properties.facts.items.required, ['statement', 'detail', 'same_as', 'supersedes']);
    assert.equal(schema.properties.facts.items.properties.supersedes.type, 'array');
    assert.equal('$schema' in schema, false, 'some APIs refuse the dialect marker');
    // The same definition validates what the schema describes.
    assert.ok(
      harvestReplySchema.safeParse({ facts: [], decisions: [], tasks_done: [], tasks_open: [], questions: [], playbooks: [], files: [] })
        .success,
    );
    assert.deepEqual(z.toJSONSchema(harvestReplySchema).required, schema.required);
  });

  for (const vendor of NETWORK_VENDORS) {
    it(`${vendor}: sends the reply schema when the request has one, and none otherwise`, async () => {
      stub = await startStub(vendor, [{ reply: '{}' }, { reply: 'summary' }]);
      const adapter = createAdapter(vendor, { baseUrl: stub.baseUrl, env: {} });
      await adapter.generate(sampleRequest({ replySchema: HARVEST_REPLY_SCHEMA }));
      await adapter.generate(sampleRequest({ task: 'summarize' }));
      assert.deepEqual(schemaOf[vendor](stub.requests[0].body), HARVEST_REPLY_SCHEMA.schema);
      assert.equal(schemaOf[vendor](stub.requests[1].body), undefined);
    });
  }

  it('openai: asks for strict json_schema output under the schema’s name', async () => {
    stub = await startStub('openai', [{ reply: '{}' }]);
    await createAdapter('openai', { baseUrl: stub.baseUrl, env: {} }).generate(sampleRequest({ replySchema: HARVEST_REPLY_SCHEMA }));
    const format = stub.requests[0].body.response_format;
    assert.equal(format.type, 'json_schema');
    assert.equal(format.json_schema.name, 'harvest_reply');
    assert.equal(format.json_schema.strict, true);
  });

  it('retries once without the schema when the endpoint rejects structured output, then stops sending it', async () => {
    const rejection = {
      status: 400,
      body: { error: { message: "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model." } },
    };
    stub = await startStub('openai', [rejection, { reply: '{"facts":[]}' }, { reply: '{}' }]);
    const adapter = createAdapter('openai', { baseUrl: stub.baseUrl, env: {} });
    assert.equal((await adapter.generate(sampleRequest({ replySchema: HARVEST_REPLY_SCHEMA }))).text, '{"facts":[]}');
    await adapter.generate(sampleRequest({ replySchema: HARVEST_REPLY_SCHEMA }));
    assert.deepEqual(
      stub.requests.map((r) => r.body.response_format?.type),
      ['json_schema', undefined, undefined],
    );
  });

  it('does not retry a 400 that is not about the schema', async () => {
    stub = await startStub('openai', [{ status: 400, body: { error: { message: 'context length exceeded' } } }, { reply: '{}' }]);
    const adapter = createAdapter('openai', { baseUrl: stub.baseUrl, env: {} });
    await expectProviderError(adapter.generate(sampleRequest({ replySchema: HARVEST_REPLY_SCHEMA })), 'bad-request');
    assert.equal(stub.requests.length, 1);
  });

  it('anthropic: marks the prefix for caching under implicit and explicit policies, not under off', async () => {
    stub = await startStub('anthropic', [{ reply: '{}' }, { reply: '{}' }, { reply: '{}' }]);
    const adapter = createAdapter('anthropic', { baseUrl: stub.baseUrl, env: {} });
    await adapter.generate(sampleRequest());
    await adapter.generate(sampleRequest({ cache: { mode: 'explicit' } }));
    await adapter.generate(sampleRequest({ cache: { mode: 'off' } }));
    const marked = stub.requests.map((r) => r.body.system.some((block: { cache_control?: unknown }) => block.cache_control));
    assert.deepEqual(marked, [true, true, false]);
    assert.equal(stub.requests[2].body.system[0].text, 'STABLE-INSTRUCTIONS: extract the items as JSON.', 'the same bytes, unmarked');
  });

  it('openai: sends prompt_cache_key unless the policy is off', async () => {
    stub = await startStub('openai', [{ reply: '{}' }, { reply: '{}' }]);
    const adapter = createAdapter('openai', { baseUrl: stub.baseUrl, env: {}, promptCacheKey: true });
    await adapter.generate(sampleRequest());
    await adapter.generate(sampleRequest({ cache: { mode: 'off' } }));
    assert.match(stub.requests[0].body.prompt_cache_key, /^lore-[0-9a-f]{32}$/);
    assert.equal(stub.requests[1].body.prompt_cache_key, undefined);
  });

  it('ollama: the same request under every policy, since it has no cache API', async () => {
    stub = await startStub('ollama', [{ reply: '{}' }, { reply: '{}' }]);
    const adapter = createAdapter('ollama', { baseUrl: stub.baseUrl, env: {} });
    await adapter.generate(sampleRequest({ cache: { mode: 'explicit' } }));
    await adapter.generate(sampleRequest({ cache: { mode: 'off' } }));
    assert.deepEqual(stub.requests[0].body, stub.requests[1].body);
  });

  it('keeps the key out of an error message that echoes it', async () => {
    const key = 'sk-proj-ECHOEDKEY0123456789abcdef';
    stub = await startStub('openai', [{ status: 401, body: { error: { message: `Incorrect API key provided: ${key}` } } }]);
    const error = await expectProviderError(
      createAdapter('openai', { baseUrl: stub.baseUrl, apiKey: key, env: {} }).generate(sampleRequest()),
      'auth',
    );
    assert.ok(!error.message.includes(key), error.message);
    assert.match(error.message, /REDACTED/);
  });
});

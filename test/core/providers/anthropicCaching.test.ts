import * as assert from 'node:assert/strict';
import { buildContext, stablePrefix, volatileSuffix } from '../../../src/core/services/context/buildContext';
import { createCacheState, describe as describeState, recordCall } from '../../../src/core/services/promptCache/cacheState';
import { AnthropicAdapter, anthropicCacheRequest } from '../../../src/core/services/providers/anthropicAdapter';
import { ProviderError } from '../../../src/core/services/providers/provider';
import { anthropicPrefixCache } from '../../helpers/cacheStubs';
import { errorBody, estimateTokens } from '../../helpers/stubBodies';
import { startStub, type StubServer } from '../../helpers/stubServers';
import { fullInput } from '../context/contextFixtures';

const T0 = 1_767_225_600_000;
const MIN = 60_000;

describe('Anthropic caching adapter', () => {
  describe('anthropicCacheRequest', () => {
    it('cuts the stable prefix into at most 3 marked blocks at the last stable layer ends', () => {
      const built = buildContext(fullInput());
      const request = anthropicCacheRequest(built, { enabled: true });
      assert.equal(request.system.length, 3);
      assert.deepEqual(
        request.breakpoints.map((b) => b.layer),
        ['project', 'knowledge', 'file-notes'],
      );
      assert.equal(request.system.map((b) => b.text).join(''), stablePrefix(built));
      for (const block of request.system) {
        assert.deepEqual(block.cache_control, { type: 'ephemeral' });
        assert.ok(block.text.trim().length > 0, 'no empty blocks');
      }
      assert.equal(request.user, volatileSuffix(built));
    });

    it('picks end of tools, end of digest, end of notes when there is no project context', () => {
      const request = anthropicCacheRequest(buildContext(fullInput({ project: undefined })), { enabled: true });
      assert.deepEqual(
        request.breakpoints.map((b) => b.layer),
        ['tools', 'knowledge', 'file-notes'],
      );
      assert.ok(request.system[0].text.endsWith('{/tools}\n'));
    });

    it('marks fewer blocks when fewer stable layers exist, and asks for 1 h when configured', () => {
      const request = anthropicCacheRequest(buildContext({ role: 'Be brief.', digest: '- a fact', message: 'hi' }), {
        enabled: true,
        ttl: '1h',
      });
      assert.deepEqual(
        request.breakpoints.map((b) => b.layer),
        ['role', 'knowledge'],
      );
      assert.deepEqual(
        request.system.map((b) => b.cache_control),
        [
          { type: 'ephemeral', ttl: '1h' },
          { type: 'ephemeral', ttl: '1h' },
        ],
      );
    });

    it('sends the same bytes unmarked when caching is off, and no system without a stable prefix', () => {
      const built = buildContext(fullInput());
      assert.deepEqual(anthropicCacheRequest(built, { enabled: false }).system, [{ type: 'text', text: stablePrefix(built) }]);
      const bare = anthropicCacheRequest(buildContext({ message: 'hi' }), { enabled: true });
      assert.deepEqual([bare.system, bare.user], [[], '{message}\nhi\n{/message}\n']);
    });
  });

  describe('against the loopback stub with a simulated prefix cache', () => {
    let stub: StubServer | undefined;
    let clock = T0;
    afterEach(async () => {
      await stub?.close();
      stub = undefined;
    });

    async function start() {
      clock = T0;
      const cache = anthropicPrefixCache({ now: () => clock });
      stub = await startStub('anthropic', [], { whenExhausted: cache.step });
      return new AnthropicAdapter({ baseUrl: stub.baseUrl, env: {}, model: 'stub-model' });
    }

    it('writes the prefix on the first turn, reads it on the next, reads up to the digest after a notes change', async () => {
      const client = await start();
      let state = createCacheState('d1', 'anthropic');
      const turn = async (input: Parameters<typeof fullInput>[0]) => {
        const built = buildContext(fullInput(input));
        const reply = await client.send(built, { cache: { mode: 'explicit', state } });
        state = recordCall(state, reply.usage, clock, reply.cache);
        return { built, reply };
      };

      const first = await turn({ message: 'first' });
      const stableTokens = estimateTokens(stablePrefix(first.built));
      assert.equal(first.reply.usage.cacheWriteTokens, stableTokens);
      assert.equal(first.reply.usage.cacheReadTokens, 0);
      assert.equal(first.reply.usage.inputTokens, stableTokens + estimateTokens(volatileSuffix(first.built)));
      assert.equal(first.reply.cache.mode, 'ephemeral');
      assert.deepEqual(describeState(state, clock).remainingMs, 5 * MIN);
      const body = stub!.requests[0].body;
      assert.equal(body.system.length, 3);
      assert.equal(body.messages[0].content, volatileSuffix(first.built));

      clock += MIN;
      const second = await turn({ message: 'second', discussion: { turns: 2 } });
      assert.deepEqual([second.reply.usage.cacheReadTokens, second.reply.usage.cacheWriteTokens], [stableTokens, 0]);
      assert.equal(state.hits, 1);
      assert.equal(state.expiresAt, clock + 5 * MIN, 'a hit refreshes the TTL');

      clock += MIN;
      const notes = [...fullInput().fileNotes!, { path: 'src/c.ts', notes: ['C is new.'] }];
      const third = await turn({ message: 'third', fileNotes: notes });
      const knowledgeEnd = third.built.boundaries.find((b) => b.layer === 'knowledge')!.end;
      const upToDigest = estimateTokens(third.built.text.slice(0, knowledgeEnd));
      assert.equal(third.reply.usage.cacheReadTokens, upToDigest);
      assert.equal(third.reply.usage.cacheWriteTokens, estimateTokens(stablePrefix(third.built)) - upToDigest);
      assert.equal(state.invalidatedBy, 'prefix-changed');

      clock += 6 * MIN;
      assert.equal(describeState(state, clock).status, 'expired', 'shown as expired after a reload, not dropped');
      const fourth = await turn({ message: 'fourth', fileNotes: notes });
      assert.deepEqual(
        [fourth.reply.usage.cacheReadTokens > 0, fourth.reply.usage.cacheWriteTokens],
        [false, estimateTokens(stablePrefix(fourth.built))],
      );
      assert.equal(describeState(state, clock).status, 'active');
    });

    it('sends no cache markers for a discussion with caching disabled', async () => {
      const client = await start();
      const state = { ...createCacheState('d1', 'anthropic'), cachingEnabled: false };
      const reply = await client.send(buildContext(fullInput()), { cache: { mode: 'explicit', state } });
      assert.ok(stub!.requests[0].body.system.every((b: { cache_control?: unknown }) => b.cache_control === undefined));
      assert.equal(reply.cache.mode, 'off');
      assert.equal(reply.usage.cacheReadTokens + reply.usage.cacheWriteTokens, 0);
      assert.equal(describeState(recordCall(state, reply.usage, clock, reply.cache), clock).status, 'disabled');
    });

    it('asks for the 1-hour TTL when configured and the state expires an hour later', async () => {
      await start();
      const client = new AnthropicAdapter({ baseUrl: stub!.baseUrl, env: {}, cacheTtl: '1h' });
      const reply = await client.send(buildContext(fullInput()));
      assert.deepEqual(stub!.requests[0].body.system[0].cache_control, { type: 'ephemeral', ttl: '1h' });
      assert.equal(recordCall(createCacheState('d', 'anthropic'), reply.usage, T0, reply.cache).expiresAt, T0 + 60 * MIN);
    });
  });

  describe('errors', () => {
    let stub: StubServer | undefined;
    afterEach(async () => {
      await stub?.close();
      stub = undefined;
    });

    it('falls back to unmarked blocks when the API refuses a cache marker, and remembers why', async () => {
      const refusal =
        'system.2.cache_control: The message up to and including the first cache-control block must be at least 2048 tokens. Found: 1432.';
      stub = await startStub('anthropic', [
        { status: 400, body: errorBody('anthropic', 400, refusal) },
        { reply: 'ok' },
        { reply: 'ok again' },
      ]);
      const client = new AnthropicAdapter({ baseUrl: stub.baseUrl, env: {} });
      const reply = await client.send(buildContext(fullInput()));
      assert.equal(reply.text, 'ok');
      assert.equal(reply.cache.mode, 'off');
      assert.match(reply.cache.fallbackReason ?? '', /refused the cache markers.*2048 tokens/);
      const again = await client.send(buildContext(fullInput({ message: 'again' })));
      assert.equal(again.cache.mode, 'off');
      assert.equal(stub.requests.length, 3);
      assert.ok(stub.requests.slice(1).every((r) => r.body.system.every((b: { cache_control?: unknown }) => !b.cache_control)));
    });

    it('refuses a context without a message before any request', async () => {
      stub = await startStub('anthropic', []);
      const client = new AnthropicAdapter({ baseUrl: stub.baseUrl, env: {} });
      await assert.rejects(
        client.send(
          buildContext(fullInput({ message: undefined, discussion: undefined, activeFiles: [], earlierTurns: [], searchHits: [] })),
        ),
        (e: unknown) => e instanceof ProviderError && e.kind === 'bad-request',
      );
      assert.equal(stub.requests.length, 0);
    });

    it('passes other errors through as classified ProviderErrors', async () => {
      stub = await startStub('anthropic', [{ status: 401 }]);
      const client = new AnthropicAdapter({ baseUrl: stub.baseUrl, env: {} });
      await assert.rejects(client.send(buildContext(fullInput())), (e: unknown) => e instanceof ProviderError && e.kind === 'auth');
    });
  });
});

import * as assert from 'node:assert/strict';
import { HARVEST_REPLY_SCHEMA } from '../../../src/core/services/harvest/replySchema';
import { buildContext, stablePrefix, volatileSuffix } from '../../../src/core/services/context/buildContext';
import {
  createCacheState,
  describe as describeState,
  disable as disableState,
  invalidate as invalidateState,
  recordCall,
  type DiscussionCacheState,
} from '../../../src/core/services/promptCache/cacheState';
import { GeminiAdapter } from '../../../src/core/services/providers/geminiAdapter';
import { startGeminiCacheStub, type GeminiCacheStub } from '../../helpers/cacheStubs';
import { estimateTokens } from '../../helpers/stubBodies';
import { fullInput } from '../context/contextFixtures';

const T0 = 1_767_225_600_000;
const MIN = 60_000;

describe('Gemini caching adapter (explicit cachedContents)', () => {
  let stub: GeminiCacheStub | undefined;
  let clock = T0;
  afterEach(async () => {
    await stub?.close();
    stub = undefined;
  });

  /** A stub and a client sharing one fake clock; a small minimum so the fixture context caches. */
  async function start(options: { minCacheTokens?: number; cacheTtlSeconds?: number } = {}) {
    clock = T0;
    stub = await startGeminiCacheStub({ now: () => clock, minCacheTokens: options.minCacheTokens ?? 50 });
    const client = new GeminiAdapter({
      baseUrl: stub.baseUrl,
      env: {},
      model: 'stub-model',
      now: () => clock,
      cacheTtlSeconds: options.cacheTtlSeconds,
    });
    return client;
  }

  const creates = () => stub!.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/cachedContents'));
  const deletes = () => stub!.requests.filter((r) => r.method === 'DELETE');

  it('caches the stable prefix once and references it from later turns', async () => {
    const client = await start();
    let state = createCacheState('d1', 'gemini');
    const first = buildContext(fullInput({ message: 'first' }));
    const r1 = await client.send(first, { cache: { mode: 'explicit', state } });
    state = recordCall(state, r1.usage, clock, r1.cache);
    assert.equal(creates().length, 1);
    const create = creates()[0].body;
    assert.equal(create.systemInstruction.parts[0].text, stablePrefix(first));
    assert.equal(create.ttl, '3600s', 'default TTL 1 h');
    assert.equal(create.model, 'models/stub-model');
    const gen = stub!.generations()[0].body;
    assert.equal(gen.cachedContent, r1.cache.cacheName);
    assert.equal(gen.systemInstruction, undefined, 'the API rejects a system instruction next to a cache');
    assert.equal(gen.contents[0].parts[0].text, volatileSuffix(first));
    const prefixTokens = estimateTokens(stablePrefix(first));
    // The turn that created the cache wrote it.
    assert.deepEqual([r1.usage.cacheWriteTokens, r1.usage.cacheReadTokens], [prefixTokens, 0]);
    assert.equal(r1.cache.mode, 'explicit');
    assert.equal(state.expiresAt, T0 + 60 * MIN);

    clock += 10 * MIN;
    const r2 = await client.send(buildContext(fullInput({ message: 'second' })), { cache: { mode: 'explicit', state } });
    state = recordCall(state, r2.usage, clock, r2.cache);
    assert.equal(creates().length, 1, 'no second cache for the same prefix');
    assert.deepEqual([r2.usage.cacheReadTokens, r2.usage.cacheWriteTokens], [prefixTokens, 0]);
    assert.equal(state.hits, 1);
    assert.equal(describeState(state, clock).remainingMs, 50 * MIN, 'explicit caches are not refreshed by hits');
  });

  it('uses the configured TTL and re-creates the cache once it expired', async () => {
    const client = await start({ cacheTtlSeconds: 600 });
    await client.send(buildContext(fullInput()));
    assert.equal(creates()[0].body.ttl, '600s');
    clock += 11 * MIN;
    const reply = await client.send(buildContext(fullInput({ message: 'later' })));
    assert.equal(creates().length, 2);
    assert.equal(reply.cache.expiresAt, clock + 10 * MIN);
    assert.ok(reply.usage.cacheWriteTokens > 0);
  });

  it('re-creates the cache when the prefix hash changes and deletes the replaced one', async () => {
    const client = await start();
    const r1 = await client.send(buildContext(fullInput()));
    const r2 = await client.send(buildContext(fullInput({ digest: '# Knowledge digest\n\n## Facts\n- A new harvest happened.\n' })));
    assert.equal(creates().length, 2);
    assert.notEqual(r1.cache.prefixHash, r2.cache.prefixHash);
    assert.deepEqual(
      deletes().map((r) => r.path.replace(/^\/v1\w*\//, '')),
      [r1.cache.cacheName],
    );
    assert.deepEqual([...stub!.caches.keys()], [r2.cache.cacheName]);
  });

  it('re-creates once when the server lost the cache before its expiry', async () => {
    const client = await start();
    const r1 = await client.send(buildContext(fullInput()));
    stub!.caches.delete(r1.cache.cacheName!);
    const r2 = await client.send(buildContext(fullInput({ message: 'again' })));
    assert.equal(creates().length, 2);
    assert.notEqual(r2.cache.cacheName, r1.cache.cacheName);
    assert.equal(r2.text, 'ok');
  });

  it('falls back to no cache when the prefix is below the minimum, and remembers why', async () => {
    const client = await start({ minCacheTokens: 1_000_000 });
    let state = createCacheState('d1', 'gemini');
    const built = buildContext(fullInput());
    const r1 = await client.send(built, { cache: { mode: 'explicit', state } });
    state = recordCall(state, r1.usage, clock, r1.cache);
    assert.equal(r1.cache.mode, 'off');
    assert.match(r1.cache.fallbackReason ?? '', /below Gemini's minimum.*Cached content is too small/);
    assert.match(client.refusalFor(built, 'stub-model') ?? '', /too small/);
    const gen = stub!.generations()[0].body;
    assert.equal(gen.cachedContent, undefined);
    assert.equal(gen.systemInstruction.parts[0].text, stablePrefix(built), 'same bytes, same place, uncached');
    await client.send(buildContext(fullInput({ message: 'again' })), { cache: { mode: 'explicit', state } });
    assert.equal(creates().length, 1, 'the refusal is remembered for this prefix');
    const shown = describeState(state, clock);
    assert.equal(shown.status, 'none');
    assert.match(shown.fallbackReason ?? '', /minimum/);
  });

  it('creates nothing for a discussion with caching disabled', async () => {
    const client = await start();
    const state: DiscussionCacheState = { ...createCacheState('d1', 'gemini'), cachingEnabled: false };
    const reply = await client.send(buildContext(fullInput()), { cache: { mode: 'explicit', state } });
    assert.equal(creates().length, 0);
    assert.equal(reply.cache.mode, 'off');
  });

  it('invalidates by deleting the cachedContent, then creates a new one on the next turn', async () => {
    const client = await start();
    let state = createCacheState('d1', 'gemini');
    const r1 = await client.send(buildContext(fullInput()), { cache: { mode: 'explicit', state } });
    state = recordCall(state, r1.usage, clock, r1.cache);
    assert.equal(await client.invalidate(state), true);
    assert.equal(stub!.caches.size, 0);
    assert.equal(await client.invalidate(state), false, 'nothing left to delete');
    await client.send(buildContext(fullInput()), { cache: { mode: 'explicit', state } });
    assert.equal(creates().length, 2);
  });

  it('honours an invalidation recorded only in the state, and keeps the cache after a prefix change', async () => {
    const client = await start();
    let state = createCacheState('d1', 'gemini');
    const r1 = await client.send(buildContext(fullInput()), { cache: { mode: 'explicit', state } });
    state = recordCall(state, r1.usage, clock, r1.cache);
    clock += MIN;
    state = invalidateState(state, clock);
    clock += MIN;
    const r2 = await client.send(buildContext(fullInput()), { cache: { mode: 'explicit', state } });
    state = recordCall(state, r2.usage, clock, r2.cache);
    assert.equal(creates().length, 2);
    assert.deepEqual(
      deletes().map((r) => r.path.replace(/^\/v1\w*\//, '')),
      [r1.cache.cacheName],
    );
    clock += MIN;
    const r3 = await client.send(buildContext(fullInput({ digest: 'changed' })), { cache: { mode: 'explicit', state } });
    state = recordCall(state, r3.usage, clock, r3.cache);
    assert.equal(state.invalidatedBy, 'prefix-changed');
    clock += MIN;
    const r4 = await client.send(buildContext(fullInput({ digest: 'changed', message: 'next' })), { cache: { mode: 'explicit', state } });
    assert.equal(creates().length, 3, 'the cache made for the new prefix is kept');
    assert.equal(r4.cache.cacheName, r3.cache.cacheName);
  });

  it('deletes the cache when the discussion turns caching off', async () => {
    const client = await start();
    let state = createCacheState('d1', 'gemini');
    const r1 = await client.send(buildContext(fullInput()), { cache: { mode: 'explicit', state } });
    state = disableState(recordCall(state, r1.usage, clock, r1.cache), clock);
    await client.send(buildContext(fullInput({ message: 'off' })), { cache: { mode: 'explicit', state } });
    assert.equal(stub!.caches.size, 0);
    assert.equal(stub!.generations()[1].body.cachedContent, undefined);
  });

  it('reuses the cache named in a persisted state after a reload (a new client)', async () => {
    const first = await start();
    let state = createCacheState('d1', 'gemini');
    const r1 = await first.send(buildContext(fullInput()), { cache: { mode: 'explicit', state } });
    state = recordCall(state, r1.usage, clock, r1.cache);
    const restored = JSON.parse(JSON.stringify(state)) as DiscussionCacheState;
    const second = new GeminiAdapter({ baseUrl: stub!.baseUrl, env: {}, model: 'stub-model', now: () => clock });
    const r2 = await second.send(buildContext(fullInput({ message: 'after reload' })), { cache: { mode: 'explicit', state: restored } });
    assert.equal(creates().length, 1);
    assert.equal(r2.cache.cacheName, r1.cache.cacheName);
    assert.ok(r2.usage.cacheReadTokens > 0);
  });

  it('runs a harvest request as a Provider (JSON reply requested)', async () => {
    const client = await start({ minCacheTokens: 1_000_000 });
    const reply = await client.generate({
      task: 'harvest',
      instructions: 'Extract JSON.',
      content: 'Conversation: c1',
      model: 'stub-model',
      replySchema: HARVEST_REPLY_SCHEMA,
    });
    assert.equal(reply.text, 'ok');
    const gen = stub!.generations()[0].body;
    assert.equal(gen.generationConfig.responseMimeType, 'application/json');
    assert.equal(creates().length, 0, 'a harvest call caches implicitly and creates no cachedContent');
    assert.equal(gen.systemInstruction.parts[0].text, 'Extract JSON.');
  });
});

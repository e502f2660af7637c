/**
 * The harvest already orders its prompt stable → volatile (instructions first, conversation
 * last). Run through the caching adapter, the requests of one batch share the cached prefix: the
 * second conversation reads the instructions from the cache the first one wrote.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { defaultPromptsDir } from '../../../src/core/services/harvest/prompts';
import { runHarvest } from '../../../src/core/services/harvest/runHarvest';
import { AnthropicAdapter } from '../../../src/core/services/providers/anthropicAdapter';
import { OpenAIAdapter } from '../../../src/core/services/providers/openaiAdapter';
import type { ModelReply, ModelRequest, Provider } from '../../../src/core/services/providers/provider';
import { initStore } from '../../../src/core/store/initStore';
import { storePaths } from '../../../src/core/store/storePaths';
import { transcript } from '../../helpers/cli';
import { makeTempDir } from '../../helpers/paths';
import { estimateTokens } from '../../helpers/stubBodies';
import { startStub, type StubKind, type StubServer } from '../../helpers/stubServers';

const VALID = JSON.stringify({
  facts: [{ statement: 'Batches share the cached instructions.', detail: '' }],
  decisions: [],
  tasks_done: [],
  tasks_open: [],
  questions: [],
  playbooks: [],
  files: [],
});

/** Records every reply (with its usage) of the provider it wraps. */
function spy(inner: Provider): Provider & { replies: ModelReply[] } {
  const replies: ModelReply[] = [];
  return {
    name: inner.name,
    label: inner.label,
    offline: inner.offline,
    replies,
    async generate(request: ModelRequest) {
      const reply = await inner.generate(request);
      replies.push(reply);
      return reply;
    },
  };
}

describe('harvest batches through a caching adapter', function () {
  this.timeout(30_000);
  let stub: StubServer | undefined;
  afterEach(async () => {
    await stub?.close();
    stub = undefined;
  });

  async function harvestTwo(kind: StubKind, make: (baseUrl: string) => Provider) {
    stub = await startStub(kind, [{ reply: VALID }, { reply: VALID }]);
    const ws = makeTempDir('lore-harvest-cache-');
    const paths = storePaths(path.join(ws, '.lore'));
    initStore(paths, defaultPromptsDir());
    fs.writeFileSync(path.join(paths.inbox, 'c1.md'), transcript('c1', 'We talked about caching.'));
    fs.writeFileSync(path.join(paths.inbox, 'c2.md'), transcript('c2', 'We talked about the digest.'));
    const provider = spy(make(stub.baseUrl));
    const report = await runHarvest({ paths, mode: 'preview', provider, model: 'stub-model' });
    assert.equal(report.modelCalls, 2, JSON.stringify(report.conversations.map((c) => c.error)));
    return { provider, requests: stub.requests };
  }

  it('Anthropic: the second request reads the instructions the first one wrote', async () => {
    const { provider, requests } = await harvestTwo('anthropic', (baseUrl) => new AnthropicAdapter({ baseUrl, env: {} }));
    // Same stable system block, marked for caching, in both requests; conversations differ.
    assert.deepEqual(requests[0].body.system, requests[1].body.system);
    assert.deepEqual(
      requests[0].body.system.map((b: { cache_control?: unknown }) => b.cache_control),
      [{ type: 'ephemeral' }],
    );
    assert.match(requests[0].body.system[0].text, /^# Harvest durable knowledge/);
    assert.notEqual(requests[0].prompt.user, requests[1].prompt.user);
    const [first, second] = provider.replies.map((r) => r.usage!);
    assert.ok((first.cacheWriteTokens ?? 0) > 0);
    assert.equal(first.cacheReadTokens, 0);
    assert.equal(second.cacheReadTokens, first.cacheWriteTokens, 'the stub reports the repeated prefix as a cache read');
    // Cache reads are folded back into the input tokens sent.
    assert.equal(second.inputTokens, estimateTokens(requests[1].prompt.system) + estimateTokens(requests[1].prompt.user));
  });

  it('OpenAI: the same prefix first, so the implicit cache serves the second request', async () => {
    const { provider, requests } = await harvestTwo('openai', (baseUrl) => new OpenAIAdapter({ baseUrl, env: {} }));
    assert.equal(requests[0].prompt.system, requests[1].prompt.system);
    assert.equal(provider.replies[0].usage?.cacheReadTokens, 0);
    assert.ok((provider.replies[1].usage?.cacheReadTokens ?? 0) > 0);
  });
});

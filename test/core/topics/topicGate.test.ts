import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { activateTopics, activateTopicsWithoutGate } from '../../../src/core/services/topics/activateTopics';
import { gateLogFile, readGateLog } from '../../../src/core/services/topics/gateLog';
import { loadTopics } from '../../../src/core/services/topics/loadTopics';
import { adapterGate, GateMemo, messageHash } from '../../../src/core/services/topics/topicGate';
import { prepareTopics } from '../../../src/core/services/topics/topicTiers';
import { OpenAIAdapter } from '../../../src/core/services/providers/openaiAdapter';
import { startStub, type StubServer } from '../../helpers/stubServers';
import { storeWithTopics } from '../../helpers/topicStores';

const gated = (priority: string, body: string) =>
  `---\ntriggers:\n  - keywords: [cache]\nactivation: gated\npriority: ${priority}\n---\n${body}\n`;

describe('topic gate (tier 3)', () => {
  let stub: StubServer | undefined;
  afterEach(async () => {
    await stub?.close();
    stub = undefined;
  });

  function setup() {
    const paths = storeWithTopics({
      'browser.md': gated('medium', 'Browser cache headers, cache busting and service workers.'),
      'prompts.md': gated('low', 'Prompt cache breakpoints, cache hit rates and provider cache prefixes.'),
      'urgent.md': gated('critical', 'Cache invalidation incidents.'),
    });
    return { paths, prepared: prepareTopics(loadTopics(paths).topics) };
  }
  const message = 'why is the prompt cache hit rate so low for the provider cache prefix?';

  it('asks the model YES/NO with one token at temperature 0, caches the answer by message and topic, and logs every decision', async () => {
    const { paths, prepared } = setup();
    // Answers by the topic named in the prompt: only the prompt-cache topic is relevant.
    stub = await startStub('openai', [], {
      whenExhausted: (body) => ({ reply: /Topic: prompts/.test(JSON.stringify(body)) ? 'YES' : 'NO' }),
    });
    const gate = adapterGate(new OpenAIAdapter({ baseUrl: stub.baseUrl, apiKey: 'test-key' }));
    const first = await activateTopics(paths, prepared, { message }, { gate, memo: GateMemo.forStore(paths), via: 'cli' });
    assert.deepEqual(
      first.active.map((a) => [a.topic.name, a.tier]),
      [
        ['urgent', 1],
        ['prompts', 3],
      ],
    );
    const byTopic = Object.fromEntries(first.decisions.map((d) => [d.topic, d]));
    assert.equal(byTopic.urgent.gate, 'bypass');
    assert.equal(byTopic.prompts.gate, 'yes');
    // The browser topic scores under 0.2 for this message: the table drops it without asking.
    assert.equal(byTopic.browser.gate, 'drop', byTopic.browser.reason);
    const asked = stub.requests.length;
    assert.ok(asked >= 1);
    for (const request of stub.requests) {
      assert.equal(request.body.max_completion_tokens, 1);
      assert.equal(request.body.temperature, 0);
      assert.match(request.prompt.user, /Answer with exactly one word: YES or NO\./);
      assert.match(request.prompt.user, /> why is the prompt cache/);
    }
    // The same message again: answered from the cache, no request.
    const second = await activateTopics(paths, prepared, { message }, { gate, memo: GateMemo.forStore(paths), via: 'cli' });
    assert.equal(stub.requests.length, asked);
    assert.deepEqual(
      second.active.map((a) => a.topic.name),
      ['urgent', 'prompts'],
    );
    assert.equal(second.decisions.find((d) => d.topic === 'prompts')!.cached, true);
    const log = readGateLog(paths);
    assert.equal(log.length, first.decisions.length + second.decisions.length);
    assert.ok(log.every((e) => e.messageHash === messageHash(message) && typeof e.at === 'string'));
    assert.ok(!fs.readFileSync(gateLogFile(paths), 'utf8').includes('hit rate'), 'the log holds the hash, never the message');
    assert.deepEqual(
      log.filter((e) => e.topic === 'prompts').map((e) => [e.gate, e.tier1, e.cached ?? false]),
      [
        ['yes', 'keywords', false],
        ['yes', 'keywords', true],
      ],
    );
  });

  it('without a model, gated topics follow the no-gate rows and are otherwise dropped, saying so', () => {
    const { paths, prepared } = setup();
    const result = activateTopicsWithoutGate(
      paths,
      prepared,
      { message },
      { via: 'hook', noGateReason: 'the hook never waits on the network' },
    );
    assert.deepEqual(
      result.active.map((a) => a.topic.name),
      ['urgent'],
    );
    const prompts = result.decisions.find((d) => d.topic === 'prompts')!;
    assert.equal(prompts.gate, 'no-model');
    assert.match(prompts.reason, /dropped: the hook never waits on the network/);
    assert.equal(result.gate.available, false);
  });

  it('a failing gate drops the topic, says why, and caches nothing', async () => {
    const { paths, prepared } = setup();
    stub = await startStub('openai', [], { whenExhausted: { status: 401 } });
    const gate = adapterGate(new OpenAIAdapter({ baseUrl: stub.baseUrl, apiKey: 'test-key' }));
    const result = await activateTopics(paths, prepared, { message }, { gate, memo: GateMemo.forStore(paths), via: 'cli' });
    const prompts = result.decisions.find((d) => d.topic === 'prompts')!;
    assert.equal(prompts.gate, 'failed');
    assert.equal(prompts.active, false);
    assert.equal(
      GateMemo.forStore(paths).get(
        messageHash(message),
        prepared.topics.find((t) => t.name === 'prompts')!,
      ),
      undefined,
    );
  });
});

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { OpenAIAdapter } from '../../src/core/services/providers/openaiAdapter';
import { adapterAsker } from '../../src/core/services/topics/topicGate';
import { CompileContextRequest, GateAskRequest, WatchReplyRequest } from '../../src/shared/protocol';
import { startStub } from '../helpers/stubServers';
import type { LspTestClient } from './lspClient';
import { makeWorkspace, type TestWorkspace } from './serverFixtures';
import type { ParamsOf, ResultOf } from '../../src/shared/declareMessage';

const PY3 = '---\ntriggers:\n  - pattern: "\\\\bprint [a-z_]"\n    scope: output\n---\nUse Python 3: print() is a function.\n';
const DEPLOY = '---\ntriggers:\n  - keywords: [deploy]\n  - glob: "infra/**"\npriority: high\n---\nRun the smoke tests on staging first.\n';

describe('language server: the context compiler and output watchers for @lore and Why This Context? (LSP over stdio)', function () {
  let w: TestWorkspace;
  let client: LspTestClient;

  beforeEach(async () => {
    w = makeWorkspace();
    fs.mkdirSync(path.join(w.paths.root, 'topics'));
    fs.writeFileSync(path.join(w.paths.root, 'topics', 'py3.md'), PY3);
    fs.writeFileSync(path.join(w.paths.root, 'topics', 'deploy.md'), DEPLOY);
    fs.writeFileSync(
      path.join(w.paths.root, 'decisions.md'),
      '# Decisions\n\n- Releases are cut from the main branch on Tuesdays [from: c1, 2026-11-20]\n',
    );
    fs.writeFileSync(path.join(w.paths.root, 'facts.md'), '# Facts\n\n- The staging cluster is called kestrel [from: c1, 2026-11-20]\n');
    client = await w.start();
  });

  afterEach(async () => {
    await client.stop();
  });

  it('compiles the same context as lore context: topics in P2, hits from the server index in P3, history in P4; the markdown report escapes', async () => {
    const infra = w.write('infra/main.tf', 'resource "x" {}\n');
    const result = await client.connection.sendRequest(CompileContextRequest.type, {
      message: 'when are releases cut from the main branch?',
      files: [infra],
      discussion: { id: 'chat-1', turn: 2 },
      earlierTurns: [
        { role: 'user', text: 'hello' },
        { role: 'assistant', text: 'hi there' },
      ],
      markdown: true,
    });
    // The glob fired on the file in scope, not the message.
    assert.deepEqual(
      result.topics.active.map((a) => [a.name, a.tier]),
      [['deploy', 1]],
    );
    assert.match(result.text, /## topic: deploy\n\nRun the smoke tests on staging first\./);
    assert.equal(result.hits.length, 1);
    assert.match(
      result.hits[0],
      /^- \[decisions\] Releases are cut from the main branch on Tuesdays \[from: c1, 2026-11-20\] \(decisions\.md:3\)$/,
    );
    assert.ok(result.text.includes(result.hits[0]));
    assert.deepEqual(
      result.slots.map((s) => [s.slot, s.included > 0]),
      [
        ['P0', true],
        ['P1', false],
        ['P2', true],
        ['P3', true],
        ['P4', true],
      ],
    );
    assert.ok(result.text.indexOf('{topics}') < result.stablePrefixLength, 'topics are in the stable part');
    assert.ok(result.text.indexOf('{search-hits}') >= result.stablePrefixLength, 'hits are in the volatile part');
    assert.equal(result.stablePrefixBytes, Buffer.byteLength(result.text.slice(0, result.stablePrefixLength), 'utf8'));
    const decision = result.topics.decisions.find((d) => d.topic === 'deploy')!;
    assert.deepEqual([decision.tier1?.kind, decision.tier1?.matched, decision.gate], ['glob', 'infra/main.tf', 'bypass']);
    assert.match(result.markdown!, /## Scored knowledge \(P3\)\n\n- \\\[decisions\\\] Releases are cut/);
    assert.match(
      result.markdown!,
      /\| \*\*deploy\*\* \| auto, high \| active, tier 1 \| glob infra\/\\\*\\\* on “infra\/main\\\.tf” \| 0\.000 \| bypass \|/,
    );
    // Without asking for it, no markdown is rendered.
    assert.equal((await client.connection.sendRequest(CompileContextRequest.type, { message: 'x' })).markdown, undefined);
  });

  it("output watchers on a reply leave a corrective topic for the session's next message, once", async () => {
    const watched = await client.connection.sendRequest(WatchReplyRequest.type, {
      sessionId: 'chat-7',
      reply: 'Add this line:\n\n    print total\n',
    });
    assert.deepEqual(
      watched.activated.map((a) => a.topic),
      ['py3'],
    );
    const other = await client.connection.sendRequest(CompileContextRequest.type, { message: 'and the averages?', sessionId: 'chat-8' });
    assert.ok(!other.text.includes('topic: py3'), 'another discussion');
    const next = await client.connection.sendRequest(CompileContextRequest.type, { message: 'and the averages?', sessionId: 'chat-7' });
    assert.deepEqual(
      next.topics.active.map((a) => [a.name, a.tier]),
      [['py3', 'output']],
    );
    assert.match(next.text, /## topic: py3\n\nUse Python 3: print\(\) is a function\./);
    const after = await client.connection.sendRequest(CompileContextRequest.type, { message: 'and the averages?', sessionId: 'chat-7' });
    assert.ok(!after.text.includes('topic: py3'), 'injected once');
    const log = fs
      .readFileSync(path.join(w.paths.root, '.logs', 'gates.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.ok(log.some((e) => e.topic === 'py3' && e.via === 'output' && e.active));
    // A reply without a match leaves nothing.
    assert.deepEqual(
      (await client.connection.sendRequest(WatchReplyRequest.type, { sessionId: 'chat-7', reply: 'print(total)' })).activated,
      [],
    );
  });

  it('@lore asks tier 3 with its model through the client (lore/gateAsk): YES includes, NO excludes, the second time from the cache, logged via @lore', async () => {
    const gated = (priority: string, body: string) =>
      `---\ntriggers:\n  - keywords: [cache]\nactivation: gated\npriority: ${priority}\n---\n${body}\n`;
    fs.writeFileSync(
      path.join(w.paths.root, 'topics', 'prompts.md'),
      gated('low', 'Prompt cache breakpoints, cache hit rates and provider cache prefixes.'),
    );
    fs.writeFileSync(
      path.join(w.paths.root, 'topics', 'hitrate.md'),
      gated('medium', 'Why the provider prompt cache hit rate drops: cache prefix changes.'),
    );
    // The client's model: the direct provider's adapter (core's adapterAsker, as @lore's chatGate uses it) against a loopback OpenAI API.
    const stub = await startStub('openai', [], {
      whenExhausted: (body) => ({ reply: /Topic: prompts/.test(JSON.stringify(body)) ? 'YES' : 'NO' }),
    });
    try {
      const asker = adapterAsker(new OpenAIAdapter({ baseUrl: stub.baseUrl, apiKey: 'test-key' }));
      const asked: ParamsOf<typeof GateAskRequest>[] = [];
      client.connection.onRequest(GateAskRequest.method, async (params: ParamsOf<typeof GateAskRequest>) => {
        asked.push(params);
        return { text: await asker(params) } satisfies ResultOf<typeof GateAskRequest>;
      });
      const message = 'why is the prompt cache hit rate so low for the provider cache prefix? <private>kestrel-root-pw</private>';
      const compile = () =>
        client.connection.sendRequest(CompileContextRequest.type, {
          message,
          sessionId: 'chat-9',
          via: '@lore',
          gate: { id: 'g1', label: 'openai (stub)' },
        });
      const first = await compile();
      const byTopic = Object.fromEntries(first.topics.decisions.map((d) => [d.topic, d]));
      assert.deepEqual([byTopic.prompts?.gate, byTopic.prompts?.active, byTopic.prompts?.tier], ['yes', true, 3], byTopic.prompts?.reason);
      assert.deepEqual([byTopic.hitrate?.gate, byTopic.hitrate?.active], ['no', false], byTopic.hitrate?.reason);
      assert.match(first.text, /## topic: prompts\n\nPrompt cache breakpoints/);
      assert.ok(!first.text.includes('topic: hitrate'), 'NO excludes');
      assert.equal(stub.requests.length, 2, 'one gate call per gated topic');
      assert.ok(asked.every((a) => a.gateId === 'g1'));
      for (const request of stub.requests) {
        assert.equal(request.body.max_completion_tokens, 1);
        assert.equal(request.body.temperature, 0);
        assert.match(request.prompt.user, /Message \(quoted\):\n> why is the prompt cache/);
        assert.ok(!JSON.stringify(request.body).includes('kestrel-root-pw'), 'private spans never reach the gate');
      }
      // The same message again: answered from the gate cache, no model call.
      const second = await compile();
      assert.equal(stub.requests.length, 2);
      assert.deepEqual(
        second.topics.decisions.filter((d) => d.topic === 'prompts').map((d) => [d.gate, d.active, d.reason.endsWith('(cached)')]),
        [['yes', true, true]],
      );
      const log = fs
        .readFileSync(path.join(w.paths.root, '.logs', 'gates.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      assert.deepEqual(
        log
          .filter((e) => e.topic !== 'deploy')
          .map((e) => [e.topic, e.gate, e.cached ?? false, e.via])
          .sort(),
        [
          ['hitrate', 'no', false, '@lore'],
          ['hitrate', 'no', true, '@lore'],
          ['prompts', 'yes', false, '@lore'],
          ['prompts', 'yes', true, '@lore'],
        ],
      );
      // No model (@lore answers from local knowledge): the no-gate rows, and the reason the client gave.
      const local = await client.connection.sendRequest(CompileContextRequest.type, {
        message: message + ' again',
        via: '@lore',
        noGateReason: '@lore has no model to ask',
      });
      const prompts = local.topics.decisions.find((d) => d.topic === 'prompts')!;
      assert.deepEqual([prompts.gate, prompts.active], ['no-model', false]);
      assert.match(prompts.reason, /dropped: @lore has no model to ask/);
      assert.equal(stub.requests.length, 2);
    } finally {
      await stub.close();
    }
  });

  it('refuses params outside the schema', async () => {
    await assert.rejects(
      client.connection.sendRequest(CompileContextRequest.type, { message: 'x', budgetTokens: 10 }),
      /lore\/compileContext: budgetTokens/,
    );
    await assert.rejects(
      client.connection.sendRequest(WatchReplyRequest.type, { sessionId: '', reply: 'x' }),
      /lore\/watchReply: sessionId/,
    );
  });
});

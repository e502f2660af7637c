import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { marked } from 'marked';
import { explainContext, explanationJson, explanationMarkdown } from '../../../src/core/services/topics/explainContext';
import { addPendingTopics } from '../../../src/core/services/topics/pendingTopics';
import { storeWithTopics } from '../../helpers/topicStores';

describe('explainContext ("why this context")', () => {
  it('reports slots, scored knowledge and per-topic decisions for a person, and the context itself', async () => {
    const paths = storeWithTopics({
      'deploy.md': '---\ntriggers:\n  - keywords: [deploy]\nsubscriptions: [docs/missing.md]\n---\nSmoke-test first.\n',
      'gated.md': '---\nactivation: gated\ntriggers:\n  - keywords: [deploy]\n---\nAsk first.\n',
    });
    fs.writeFileSync(paths.digest, '# Knowledge digest\n\n## Facts\n- The pipeline has 3 stages. [from: c1, 2026-11-20]\n');
    const hits = ['- [decisions] deploys go out on Tuesdays [from: c2, 2026-11-21] (decisions.md:3)'];
    const explained = await explainContext(paths, {
      message: 'deploy now',
      budgetTokens: 8000,
      noGateReason: 'no model here',
      via: 'test',
      hits: () => hits,
    });
    assert.deepEqual(
      explained.topics.activation.active.map((a) => a.topic.name),
      ['deploy'],
    );
    assert.deepEqual(explained.topics.subscriptionProblems, ['deploy: docs/missing.md: not found']);
    assert.deepEqual(explained.compiled.searchHits, hits);
    assert.deepEqual(explanationJson(explained).hits, hits);
    const markdown = explanationMarkdown(explained, 'deploy now');
    assert.match(markdown, /^# Why this context\n\nMessage: deploy now\n/);
    assert.match(markdown, /\| P2 \| active topics and subscriptions \| \d+ \| 1 \| {2}\|/);
    assert.match(
      markdown,
      /## Scored knowledge \(P3\)\n\n- \\\[decisions\\\] deploys go out on Tuesdays \\\[from\\: c2\\, 2026\\-11\\-21\\\] \\\(decisions\\\.md\\:3\\\)\n/,
    );
    assert.match(
      markdown,
      /\| \*\*deploy\*\* \| auto, medium \| active, tier 1 \| keywords deploy on “deploy” \| 0\.\d{3} \| bypass \| tier 1 keywords/,
    );
    assert.match(
      markdown,
      /\| \*\*gated\*\* \| gated, medium \| not active \| keywords deploy on “deploy” \| 0\.\d{3} \| no-model \| .*dropped\\: no model here \|/,
    );
    assert.match(markdown, /- subscription deploy\\: docs\/missing\\\.md\\: not found/);
    assert.ok(markdown.includes(explained.compiled.text.trimEnd()));
    assert.ok(fs.existsSync(path.join(paths.root, '.logs', 'gates.jsonl')));
  });

  it('escapes what comes from the message, topics and knowledge: no link, HTML or fence break in the report', async () => {
    const paths = storeWithTopics({ 'deploy.md': '---\ntriggers:\n  - pattern: "deploy.*"\n---\n```\nBody with a fence.\n```\n' });
    const message = 'deploy [x](command:lore.evil) <img src=x onerror=alert(1)> ```';
    const hits = ['- [facts] see [here](https://evil.example) <script>alert(1)</script> **bold**'];
    const explained = await explainContext(paths, { message, budgetTokens: 8000, via: 'test', hits: () => hits });
    const html = marked.parse(explanationMarkdown(explained, message), { async: false }) as string;
    assert.ok(!/<a\s/.test(html), 'no link');
    assert.ok(!/<(img|script)\b/.test(html), 'no HTML');
    assert.ok(!html.includes('<strong>bold'), 'no emphasis from the hit');
    // The whole context stays inside one code block, backticks and all.
    const blocks = [...html.matchAll(/<pre><code[^>]*>([^]*?)<\/code><\/pre>/g)];
    assert.equal(blocks.length, 1);
    assert.match(blocks[0][1], /Body with a fence\.[^]*deploy \[x\]\(command:lore\.evil\)/);
  });

  it("takes the topics the session's output watchers left (once), and puts the discussion's turns in P4", async () => {
    const paths = storeWithTopics({ 'py3.md': '---\ntriggers:\n  - pattern: "print [a-z]"\n    scope: output\n---\nUse Python 3.\n' });
    addPendingTopics(paths, 'chat-1', [{ topic: 'py3', reason: 'pattern matched' }]);
    const request = {
      message: 'and the averages?',
      budgetTokens: 8000,
      via: 'test',
      sessionId: 'chat-1',
      discussion: { id: 'chat-1', turn: 2 },
      earlierTurns: [
        { role: 'user' as const, text: 'print the totals' },
        { role: 'assistant' as const, text: 'print total' },
      ],
    };
    const first = await explainContext(paths, request);
    assert.deepEqual(
      first.topics.activation.active.map((a) => [a.topic.name, a.tier]),
      [['py3', 'output']],
    );
    assert.match(first.compiled.text, /## topic: py3\n\nUse Python 3\./);
    assert.equal(first.compiled.slots.find((s) => s.slot === 'P4')!.included, 2);
    assert.match(first.compiled.text, /print the totals[^]*print total[^]*and the averages\?/);
    const second = await explainContext(paths, request);
    assert.deepEqual(second.topics.activation.active, []);
    // Another session never takes them.
    addPendingTopics(paths, 'chat-1', [{ topic: 'py3', reason: 'pattern matched' }]);
    assert.deepEqual((await explainContext(paths, { ...request, sessionId: 'chat-2' })).topics.activation.active, []);
  });
});

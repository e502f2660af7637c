import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { explainContext, explanationMarkdown } from '../../../src/core/context/explainContext';
import { storeWithTopics } from '../../helpers/topicStores';

describe('explainContext ("why this context")', () => {
  it('reports slots and topics for a person, and the context itself', async () => {
    const paths = storeWithTopics({
      'deploy.md': '---\ntriggers:\n  - keywords: [deploy]\nsubscriptions: [docs/missing.md]\n---\nSmoke-test first.\n',
      'gated.md': '---\nactivation: gated\ntriggers:\n  - keywords: [deploy]\n---\nAsk first.\n',
    });
    fs.writeFileSync(paths.digest, '# Knowledge digest\n\n## Facts\n- The pipeline has 3 stages. [from: c1, 2026-11-20]\n');
    const explained = await explainContext(paths, { message: 'deploy now', budgetTokens: 8000, noGateReason: 'no model here', via: 'test' });
    assert.deepEqual(explained.topics.activation.active.map((a) => a.topic.name), ['deploy']);
    assert.deepEqual(explained.topics.subscriptionProblems, ['deploy: docs/missing.md: not found']);
    const markdown = explanationMarkdown(explained, 'deploy now');
    assert.match(markdown, /^# Why this context\n\nMessage: deploy now\n/);
    assert.match(markdown, /\| P2 \| active topics and subscriptions \| \d+ \| 1 \| {2}\|/);
    assert.match(markdown, /- \*\*deploy\*\* \(auto, medium\): active, tier 1: tier 1 keywords "deploy" matched "deploy"/);
    assert.match(markdown, /- \*\*gated\*\* \(gated, medium\): not active: .*dropped: no model here/);
    assert.match(markdown, /- subscription deploy: docs\/missing\.md: not found/);
    assert.ok(markdown.includes(explained.compiled.text.trimEnd()));
    assert.ok(fs.existsSync(path.join(paths.root, '.logs', 'gates.jsonl')));
  });
});

import * as assert from 'node:assert/strict';
import { loadTopics } from '../../../src/core/services/topics/loadTopics';
import { matchTopics, prepareTopics } from '../../../src/core/services/topics/topicTiers';
import { storeWithTopics } from '../../helpers/topicStores';

function topic(front: string, body = 'Instructions.'): string {
  return `---\n${front}\n---\n${body}\n`;
}

describe('topic tiers 1 and 2', () => {
  const paths = storeWithTopics({
    'deploy.md': topic('triggers:\n  - keywords: [deploy, rollback]', 'Deploy with the release train; run smoke tests on staging first.'),
    'python.md': topic('triggers:\n  - glob: "*.py"', 'Use type hints in Python code.'),
    'sqlite.md': topic(
      'triggers: []\nsimilarity_threshold: 0.2',
      'SQLite database migrations, WAL journal mode, vacuum and schema versions.',
    ),
    'reply.md': topic('triggers:\n  - pattern: "print [a-z]"\n    scope: output', 'Use Python 3 print().'),
  });
  const prepared = prepareTopics(loadTopics(paths).topics);

  it('tier 1 matches keywords on word edges, globs on named files, and respects scope', () => {
    const deploy = matchTopics(prepared, { text: 'Can we Deploy tonight?', scope: 'input' });
    assert.deepEqual(
      deploy.map((c) => c.topic.name),
      ['deploy'],
    );
    assert.deepEqual(deploy[0].tier1, { kind: 'keywords', trigger: 'deploy, rollback', matched: 'deploy' });
    assert.equal(deploy[0].route, 'activate');
    assert.deepEqual(matchTopics(prepared, { text: 'the redeployment', scope: 'input' }), []);
    assert.ok(
      matchTopics(prepared, { text: 'a_deploy or deploy_x or deploys', scope: 'input' }).every((c) => c.tier1 === undefined),
      'no keyword on a word edge',
    );
    assert.equal(matchTopics(prepared, { text: 'Über-deploy, then ROLLBACK!', scope: 'input' })[0].tier1?.matched, 'deploy');
    const glob = matchTopics(prepared, { text: 'fix it', files: ['tools/run.py'], scope: 'input' });
    assert.deepEqual(
      glob.map((c) => [c.topic.name, c.tier1?.kind]),
      [['python', 'glob']],
    );
    // Output-scoped patterns do not run on a message, and input-scoped ones not on a reply.
    assert.deepEqual(matchTopics(prepared, { text: 'print x', scope: 'input' }), []);
    assert.deepEqual(
      matchTopics(prepared, { text: 'I will print x and deploy', scope: 'output' }).map((c) => c.topic.name),
      ['reply'],
    );
  });

  it('tier 2 picks a topic by similarity alone, against its own threshold', () => {
    const similar = matchTopics(prepared, { text: 'how do schema migrations work with the WAL journal?', scope: 'input' });
    assert.deepEqual(
      similar.map((c) => c.topic.name),
      ['sqlite'],
    );
    assert.equal(similar[0].tier1, undefined);
    assert.ok(similar[0].score >= 0.2, String(similar[0].score));
    assert.match(similar[0].reason, /tier 2 score 0\.\d+ ≥ 0\.2/);
    const weak = matchTopics(prepared, { text: 'the journal of my holidays, photos and friends and weather', scope: 'input' });
    assert.deepEqual(weak, []);
  });

  it('gated topics follow the bypass table of §5.4', () => {
    const gated = (priority: string) =>
      topic(
        `triggers:\n  - keywords: [cache]\nactivation: gated\npriority: ${priority}`,
        'Prompt cache breakpoints and cache hit rates of providers.',
      );
    const store = storeWithTopics({
      'a-critical.md': gated('critical'),
      'b-high.md': gated('high'),
      'c-medium.md': gated('medium'),
      'd-low.md': gated('low'),
      'e-manual.md': topic('triggers:\n  - keywords: [cache]\nactivation: manual'),
    });
    const set = prepareTopics(loadTopics(store).topics);
    const routes = (text: string) => Object.fromEntries(matchTopics(set, { text, scope: 'input' }).map((c) => [c.topic.name, c.route]));
    // A bare keyword: tier 2 is low.
    assert.deepEqual(routes('cache'), {
      'a-critical': 'activate',
      'b-high': 'activate',
      'c-medium': 'gate',
      'd-low': 'gate',
      'e-manual': 'manual',
    });
    const lowScore = routes('the cache of the browser was full of cat pictures and holiday videos from last summer');
    assert.deepEqual(lowScore, { 'a-critical': 'activate', 'b-high': 'gate', 'c-medium': 'drop', 'd-low': 'drop', 'e-manual': 'manual' });
  });
});

import * as assert from 'node:assert/strict';
import { harvestOf } from './rulesSupport';

const OPTIONS = `## user
how should we store the sessions index?

## agent
Two ways:

**Option A:** Keep one JSON file per session. Simple, but slow to list.
**Option B:** Use SQLite for the index. Fast queries, one native dependency.

I recommend Option B.
`;

describe('rules extractor agreed decisions', () => {
  it('keeps the option the person picks', async () => {
    const items = await harvestOf(`${OPTIONS}\n## user\ngo with A\n`);
    assert.deepEqual(items.decisions, [{ statement: 'Keep one JSON file per session' }]);
  });

  it('keeps the recommendation the person agrees to', async () => {
    const items = await harvestOf(`${OPTIONS}\n## user\nok, do that\n`);
    assert.deepEqual(items.decisions, [{ statement: 'Use SQLite for the index' }]);
    const plain = await harvestOf(
      '## user\nwhich test runner?\n\n## agent\nI suggest we use vitest for the new package, since it shares the vite config.\n\n## user\nyes\n',
    );
    assert.deepEqual(plain.decisions, [{ statement: 'Use vitest for the new package, since it shares the vite config' }]);
  });

  it('reads "implement the plan" as agreeing to the recommendation, not a new request that names something else', async () => {
    const items = await harvestOf(`${OPTIONS}\n## user\nImplement the plan.\n`);
    assert.deepEqual(items.decisions, [{ statement: 'Use SQLite for the index' }]);
    const other = await harvestOf(`${OPTIONS}\n## user\nImplement the export first.\n`);
    assert.deepEqual(other.decisions, []);
  });

  it('reads the recommendation from any message of an answer given in several', async () => {
    const items = await harvestOf(
      [
        '## user',
        'which feed should the engine read first?',
        '## agent',
        '**My recommendation:** read the Pascal L2 feed first, with the paper exchange as fallback.',
        '## agent',
        'Checking the client crate next.',
        '## user',
        'Implement the plan.',
        '## agent',
        'I recommend we also add a kill switch.',
        '## agent',
        'Done with the feed.',
        '## user',
        'What about the docs?',
      ].join('\n'),
    );
    assert.deepEqual(items.decisions, [{ statement: 'Read the Pascal L2 feed first, with the paper exchange as fallback' }]);
  });

  it('keeps nothing when the person declines, hesitates or decides otherwise', async () => {
    for (const reply of ['no', 'yes but keep the JSON files for now', 'what about postgres?'])
      assert.deepEqual((await harvestOf(`${OPTIONS}\n## user\n${reply}\n`)).decisions, [], reply);
    const own = await harvestOf(`${OPTIONS}\n## user\nok, lets just use postgres\n`);
    assert.deepEqual(own.decisions, [{ statement: 'Use postgres' }]);
  });

  it('keeps nothing from a proposal nobody answered', async () => {
    assert.deepEqual((await harvestOf(OPTIONS)).decisions, []);
  });
});

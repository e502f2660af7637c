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

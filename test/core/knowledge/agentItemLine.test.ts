import * as assert from 'node:assert/strict';
import { agentItemLine } from '../../../src/core/model/agentItemLine';

describe('one item as an agent reads it', () => {
  it('names category, id, status, path, provenance and place in one line shape', () => {
    assert.equal(
      agentItemLine({
        category: 'notes',
        id: 'k3m9x2ab',
        path: 'src/app.ts',
        text: 'exports the app',
        source: 'c1',
        date: '2026-11-20',
        file: 'files/1-2.md',
        line: 9,
      }),
      '- [notes k3m9x2ab] (src/app.ts) exports the app [from: c1, 2026-11-20] (files/1-2.md:9)',
    );
    assert.equal(
      agentItemLine({
        category: 'facts',
        id: 'k3m9x2ab',
        status: 'superseded',
        supersededBy: 'p2q8r4st',
        text: 'x',
        source: 'c1',
        file: 'facts.md',
      }),
      '- [facts k3m9x2ab; superseded by p2q8r4st] x [from: c1, ?] (facts.md)',
    );
    assert.equal(
      agentItemLine({ category: 'decisions', status: 'current', text: 'y', file: 'decisions.md', line: 3 }),
      '- [decisions] y (decisions.md:3)',
    );
  });
});

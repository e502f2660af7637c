/** Where the strike-through of superseded items goes (the extension's decorations), in plain Node. */
import * as assert from 'node:assert/strict';
import { supersededLines } from '../../src/extension/knowledge/supersededLines';

describe('superseded lines for the strike-through', () => {
  it('covers the statement of each superseded item, not the marker or provenance, in either marker form', () => {
    const text = [
      '# Decisions',
      '',
      '- deploys go through Jenkins [superseded by k3m9x2ab, 2026-11-27] [from: c1, 2026-11-01]',
      '- deploys go through GitHub Actions [from: c4, 2026-11-10]',
      '  * tests use mocha [superseded by: ZZ9X2ABC] [from: c2, 2026-10-01]',
      '```',
      '- fenced [superseded by k3m9x2ab, 2026-11-27]',
      '```',
      '',
    ].join('\r\n');
    const lines = supersededLines(text);
    assert.deepEqual(
      lines.map((l) => ({ ...l, text: text.split('\r\n')[l.line].slice(l.start, l.end) })),
      [{ line: 2, start: 2, end: 28, by: 'k3m9x2ab', date: '2026-11-27', text: 'deploys go through Jenkins' }],
    );
    assert.deepEqual(supersededLines('- a [from: c, 2026-11-01]\n'), []);
  });
});

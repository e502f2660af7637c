/** Lines several conversations taught: `[from: a, d1; b, d2]`, and the supersession marker's two forms. */
import * as assert from 'node:assert/strict';
import { itemId, recordItemId } from '../../../src/core/model/itemId';
import { lineIdentities, lineIdentity } from '../../../src/core/model/itemLines';
import { applyItemOps } from '../../../src/core/model/itemOps';
import {
  addSources,
  hasMalformedProvenance,
  neutralizeItemText,
  parseProvenance,
  stripProvenance,
} from '../../../src/core/model/provenance';
import { appendItems } from '../../../src/core/model/categoryFile';
import { isCurrent, markSuperseded, readSupersession, supersededBy, withoutSupersession } from '../../../src/core/model/supersession';

const ONE = '- uses pnpm [from: c1, 2026-11-01]';

describe('merged provenance', () => {
  it('parses every source, the first one first, with where each stands for links', () => {
    const line = '- uses pnpm [from: c1, 2026-11-01; claude-code:s2, 2026-11-05;c3,2026-11-07 ]';
    const parsed = parseProvenance(line)!;
    assert.equal(parsed.source, 'c1');
    assert.equal(parsed.date, '2026-11-01');
    assert.deepEqual(
      parsed.sources.map((s) => [s.source, s.date]),
      [
        ['c1', '2026-11-01'],
        ['claude-code:s2', '2026-11-05'],
        ['c3', '2026-11-07'],
      ],
    );
    assert.deepEqual(
      parsed.sources.map((s) => line.slice(s.start, s.end)),
      ['c1, 2026-11-01', 'claude-code:s2, 2026-11-05', 'c3,2026-11-07'],
    );
    assert.equal(stripProvenance(line), '- uses pnpm');
    assert.equal(hasMalformedProvenance(line), false);
  });

  it('flags a marker with a broken entry or an impossible date, and keeps reading an old id with a semicolon', () => {
    assert.equal(parseProvenance('- x [from: a, 2026-11-01; b]'), undefined);
    assert.equal(hasMalformedProvenance('- x [from: a, 2026-11-01; b]'), true);
    assert.equal(parseProvenance('- x [from: a, 2026-11-01; b, 2026-02-30]')!.validDate, false);
    assert.equal(parseProvenance('- x [from: a;b, 2026-11-01]')!.source, 'a;b');
  });

  it("adding sources keeps the line's identity and id, skips sources it has, and answers to each source", () => {
    const merged = addSources(ONE, [
      { source: 'c2', date: '2026-11-05' },
      { source: 'c1', date: '2026-11-01' },
    ]);
    assert.equal(merged, '- uses pnpm [from: c1, 2026-11-01; c2, 2026-11-05]');
    assert.equal(addSources(merged, [{ source: 'c2', date: '2026-11-05' }]), merged);
    assert.equal(itemId(merged), itemId(ONE));
    assert.equal(lineIdentity(merged), lineIdentity(ONE));
    // Search records carry the first source; their id is the line's.
    assert.equal(recordItemId({ text: 'uses pnpm', source: 'c1', date: '2026-11-01' }), itemId(merged));
    assert.deepEqual(lineIdentities(merged), [lineIdentity(ONE), lineIdentity('- uses pnpm [from: c2, 2026-11-05]')]);
    assert.equal(addSources('- by hand', [{ source: 'c9', date: '2026-11-09' }]), '- by hand [from: c9, 2026-11-09]');
  });

  it('a harvest meeting a merged source again does not write the line a second time', () => {
    const text = `# Facts\n\n- uses pnpm [from: c1, 2026-11-01; c2, 2026-11-05]\n`;
    assert.equal(appendItems(text, 'Facts', ['- uses pnpm [from: c2, 2026-11-05]']), text);
    assert.notEqual(appendItems(text, 'Facts', ['- uses pnpm [from: c3, 2026-11-06]']), text);
  });

  it('merge ops add the sources to the kept line and remove the duplicates, once', () => {
    const text = `# Facts\r\n\r\n${ONE}\r\n- keep me\r\n- pnpm is used [from: c2, 2026-11-05]\r\n${ONE}\r\n`;
    const ops = [
      {
        op: 'merge' as const,
        keep: lineIdentity(ONE),
        sources: [{ source: 'c2', date: '2026-11-05' }],
        drop: [lineIdentity('- pnpm is used [from: c2, 2026-11-05]')],
      },
    ];
    const once = applyItemOps(text, ops);
    assert.equal(once, '# Facts\r\n\r\n- uses pnpm [from: c1, 2026-11-01; c2, 2026-11-05]\r\n- keep me\r\n');
    assert.equal(applyItemOps(once, ops), once);
    // The kept line gone (deleted by hand): the duplicates stay, nothing is lost.
    assert.equal(applyItemOps('- pnpm is used [from: c2, 2026-11-05]\n', ops), '- pnpm is used [from: c2, 2026-11-05]\n');
  });
});

describe('supersession marker', () => {
  it('writes [superseded by ID, date] before the provenance and reads the older [superseded by: ID] too', () => {
    const marked = markSuperseded(ONE, 'k3m9x2ab', '2026-11-27');
    assert.equal(marked, '- uses pnpm [superseded by k3m9x2ab, 2026-11-27] [from: c1, 2026-11-01]');
    assert.deepEqual(readSupersession(marked), { by: 'k3m9x2ab', date: '2026-11-27' });
    const old = '- uses pnpm [superseded by: K3M9X2AB] [from: c1, 2026-11-01]';
    assert.deepEqual(readSupersession(old), { by: 'k3m9x2ab' });
    assert.equal(supersededBy(old), 'k3m9x2ab');
    assert.equal(isCurrent(old), false);
    assert.equal(isCurrent(ONE), true);
    // Re-marking rewrites the old form; the id never changes.
    assert.equal(markSuperseded(old, 'zz9x2abc', '2026-11-28'), '- uses pnpm [superseded by zz9x2abc, 2026-11-28] [from: c1, 2026-11-01]');
    assert.equal(itemId(old), itemId(ONE));
    assert.equal(itemId(marked), itemId(ONE));
    assert.equal(withoutSupersession(marked), ONE);
  });

  it('text from a conversation cannot forge either form', () => {
    assert.equal(isCurrent(`- ${neutralizeItemText('x [superseded by k3m9x2ab, 2026-11-27]')} [from: c, 2026-11-01]`), true);
    assert.equal(isCurrent(`- ${neutralizeItemText('x [Superseded By: k3m9x2ab]')} [from: c, 2026-11-01]`), true);
  });
});

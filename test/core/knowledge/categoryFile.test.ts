import * as assert from 'node:assert/strict';
import { appendItems, insertTasks, listItems, parseLines, serializeLines } from '../../../src/core/model/categoryFile';

describe('category files', () => {
  it('round-trips BOM, CRLF and a missing final newline byte for byte', () => {
    for (const text of ['\ufeff# Facts\r\n\r\n- a\r\n', '# Facts\n- a', '', '\n\n', '# T\r\n- x\r\n\r\n\r\n']) {
      assert.equal(serializeLines(parseLines(text)), text);
    }
  });

  it('lists items with sections, continuation lines and without code fences', () => {
    const text = [
      '# Tasks',
      '',
      '## Open',
      '- one [from: a, 2026-01-01]',
      '  continued here',
      '* two by hand',
      '',
      '```',
      '- not an item',
      '```',
      '## Done',
      '+ three',
    ].join('\n');
    const items = listItems(text);
    assert.deepEqual(
      items.map((i) => [i.text, i.section, i.line]),
      [
        ['one [from: a, 2026-01-01] continued here', 'Open', 3],
        ['two by hand', 'Open', 5],
        ['three', 'Done', 11],
      ],
    );
    assert.equal(items[0].provenance?.source, 'a');
    assert.equal(items[1].provenance, undefined);
  });

  it('appends after hand-written content, keeping CRLF, BOM, headings and unprovenanced lines', () => {
    const text = '\ufeff# Facts\r\n\r\nSome prose a person wrote.\r\n\r\n## Mine\r\n- my own fact\r\n\r\n\r\n';
    const out = appendItems(text, 'Facts', ['- new fact [from: c1, 2026-11-20]']);
    assert.equal(
      out,
      '\ufeff# Facts\r\n\r\nSome prose a person wrote.\r\n\r\n## Mine\r\n- my own fact\r\n- new fact [from: c1, 2026-11-20]\r\n\r\n\r\n',
    );
  });

  it('creates the title for a new file and skips lines already present', () => {
    const first = appendItems(undefined, 'Facts', ['- a [from: c1, 2026-11-20]', '- a [from: c1, 2026-11-20]']);
    assert.equal(first, '# Facts\n\n- a [from: c1, 2026-11-20]\n');
    // Same statement and source (another date, other spacing/case) is the same line.
    assert.equal(appendItems(first, 'Facts', ['- A  [from: c1, 2026-11-21]']), first);
    // The same statement from another conversation is new knowledge provenance-wise.
    assert.match(appendItems(first, 'Facts', ['- a [from: c2, 2026-11-21]']), /c2/);
  });

  it('puts open tasks before ## Done and done tasks at the end of ## Done', () => {
    const text =
      '# Tasks\n\n## Open\n\n- old open [from: a, 2026-01-01]\n\n## Done\n\n- old done [from: a, 2026-01-01]\n\n## Someday\n- by hand\n';
    const out = insertTasks(text, ['- new open [from: b, 2026-01-02]'], ['- new done [from: b, 2026-01-02]']);
    assert.equal(
      out,
      '# Tasks\n\n## Open\n\n- old open [from: a, 2026-01-01]\n- new open [from: b, 2026-01-02]\n\n## Done\n\n- old done [from: a, 2026-01-01]\n- new done [from: b, 2026-01-02]\n\n## Someday\n- by hand\n',
    );
  });

  it('creates missing Open/Done sections in a hand-made tasks file', () => {
    const out = insertTasks('# My tasks\n- loose item\n', ['- o [from: b, 2026-01-02]'], ['- d [from: b, 2026-01-02]']);
    assert.equal(out, '# My tasks\n- loose item\n\n## Open\n\n- o [from: b, 2026-01-02]\n\n## Done\n\n- d [from: b, 2026-01-02]\n');
    const onlyDone = insertTasks('# Tasks\n\n## Done\n\n- x [from: a, 2026-01-01]\n', ['- o [from: b, 2026-01-02]'], []);
    assert.equal(onlyDone, '# Tasks\n\n## Open\n\n- o [from: b, 2026-01-02]\n\n## Done\n\n- x [from: a, 2026-01-01]\n');
  });
});

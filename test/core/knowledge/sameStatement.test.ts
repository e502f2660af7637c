/**
 * The same statement from several sources is one line: which lines say the same thing (and which
 * do not), which line survives a fold, and the order of its sources, whatever order the lines came in.
 */
import * as assert from 'node:assert/strict';
import { applyItemOps } from '../../../src/core/model/itemOps';
import { itemId } from '../../../src/core/model/itemId';
import { foldSameStatements, sameStatementIndex, sameStatementKey, sameStatementOps } from '../../../src/core/model/sameStatement';

describe('sameStatement: duplicates by their words', () => {
  it('folds case, spacing, a trailing full stop and markdown emphasis, and nothing more', () => {
    const key = sameStatementKey('- The build uses **esbuild**. [from: a, 2026-11-20]');
    assert.equal(key, sameStatementKey('* the  build uses esbuild [from: b, 2026-11-21]'));
    assert.equal(key, sameStatementKey('- The build uses _esbuild_! [from: c, 2026-11-22]'));
    assert.notEqual(key, sameStatementKey('- The build uses esbuild 0.20 [from: b, 2026-11-21]'), 'another number is another fact');
    assert.notEqual(key, sameStatementKey('- The build uses esbuild? [from: b, 2026-11-21]'), 'a question stays a question');
    assert.notEqual(key, sameStatementKey('- The build uses esbuild — for speed [from: b, 2026-11-21]'), 'a detail is part of the item');
    assert.notEqual(
      sameStatementKey('- call `__init__` first [from: a, 2026-11-20]'),
      sameStatementKey('- call `init` first [from: b, 2026-11-20]'),
      'emphasis-looking characters inside a code span are part of a name',
    );
    assert.equal(sameStatementKey('- snake_case_names stay [from: a, 2026-11-20]'), 'snake_case_names stay');
  });

  it('folds one-line items into one line per statement: earliest source first, then by source id, wherever it came from', () => {
    const lines = [
      '- The build uses esbuild. [from: c, 2026-11-22]',
      '- logs go to stderr [from: c, 2026-11-22]',
      '- the build uses esbuild [from: b, 2026-11-20]',
      '- The build uses **esbuild** [from: a, 2026-11-20]',
      '- a line of a person without provenance',
      '- the build uses esbuild [from: b, 2026-11-20]',
    ];
    const folded = foldSameStatements(lines);
    assert.deepEqual(folded.lines, [
      '- The build uses **esbuild** [from: a, 2026-11-20; b, 2026-11-20; c, 2026-11-22]',
      '- logs go to stderr [from: c, 2026-11-22]',
      '- a line of a person without provenance',
    ]);
    assert.equal(folded.folded, 2, 'b twice is one source');
    assert.deepEqual(foldSameStatements([...lines].reverse()).lines[0], folded.lines[0], 'the order the lines came in does not matter');
  });

  it('leaves different statements and superseded lines alone', () => {
    const lines = [
      '- the TTL is 5 minutes [from: a, 2026-11-20]',
      '- the TTL is 10 minutes [from: b, 2026-11-21]',
      '- the TTL is 5 minutes [superseded by abcdefgh, 2026-11-22] [from: c, 2026-11-19]',
    ];
    assert.deepEqual(foldSameStatements(lines), { lines, folded: 0 });
  });

  it('folds a file: the earliest-sourced line keeps its id and gains the others, open and done tasks apart', () => {
    const text = [
      '# Tasks',
      '',
      '## Open',
      '',
      '- ship the release [from: b, 2026-11-21]',
      '- Ship the release. [from: a, 2026-11-20]',
      '',
      '## Done',
      '',
      '- ship the release [from: c, 2026-11-22]',
      '',
    ].join('\n');
    const keep = '- Ship the release. [from: a, 2026-11-20]';
    const ops = sameStatementOps(text);
    assert.equal(ops.length, 1);
    const after = applyItemOps(text, ops);
    assert.equal(
      after,
      text
        .replace('- ship the release [from: b, 2026-11-21]\n', '')
        .replace(keep, '- Ship the release. [from: a, 2026-11-20; b, 2026-11-21]'),
    );
    assert.ok(after.includes(`- ship the release [from: c, 2026-11-22]`), 'a done task is not an open one');
    assert.equal(itemId('- Ship the release. [from: a, 2026-11-20; b, 2026-11-21]'), itemId(keep));
    assert.deepEqual(sameStatementOps(after), [], 'folded once, nothing is left to fold');
  });

  it('finds the line of a file that says the same, in the section a line would go to', () => {
    const find = sameStatementIndex('# Facts\n\n- Logs go to **stderr**. [from: a, 2026-11-20]\n## Done\n\n- x [from: a, 2026-11-20]\n');
    assert.equal(find('- logs go to stderr [from: b, 2026-11-24]'), '- Logs go to **stderr**. [from: a, 2026-11-20]');
    assert.equal(find('- logs go to stdout [from: b, 2026-11-24]'), undefined);
    assert.equal(find('- x [from: b, 2026-11-24]'), undefined);
    assert.equal(find('- x [from: b, 2026-11-24]', 'Done'), '- x [from: a, 2026-11-20]');
  });
});

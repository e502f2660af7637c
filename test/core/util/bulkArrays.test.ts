/**
 * Array edits of any length (issue 33): spread into a call, a list of 100,000 items or more put
 * every element on the call stack and threw "Maximum call stack size exceeded". The write path's
 * helpers take any number, and the write path's own formats use them: a day's journal and a
 * merge of a teammate's category file with more new lines than one call could take.
 */
import * as assert from 'node:assert/strict';
import { maxOf, minOf, pushAll, spliceAll } from '../../../src/core/base/bulkArrays';
import { parseJournal, renderJournal } from '../../../src/core/model/journalFormat';
import { mergeItemFile } from '../../../src/core/model/merge/itemFileMerge';

const MANY = 300_000;
const numbers = (n: number, from = 0) => Array.from({ length: n }, (_, i) => from + i);

describe('bulk array edits', () => {
  it('pushAll appends any number of elements from each list, in order', () => {
    const out = pushAll(['a'], ['b', 'c'], new Set(['d']));
    assert.deepEqual(out, ['a', 'b', 'c', 'd']);
    const many = pushAll([-1], numbers(MANY));
    assert.equal(many.length, MANY + 1);
    assert.equal(many[MANY], MANY - 1);
  });

  it('spliceAll removes and inserts as Array.splice does, for any start, count and number of elements', () => {
    for (const start of [-9, -2, 0, 1, 3, 5, 9])
      for (const count of [0, 1, 2, 7])
        for (const insert of [[], ['x'], ['x', 'y', 'z']]) {
          const native = ['a', 'b', 'c', 'd', 'e'];
          const ours = [...native];
          const removedNative = native.splice(start, count, ...insert);
          assert.deepEqual(spliceAll(ours, start, count, insert), removedNative, `removed at ${start}, ${count}`);
          assert.deepEqual(ours, native, `array after ${start}, ${count}, ${insert.length}`);
        }
    const big = numbers(5);
    const removed = spliceAll(big, 2, 1, numbers(MANY, 100));
    assert.deepEqual(removed, [2]);
    assert.equal(big.length, 4 + MANY);
    assert.deepEqual(big.slice(0, 3), [0, 1, 100]);
    assert.deepEqual(big.slice(-3), [100 + MANY - 1, 3, 4]);
  });

  it('maxOf and minOf read any number of values, empty as Math.max() and Math.min()', () => {
    const values = numbers(MANY).map((n) => (n * 7919) % MANY);
    assert.equal(maxOf(values), MANY - 1);
    assert.equal(minOf(values), 0);
    assert.equal(maxOf([]), -Infinity);
    assert.equal(minOf([]), Infinity);
    assert.ok(Number.isNaN(maxOf([1, NaN, 2])));
  });

  it(`a day's journal of ${MANY} bullets in one category renders`, () => {
    const journal = parseJournal('2026-11-24', undefined);
    const bullets = numbers(MANY).map((n) => `- fact ${n}`);
    journal.sources.set('c1', new Map([['Facts', bullets]]));
    journal.summary = bullets.slice(0, 3);
    const lines = renderJournal(journal).split('\n');
    assert.equal(lines.filter((l) => l.startsWith('- fact ')).length, MANY + 3);
    assert.equal(lines.at(-2), `- fact ${MANY - 1}`);
  });

  it(`a merge where a teammate added ${MANY / 2} lines keeps them all`, () => {
    const base = '# Facts\n\n- kept [from: a, 2026-01-01]\n';
    const theirs =
      base +
      numbers(MANY / 2, 1)
        .map((n) => `- theirs ${n} [from: t, 2026-11-24]\n`)
        .join('');
    const ours = base + '- ours [from: o, 2026-11-24]\n';
    const merged = mergeItemFile(base, ours, theirs).split('\n');
    assert.equal(merged.filter((l) => l.startsWith('- theirs ')).length, MANY / 2);
    assert.ok(merged.includes('- ours [from: o, 2026-11-24]'));
  });
});

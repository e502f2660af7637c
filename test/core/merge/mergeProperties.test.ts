/**
 * Properties of the item-file merge over random edits of one file on two sides (seeded, so a
 * failure repeats): a side that did nothing takes the other's file as it is; no conflict marker
 * is ever written; every item either side added is there, once per statement; an item deleted on
 * one side and untouched on the other is gone; merging twice changes nothing.
 */
import * as assert from 'node:assert/strict';
import { mergeItemFile } from '../../../src/core/model/merge/itemFileMerge';
import { reconcileItems } from '../../../src/core/model/merge/reconcileItems';
import { forgottenLineTest, statementHash, withForgottenItems } from '../../../src/core/model/tombstones';
import { itemStatement } from '../../../src/core/model/itemLines';

/** A small deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Tasks = { open: string[]; done: string[] };
const render = ({ open, done }: Tasks) => ['# Tasks', '', '## Open', '', ...open, '', '## Done', '', ...done, ''].join('\n');
const items = (text: string) => text.split('\n').filter((l) => l.startsWith('- '));

function edit(base: Tasks, rnd: () => number, side: string): { tasks: Tasks; added: string[]; deleted: string[] } {
  const tasks = { open: [...base.open], done: [...base.done] };
  const steps = 1 + Math.floor(rnd() * 4);
  for (let s = 0; s < steps; s++) {
    const what = rnd();
    if (what < 0.4) {
      const line = `- ${side} task ${Math.floor(rnd() * 1000)} [from: ${side}${s}, 2026-11-2${s}]`;
      if (!tasks.open.includes(line)) tasks.open.push(line);
    } else if (what < 0.6 && tasks.open.length) {
      tasks.open.splice(Math.floor(rnd() * tasks.open.length), 1);
    } else if (what < 0.8 && tasks.open.length) {
      const [line] = tasks.open.splice(Math.floor(rnd() * tasks.open.length), 1);
      tasks.done.push(line);
    } else if (tasks.open.length) {
      const at = Math.floor(rnd() * tasks.open.length);
      tasks.open[at] = tasks.open[at].replace(/\]$/, `; ${side}-extra, 2026-11-30]`);
    }
  }
  // What the side did, from where it ended: items it added, items of the ancestor it deleted.
  const before = new Set([...base.open, ...base.done].map((l) => statementHash(l)));
  const after = new Set([...tasks.open, ...tasks.done].map((l) => statementHash(l)));
  return {
    tasks,
    added: [...tasks.open, ...tasks.done].filter((l) => !before.has(statementHash(l))),
    deleted: [...base.open, ...base.done].filter((l) => !after.has(statementHash(l))),
  };
}

describe('the item-file merge, over random edits on two sides', () => {
  it('keeps every addition once, drops what one side deleted, takes a side that did nothing as it is', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const rnd = random(seed);
      const base: Tasks = { open: [], done: [] };
      for (let i = 0; i < 1 + Math.floor(rnd() * 5); i++) base.open.push(`- base task ${i} [from: c0, 2026-11-01]`);
      if (rnd() < 0.5) base.done.push('- an old task [from: c0, 2026-11-01]');
      const o = edit(base, rnd, 'ours');
      const t = edit(base, rnd, 'theirs');
      const [b, ours, theirs] = [render(base), render(o.tasks), render(t.tasks)];
      const merged = mergeItemFile(b, ours, theirs);
      const where = `seed ${seed}\n--- base\n${b}\n--- ours\n${ours}\n--- theirs\n${theirs}\n--- merged\n${merged}`;
      assert.equal(mergeItemFile(b, b, theirs), theirs, where);
      assert.equal(mergeItemFile(b, ours, b), ours, where);
      assert.doesNotMatch(merged, /^(<{7}|={7}|>{7})/m, where);
      const statements = items(merged).map((l) => statementHash(l));
      assert.equal(new Set(statements).size, statements.length, `one line per statement: ${where}`);
      for (const line of [...o.added, ...t.added]) assert.ok(statements.includes(statementHash(line)), `${line} kept: ${where}`);
      for (const line of [...o.deleted, ...t.deleted]) {
        const other = o.deleted.includes(line) ? t : o;
        const untouched = other.tasks.open.includes(line) || (other.tasks.done.includes(line) && base.done.includes(line));
        if (untouched) assert.ok(!statements.includes(statementHash(line)), `${line} deleted: ${where}`);
      }
      const done = merged.slice(merged.indexOf('## Done'));
      for (const line of [...o.tasks.done, ...t.tasks.done].filter((l) => !base.done.includes(l)))
        assert.ok(
          items(done).some((l) => itemStatement(l) === itemStatement(line)),
          `${line} done: ${where}`,
        );
      assert.equal(mergeItemFile(b, merged, merged), merged, where);
    }
  });
});

describe('reconciling a file with the merged ledger', () => {
  it('drops forgotten items and sources, folds one statement into one line, and changes nothing when there is nothing to do', () => {
    const forgotten = '- the password is hunter2 [from: c1, 2026-11-20]';
    const ledger = withForgottenItems({ entries: {} }, [forgotten], '2026-11-21T00:00:00Z');
    const rules = { forgottenLine: forgottenLineTest(ledger), forgottenSources: new Set(['gone']) };
    const text = [
      '# Facts',
      '',
      '- the password is hunter2 [from: c2, 2026-11-22]',
      '- the queue is rabbit [from: c1, 2026-11-20]',
      '- the cache is redis [from: gone, 2026-11-20; c3, 2026-11-21]',
      '- only from gone [from: gone, 2026-11-20]',
      '- The queue is  rabbit [from: c4, 2026-11-23]',
      '',
    ].join('\n');
    assert.equal(
      reconcileItems(text, rules),
      [
        '# Facts',
        '',
        '- the queue is rabbit [from: c1, 2026-11-20; c4, 2026-11-23]',
        '- the cache is redis [from: c3, 2026-11-21]',
        '',
      ].join('\n'),
    );
    assert.equal(reconcileItems(reconcileItems(text, rules)!, rules), undefined);
  });
});

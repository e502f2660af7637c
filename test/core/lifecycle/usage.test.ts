import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { decayOf, selectForArchive, type DecayItem } from '../../../src/core/store/lifecycle/decay';
import { DEFAULT_LIFECYCLE, loadLifecycleConfig } from '../../../src/core/store/lifecycle/lifecycleConfig';
import { currentUsage, foldUsage, readUsageSummary, type UsageSummary } from '../../../src/core/store/lifecycle/usageSummary';
import { recordUses, USAGE_LOG_MAX_BYTES, usageLogFile } from '../../../src/core/store/lifecycle/usageLog';
import { storePaths } from '../../../src/core/store/storePaths';
import { makeTempDir } from '../../helpers/paths';

const A = 'aaaaaaaa';
const B = 'bbbbbbbb';
const C = 'cccccccc';

function store() {
  const root = path.join(makeTempDir(), '.lore');
  fs.mkdirSync(root);
  return storePaths(root);
}

describe('usage log and summary', () => {
  it('appends one line per use, keeps only item ids, and folds them into the summary under their last day', () => {
    const paths = store();
    recordUses(paths, [A, B, A, undefined, 'not-an-id', '../x/../y'], 'search', new Date('2026-03-01T10:00:00Z'));
    recordUses(paths, [A], 'hook', new Date('2026-03-05T10:00:00Z'));
    recordUses(paths, [], 'hook');
    assert.equal(fs.readFileSync(usageLogFile(paths), 'utf8'), `2026-03-01 search ${A} ${B}\n2026-03-05 hook ${A}\n`);

    const folded = foldUsage(paths, [A, C], new Set([A, B, C]), new Date('2026-03-10T00:00:00Z')).summary;
    assert.equal(folded.since, '2026-03-10');
    assert.deepEqual(folded.items.get(A)!, { uses: 2, used: '2026-03-05', seen: '2026-03-10' });
    assert.deepEqual(folded.items.get(B)!, { uses: 1, used: '2026-03-01', seen: '2026-03-10' });
    assert.deepEqual(folded.items.get(C)!, { uses: 0, seen: '2026-03-10' });
    assert.ok(!fs.existsSync(usageLogFile(paths)), 'the folded log is gone');
    assert.deepEqual(readUsageSummary(paths).summary, folded);
    assert.deepEqual(Object.keys(JSON.parse(fs.readFileSync(path.join(paths.root, '.logs', 'usage-summary.json'), 'utf8')).items), [
      A,
      B,
      C,
    ]);

    // A later use lands in a new log; the preview merges it without writing; an id that left the store is dropped by the next fold.
    recordUses(paths, [C], 'agent', new Date('2026-04-01T00:00:00Z'));
    const current = currentUsage(paths, [A, C], new Date('2026-04-02T00:00:00Z')).summary;
    assert.equal(current.items.get(C)!.used, '2026-04-01');
    assert.equal(readUsageSummary(paths).summary?.items.get(C)?.used, undefined, 'the preview wrote nothing');
    const next = foldUsage(paths, [A, C], new Set([A, C]), new Date('2026-04-02T00:00:00Z')).summary;
    assert.deepEqual([...next.items.keys()].sort(), [A, C]);
    assert.equal(next.items.get(C)!.uses, 1);
  });

  it('rotates a log past its cap, and a fold reads both files', () => {
    const paths = store();
    fs.mkdirSync(path.dirname(usageLogFile(paths)), { recursive: true });
    fs.writeFileSync(usageLogFile(paths), `2026-01-01 search ${B}\n`.padEnd(USAGE_LOG_MAX_BYTES + 10, ' ') + '\n');
    recordUses(paths, [A], 'recall', new Date('2026-01-02T00:00:00Z'));
    assert.ok(fs.existsSync(`${usageLogFile(paths)}.1`));
    assert.equal(fs.readFileSync(usageLogFile(paths), 'utf8'), `2026-01-02 recall ${A}\n`);
    const folded = foldUsage(paths, [A, B], new Set([A, B]), new Date('2026-01-03T00:00:00Z')).summary;
    assert.equal(folded.items.get(A)!.used, '2026-01-02');
    assert.equal(folded.items.get(B)!.used, '2026-01-01');
    assert.ok(!fs.existsSync(`${usageLogFile(paths)}.1`));
  });

  it('a damaged summary is reported and usage starts again', () => {
    const paths = store();
    fs.mkdirSync(path.join(paths.root, '.logs'));
    fs.writeFileSync(path.join(paths.root, '.logs', 'usage-summary.json'), '{"version":1,"since":"yesterday","items":{}}');
    const { summary, problem } = currentUsage(paths, [A], new Date('2026-05-01T00:00:00Z'));
    assert.match(problem ?? '', /since/);
    assert.equal(summary.since, '2026-05-01');
  });
});

describe('decay', () => {
  const summary: UsageSummary = {
    version: 1,
    since: '2026-01-01',
    items: new Map([
      [A, { uses: 3, used: '2026-03-01', seen: '2026-01-01' }],
      [B, { uses: 0, seen: '2026-02-15' }],
    ]),
  };
  const fact = (id: string, date?: string): DecayItem => ({ id, category: 'facts', superseded: false, ...(date ? { date } : {}) });

  it('counts from the latest of provenance, last use and an edit seen after the summary began; halves every half-life', () => {
    const config = { ...DEFAULT_LIFECYCLE };
    assert.equal(decayOf(fact(A, '2025-06-01'), summary, config, '2026-03-31').lastTouch, '2026-03-01');
    assert.equal(decayOf(fact(A, '2025-06-01'), summary, config, '2026-03-31').weight, 0.5);
    assert.equal(decayOf(fact(B), summary, config, '2026-03-17').lastTouch, '2026-02-15', 'first seen after the start: an edit');
    assert.equal(decayOf(fact(C, '2025-01-01'), summary, config, '2026-03-02').lastTouch, '2026-01-01', 'never before usage was recorded');
    assert.equal(decayOf(fact(C, '2026-02-20'), summary, config, '2026-03-02').lastTouch, '2026-02-20');
  });

  it('keeps decisions and playbooks unless superseded, archives what fell below the threshold, then trims a category over budget', () => {
    const config = { ...DEFAULT_LIFECYCLE, budgets: { ...DEFAULT_LIFECYCLE.budgets, facts: 2 } };
    const today = '2026-04-15'; // 104 days after the start
    const items: DecayItem[] = [
      { id: 'dddddddd', category: 'decisions', superseded: false },
      { id: 'eeeeeeee', category: 'decisions', superseded: true },
      fact('ffffffff'), // untouched since the start: weight 0.09
      fact('gggggggg', '2026-03-01'), // 45 days: 0.35, above the threshold
      fact('hhhhhhhh', '2026-03-10'), // 36 days: 0.43
      fact('jjjjjjjj', '2026-04-01'), // 14 days: 0.72, too fresh to go for room
      fact('kkkkkkkk', '2026-04-10'),
    ];
    const chosen = selectForArchive(items, summary, config, today);
    assert.deepEqual([...chosen.values()].map((c) => [c.decay.id, c.reason]).sort(), [
      ['eeeeeeee', 'unused'],
      ['ffffffff', 'unused'],
      ['gggggggg', 'over-budget'],
      ['hhhhhhhh', 'over-budget'],
    ]);
    // With room, only the decayed ones go.
    assert.deepEqual([...selectForArchive(items, summary, DEFAULT_LIFECYCLE, today).keys()].sort(), [
      'decisions/eeeeeeee',
      'facts/ffffffff',
    ]);
    // The same line in a kept category and in facts: only the facts copy decays.
    const both = selectForArchive(
      [{ id: 'ffffffff', category: 'decisions', superseded: false }, fact('ffffffff')],
      summary,
      DEFAULT_LIFECYCLE,
      today,
    );
    assert.deepEqual([...both.keys()], ['facts/ffffffff']);
  });

  it('reads its settings from config.json and names a wrong one', () => {
    const paths = store();
    fs.writeFileSync(
      paths.config,
      JSON.stringify({ reclaim: 'keep', lifecycle: { halfLifeDays: 10, keep: ['decisions'], budgets: { facts: 5 } } }),
    );
    const { config } = loadLifecycleConfig(paths);
    assert.equal(config.halfLifeDays, 10);
    assert.deepEqual(config.keep, ['decisions']);
    assert.equal(config.budgets.facts, 5);
    assert.equal(config.budgets.tasks, DEFAULT_LIFECYCLE.budgets.tasks);
    fs.writeFileSync(paths.config, JSON.stringify({ lifecycle: { archiveBelow: 2 } }));
    const bad = loadLifecycleConfig(paths);
    assert.match(bad.problem ?? '', /lifecycle\.archiveBelow/);
    assert.equal(bad.config.archiveBelow, DEFAULT_LIFECYCLE.archiveBelow);
  });
});

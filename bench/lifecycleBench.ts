/**
 * The memory lifecycle's costs. A use is logged on every hook and agent read, so it must cost
 * about what appending one line costs; `lore prune` reads the whole store and the usage log, so
 * a preview should cost a small multiple of reading and parsing the category files and hashing
 * their item ids (what naming the items takes). Store: 20,000
 * facts, 2,000 tasks, 1,000 decisions, and a usage log of 20,000 lines (about 400 KB, under its cap).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CATEGORY_FILES } from '../src/core/model/categories';
import { listItems } from '../src/core/model/categoryFile';
import { itemId, listItemId } from '../src/core/model/itemId';
import { previewPrune } from '../src/core/store/lifecycle/prune';
import { recordUses, usageLogFile } from '../src/core/store/lifecycle/usageLog';
import { storePaths } from '../src/core/store/storePaths';
import { baselineOf, freshScratchDir, makeResult, repeatInterleaved, type BenchContext, type BenchResult } from './benchSupport';

const FACTS = 20_000;
const TASKS = 2_000;
const DECISIONS = 1_000;
const LOG_LINES = 20_000;
const USES_PER_SAMPLE = 200;
const REPS = 7;

export async function run(ctx: BenchContext): Promise<BenchResult[]> {
  const root = path.join(freshScratchDir(ctx, 'lifecycle-store'), '.lore');
  fs.mkdirSync(root, { recursive: true });
  const paths = storePaths(root);
  const month = (i: number) => String((i % 12) + 1).padStart(2, '0');
  const facts = Array.from(
    { length: FACTS },
    (_, i) => `- fact ${i} about the order service and its retries [from: c${i % 500}, 2026-${month(i)}-10]`,
  );
  const tasks = Array.from({ length: TASKS }, (_, i) => `- task ${i}: move the refund path to v3 [from: c${i % 500}, 2026-${month(i)}-10]`);
  const decisions = Array.from(
    { length: DECISIONS },
    (_, i) => `- decision ${i}: keep retries idempotent — they replay [from: c${i % 500}, 2026-${month(i)}-10]`,
  );
  fs.writeFileSync(path.join(root, 'facts.md'), `# Facts\n\n${facts.join('\n')}\n`);
  fs.writeFileSync(path.join(root, 'tasks.md'), `# Tasks\n\n## Open\n\n${tasks.join('\n')}\n\n## Done\n`);
  fs.writeFileSync(path.join(root, 'decisions.md'), `# Decisions\n\n${decisions.join('\n')}\n`);
  const ids = facts.map(itemId);
  const use = ids.slice(0, 8);
  fs.mkdirSync(path.dirname(usageLogFile(paths)), { recursive: true });
  fs.writeFileSync(
    usageLogFile(paths),
    Array.from(
      { length: LOG_LINES },
      (_, i) => `2026-11-${String((i % 27) + 1).padStart(2, '0')} hook ${ids.slice(i % 1000, (i % 1000) + 2).join(' ')}\n`,
    ).join(''),
  );
  const logBytes = fs.statSync(usageLogFile(paths)).size;
  // Usage recorded since the start of the year: items from the older months have decayed by the end of it.
  // Every item seen on the first day, as a prune then would have recorded it.
  const seen = Object.fromEntries([...facts, ...tasks, ...decisions].map((l) => [itemId(l), { uses: 0, seen: '2026-01-01' }]));
  fs.writeFileSync(path.join(root, '.logs', 'usage-summary.json'), JSON.stringify({ version: 1, since: '2026-01-01', items: seen }));
  const plainLog = path.join(root, '.logs', 'plain.log');
  const line = `2026-11-27 hook ${use.join(' ')}\n`;
  const categoryFiles = Object.values(CATEGORY_FILES).map((c) => path.join(root, c.file));

  let proposed = 0;
  const [append, record, parse, preview] = await repeatInterleaved(REPS, [
    {
      fn: () => {
        for (let i = 0; i < USES_PER_SAMPLE; i++) fs.appendFileSync(plainLog, line);
      },
    },
    // The log is put back to its size before each sample, so recording never rotates it here.
    {
      setup: () => fs.truncateSync(usageLogFile(paths), logBytes),
      fn: () => {
        for (let i = 0; i < USES_PER_SAMPLE; i++) recordUses(paths, use, 'hook');
      },
    },
    {
      fn: () =>
        categoryFiles.reduce((n, f) => n + (fs.existsSync(f) ? listItems(fs.readFileSync(f, 'utf8')).map(listItemId).length : 0), 0),
    },
    { fn: () => (proposed = previewPrune(paths, new Date('2026-12-31T00:00:00Z')).candidates.length) },
  ]);
  const perUse = (samples: number[]) => samples.map((ms) => (ms * 1000) / USES_PER_SAMPLE);
  return [
    makeResult({
      name: 'log one use of 8 items (hook, agent read)',
      unit: 'µs',
      samples: perUse(record.wall),
      baseline: baselineOf('append the same line to a file', 'µs', perUse(append.wall)),
      target: { on: 'ratio', op: '<=', threshold: 3 },
    }),
    makeResult({
      name: 'lore prune --preview, 23,000 items, 20,000 log lines',
      unit: 'ms',
      samples: preview.wall,
      baseline: baselineOf('read and parse the category files, hash each item id', 'ms', parse.wall),
      target: { on: 'ratio', op: '<=', threshold: 4 },
      notes: [`${proposed} proposed for the archive`],
    }),
  ];
}

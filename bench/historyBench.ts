/**
 * The store's git history (issue 18): what a commit after an apply costs, and what the history
 * of one item costs (lore history, the hover's first ask). A workspace repository with 2,000
 * files of its own and a store of 1,000 note files (10,000 notes), every change one line added
 * to facts.md. Baselines, interleaved in the same run: the plain `git commit -q -m … -- <file>`
 * a person would run for the same change (one process; Lore runs about a dozen, to keep the
 * person's index and work tree out of it), and `git log -1` (one process) for the history.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { itemHistory } from '../src/core/store/items/itemHistory';
import { recordStoreChange } from '../src/core/store/history/storeHistory';
import { itemId } from '../src/core/model/itemId';
import { storePaths } from '../src/core/store/storePaths';
import { generateLargeStore } from '../test/server/largeStore';
import { baselineOf, makeResult, repeatInterleaved, scratchDir, type BenchContext, type BenchResult } from './benchSupport';

const NOTE_FILES = 1_000;
const SOURCE_FILES = 2_000;
const REPS = 9;
/** An apply should not wait noticeably for its commit. */
const COMMIT_TARGET_MS = 150;

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function workspace(ctx: BenchContext): string {
  const ws = path.join(scratchDir(ctx, 'history-store'), 'ws');
  fs.rmSync(ws, { recursive: true, force: true });
  ctx.log(`history: a repository with ${SOURCE_FILES} files and a store of ${NOTE_FILES} note files`);
  const { paths } = generateLargeStore(ws, NOTE_FILES, 10);
  for (let i = 0; i < SOURCE_FILES; i++) {
    const file = path.join(ws, 'lib', `m${i % 20}`, `f${i}.ts`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `export const v${i} = ${i};\n`);
  }
  fs.writeFileSync(path.join(paths.root, 'facts.md'), '# Facts\n\n- the first fact [from: c0, 2026-11-20]\n');
  fs.writeFileSync(path.join(paths.root, 'config.json'), '{"git": {"commit": "apply"}}');
  git(ws, 'init', '-q', '-b', 'main');
  git(ws, 'config', 'user.name', 'Bench');
  git(ws, 'config', 'user.email', 'bench@example.com');
  git(ws, 'add', '-A');
  git(ws, 'commit', '-q', '-m', 'start');
  return ws;
}

export async function run(ctx: BenchContext): Promise<BenchResult[]> {
  const ws = workspace(ctx);
  const paths = storePaths(path.join(ws, '.lore'), ws);
  const facts = path.join(paths.root, 'facts.md');
  let n = 0;
  const add = () => fs.appendFileSync(facts, `- fact ${++n} learned in the bench [from: c${n}, 2026-11-21]\n`);
  let committed = 0;
  const [plain, lore] = await repeatInterleaved(REPS, [
    { setup: add, fn: () => git(ws, 'commit', '-q', '-m', `plain ${n}`, '--', '.lore/facts.md') },
    {
      setup: add,
      fn: async () => (committed += (await recordStoreChange(paths, { type: 'memory', subject: `fact ${n}` }))?.commits.length ?? 0),
    },
  ]);
  const id = itemId('- the first fact [from: c0, 2026-11-20]');
  const [log, history] = await repeatInterleaved(REPS, [
    { fn: () => git(ws, 'log', '-1', '--format=%H') },
    { fn: () => itemHistory(paths, id) },
  ]);
  const status = git(ws, 'status', '--porcelain');
  return [
    makeResult({
      name: 'commit after an apply (one line in facts.md), store of 1,000 note files in a 2,000-file repository',
      unit: 'ms',
      samples: lore.wall,
      baseline: baselineOf('git commit -q -m … -- .lore/facts.md', 'ms', plain.wall),
      target: { on: 'value', op: '<', threshold: COMMIT_TARGET_MS },
      notes: [
        `${committed} of ${REPS} commits made; git status afterwards: ${status.trim().split('\n').join(', ') || 'clean'} (the store here has no .gitignore: .logs/ stays untracked, never committed)`,
      ],
    }),
    makeResult({
      name: 'history of one item (blame, log -L, log -S), ' + `${REPS * 2 + 1} commits`,
      unit: 'ms',
      samples: history.wall,
      baseline: baselineOf('git log -1', 'ms', log.wall),
    }),
  ];
}

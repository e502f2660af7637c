/**
 * `lore forget <conversation-id>` on a store of 10,000 items from 200 conversations (50 each), with
 * a built search index: the plan (what `--preview` prints), and the apply (tombstone, facts.md
 * rewritten, digest, index updated and purged: FTS5 optimize and VACUUM). Baseline, interleaved
 * in the same run: the index update a plain edit of facts.md costs (one line removed by hand),
 * which the apply must do anyway; the rest of its time is the purge that makes forgetting final.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { applyForget, planForget } from '../src/core/store/forget/forgetConversation';
import { initStore } from '../src/core/store/initStore';
import { SearchIndex } from '../src/core/services/search/searchIndex';
import { purgeStoreIndex } from '../src/core/services/search/forgetIndex';
import { storePaths, type StorePaths } from '../src/core/store/storePaths';
import { baselineOf, freshScratchDir, makeResult, repeatInterleaved, type BenchContext, type BenchResult } from './benchSupport';

const CONVERSATIONS = 200;
const ITEMS_EACH = 50;
const REPS = 5;

function makeStore(ctx: BenchContext): StorePaths {
  const ws = freshScratchDir(ctx, 'forget-store');
  const paths = storePaths(path.join(ws, '.lore'), ws);
  initStore(paths, path.join(ctx.repoRoot, 'prompts'));
  const lines: string[] = [];
  for (let c = 0; c < CONVERSATIONS; c++) {
    for (let i = 0; i < ITEMS_EACH; i++)
      lines.push(`- item ${i} of conversation ${c} says word${c * ITEMS_EACH + i} about the order service [from: conv-${c}, 2026-11-20]`);
  }
  fs.writeFileSync(path.join(paths.root, 'facts.md'), `# Facts\n\n${lines.join('\n')}\n`);
  return paths;
}

async function updateIndex(paths: StorePaths): Promise<void> {
  const index = SearchIndex.open(paths, { embedder: null });
  try {
    await index.update();
  } finally {
    index.close();
  }
}

export async function run(ctx: BenchContext): Promise<BenchResult[]> {
  const paths = makeStore(ctx);
  await updateIndex(paths);
  const facts = path.join(paths.root, 'facts.md');
  let next = 0;
  let removed = 0;
  const plans: number[] = [];
  const [edit, forget] = await repeatInterleaved(REPS, [
    {
      // A person deletes one line by hand; the index catches up (no purge).
      setup: () => fs.writeFileSync(facts, fs.readFileSync(facts, 'utf8').replace(/^- item 0 of conversation \d+ .*\n/m, '')),
      fn: () => updateIndex(paths),
    },
    {
      fn: async () => {
        const id = `conv-${CONVERSATIONS - 1 - next++}`;
        const started = performance.now();
        planForget(paths, id);
        plans.push(performance.now() - started);
        removed += (await applyForget(paths, id, { reindex: () => purgeStoreIndex(paths) })).plan.removed.length;
      },
    },
  ]);
  const notes = [`${CONVERSATIONS * ITEMS_EACH} items, ${REPS} conversations forgotten, ${removed} items removed`];
  return [
    makeResult({ name: 'forget a conversation: the plan (--preview)', unit: 'ms', samples: plans, notes }),
    makeResult({
      name: 'forget a conversation: plan + apply, index updated and purged',
      unit: 'ms',
      samples: forget.wall,
      baseline: baselineOf('index update after a hand edit of facts.md', 'ms', edit.wall),
      notes,
    }),
  ];
}

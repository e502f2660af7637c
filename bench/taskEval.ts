/**
 * `npm run eval:tasks`: retrieval quality of task_search on a hand-written gold set
 * (test/fixtures/tasks/gold.json) over the fixture task logs (test/fixtures/tasks/logs). For each
 * question the gold names the artifacts a good answer starts from; hit@3 counts questions with
 * one of them in the top 3, MRR averages 1 / rank of the first. Deterministic: no clock, no model.
 *
 *   node out/bench/taskEval.js            the figures
 *   node out/bench/taskEval.js --verbose  also each question's top 3
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { storePaths } from '../src/core/store/storePaths';
import { taskFiltersSchema } from '../src/core/services/tasks/taskFilters';
import { TaskIndex } from '../src/core/services/tasks/taskIndex';
import { SEARCH_MODES, searchTasks, type SearchMode } from '../src/core/services/tasks/taskSearch';

const FIXTURES = path.resolve(__dirname, '..', '..', 'test', 'fixtures', 'tasks');

interface GoldQuestion {
  q: string;
  mode?: SearchMode;
  filters?: unknown;
  expect: string[];
}

/** The figures of one evaluation. */
export interface TaskEvalResult {
  questions: number;
  hitAt3: number;
  mrr: number;
  rows: Array<{ q: string; rank: number; top: string[] }>;
}

/** Runs the gold set against a store holding the fixture logs. */
export function evaluateTaskSearch(): TaskEvalResult {
  const gold = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'gold.json'), 'utf8')) as { questions: GoldQuestion[] };
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lore-task-eval-'));
  const paths = storePaths(path.join(root, '.lore'));
  fs.mkdirSync(path.join(paths.root, 'tasks'), { recursive: true });
  for (const name of fs.readdirSync(path.join(FIXTURES, 'logs')))
    fs.copyFileSync(path.join(FIXTURES, 'logs', name), path.join(paths.root, 'tasks', name));
  const index = TaskIndex.open(paths);
  try {
    index.refresh();
    const rows = gold.questions.map((g) => {
      if (g.mode && !SEARCH_MODES.includes(g.mode)) throw new Error(`gold: unknown mode ${g.mode}`);
      const reply = searchTasks(index, {
        query: g.q,
        mode: g.mode,
        filters: taskFiltersSchema.parse(g.filters ?? {}),
        limit: 10,
        tokenBudget: 20_000,
      });
      const ids = reply.hits.map((h) => h.artifact_id);
      const rank = ids.findIndex((id) => g.expect.includes(id)) + 1;
      return { q: g.q, rank, top: ids.slice(0, 3) };
    });
    const n = rows.length;
    return {
      questions: n,
      hitAt3: rows.filter((r) => r.rank > 0 && r.rank <= 3).length / n,
      mrr: rows.reduce((sum, r) => sum + (r.rank > 0 ? 1 / r.rank : 0), 0) / n,
      rows,
    };
  } finally {
    index.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const result = evaluateTaskSearch();
  if (process.argv.includes('--verbose'))
    for (const r of result.rows) console.log(`${r.rank === 0 ? 'miss' : `#${r.rank}`.padEnd(4)}  ${r.q}  →  ${r.top.join(', ')}`);
  console.log(`task_search on ${result.questions} gold questions: hit@3 ${result.hitAt3.toFixed(2)}, MRR ${result.mrr.toFixed(2)}`);
}

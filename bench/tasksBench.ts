/**
 * Task memory at scale: 500 tasks of 20 artifacts (10,000 artifacts, synthetic JSONL). Rebuilding
 * the side tables from the logs against reading and parsing the same logs (what any rebuild must
 * do); a refresh with nothing changed against one stat per log; a task_search with exact filters
 * and a ranked query, and one artifact appended then the index refreshed (an agent's write and
 * its next read), informational.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { storePaths } from '../src/core/store/storePaths';
import { recordArtifact } from '../src/core/services/tasks/recordArtifact';
import { TaskIndex } from '../src/core/services/tasks/taskIndex';
import { searchTasks } from '../src/core/services/tasks/taskSearch';
import { baselineOf, makeResult, repeat, repeatInterleaved, scratchDir, type BenchContext, type BenchResult } from './benchSupport';

const TASKS = 500;
const PER_TASK = 20;
const REPS = 5;
const SPEC = `${TASKS} tasks × ${PER_TASK} artifacts v1`;
const TOPICS = [
  'refund retries',
  'checkout latency',
  'database migration',
  'flaky tests',
  'memory leak',
  'bundle size',
  'auth tokens',
  'churn model',
];

function line(task: string, i: number, n: number): string {
  const topic = TOPICS[n % TOPICS.length];
  const kind = i === 0 ? 'task_start' : i === PER_TASK - 1 ? 'task_finish' : ['task_progress', 'evidence', 'decision'][i % 3];
  const a: Record<string, unknown> = {
    artifact_id: `a-${(n * PER_TASK + i).toString(16).padStart(12, '0')}`,
    artifact_kind: kind,
    task_id: task,
    agent_id: `agent-${n % 3}`,
    timestamp_created: new Date(Date.UTC(2026, 0, 1) + (n * PER_TASK + i) * 60_000).toISOString(),
  };
  if (kind === 'task_start') a.goal = `Investigate ${topic} in service ${n}`;
  else a.summary = `Step ${i} on ${topic} for service ${n}: measured ${i * 7} ms, tried option ${i % 5}`;
  if (kind === 'task_finish') {
    a.what_worked = [`option ${n % 5} for ${topic}`];
    a.what_failed = [`option ${(n + 1) % 5} made ${topic} worse`];
  }
  if (kind === 'evidence') a.dataset_refs = [{ name: `ds-${n % 20}`, version: 'v1' }];
  return JSON.stringify(a);
}

function store(ctx: BenchContext): string {
  const root = path.join(scratchDir(ctx, 'tasks-store'), '.lore');
  const marker = path.join(root, '.spec');
  if (fs.existsSync(marker) && fs.readFileSync(marker, 'utf8') === SPEC) return root;
  fs.rmSync(root, { recursive: true, force: true });
  fs.mkdirSync(path.join(root, 'tasks'), { recursive: true });
  ctx.log(`tasks: generating ${TASKS} task logs`);
  for (let n = 0; n < TASKS; n++) {
    const task = `task-${n}`;
    fs.writeFileSync(
      path.join(root, 'tasks', `${task}.jsonl`),
      Array.from({ length: PER_TASK }, (_, i) => line(task, i, n)).join('\n') + '\n',
    );
  }
  fs.writeFileSync(marker, SPEC);
  return root;
}

export async function run(ctx: BenchContext): Promise<BenchResult[]> {
  const paths = storePaths(store(ctx));
  const logs = fs
    .readdirSync(path.join(paths.root, 'tasks'))
    .filter((n) => n.endsWith('.jsonl'))
    .map((n) => path.join(paths.root, 'tasks', n));
  const index = TaskIndex.open(paths);
  try {
    const [parse, rebuild] = await repeatInterleaved(REPS, [
      {
        fn: () =>
          logs.reduce(
            (n, f) =>
              n +
              fs
                .readFileSync(f, 'utf8')
                .split('\n')
                .filter(Boolean)
                .map((l) => JSON.parse(l) as unknown).length,
            0,
          ),
      },
      { fn: () => index.rebuild() },
    ]);
    const [stats, refresh] = await repeatInterleaved(REPS, [
      { fn: () => logs.reduce((n, f) => n + fs.statSync(f).size, 0) },
      { fn: () => index.refresh() },
    ]);
    let hits = 0;
    const search = await repeat(
      REPS * 4,
      () =>
        (hits += searchTasks(index, { query: 'option worse latency', mode: 'find_failures', filters: { agent_id: 'agent-1' } }).hits
          .length),
    );
    const ranked = await repeat(REPS * 4, () => searchTasks(index, { query: 'refund retries measured' }));
    let clock = Date.UTC(2027, 0, 1);
    const write = await repeat(REPS, async () => {
      await recordArtifact(
        paths,
        { artifact_kind: 'task_progress', task_id: 'task-7', summary: 'one more checkpoint' },
        { agentId: 'bench', now: () => new Date((clock += 1000)) },
      );
      index.refresh();
    });
    const artifacts = TASKS * PER_TASK;
    return [
      makeResult({
        name: `rebuild the task tables from ${artifacts} artifacts`,
        unit: 'ms',
        samples: rebuild.wall,
        baseline: baselineOf('read and JSON.parse the same logs', 'ms', parse.wall),
        target: { on: 'ratio', op: '<=', threshold: 25 },
      }),
      makeResult({
        name: 'refresh with nothing changed',
        unit: 'ms',
        samples: refresh.wall,
        baseline: baselineOf('stat every log', 'ms', stats.wall),
        target: { on: 'ratio', op: '<=', threshold: 10 },
      }),
      makeResult({
        name: 'task_search: filter agent_id, mode find_failures',
        unit: 'ms',
        samples: search,
        notes: [`${hits / (REPS * 4)} hits per query`],
      }),
      makeResult({ name: 'task_search: ranked over every artifact, no filter', unit: 'ms', samples: ranked }),
      makeResult({ name: 'record one artifact, then refresh', unit: 'ms', samples: write }),
    ];
  } finally {
    index.close();
  }
}

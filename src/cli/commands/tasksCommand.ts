/**
 * `lore tasks …`: task memory from the command line, the same operations as the MCP task tools
 * (core/tasks/taskMemory). A person at the CLI sees held text; agents never do.
 */
import * as fs from 'node:fs';
import { type ArtifactInput, type RecordContext } from '../../core/services/tasks/recordArtifact';
import { taskFiltersSchema, type TaskFilters } from '../../core/services/tasks/taskFilters';
import { taskPageFile } from '../../core/services/tasks/taskFiles';
import { TaskMemory } from '../../core/services/tasks/taskMemory';
import { renderTaskPage } from '../../core/services/tasks/taskPage';
import { SEARCH_MODES, type SearchMode } from '../../core/services/tasks/taskSearch';
import { describeSchemaIssue } from '../../core/base/schemaIssue';
import { command, type Parsed } from '../command';
import { EXIT_FAILED, EXIT_OK, UsageError, envOf, printable, type Output } from '../cliSupport';
import { readStoreFile } from '../../core/base/readText';

const OPTIONS = {
  agent: { type: 'string' },
  id: { type: 'string' },
  motivation: { type: 'string' },
  hypothesis: { type: 'string' },
  question: { type: 'string' },
  parent: { type: 'string' },
  summary: { type: 'string' },
  status: { type: 'string' },
  blocker: { type: 'string', multiple: true },
  worked: { type: 'string', multiple: true },
  failed: { type: 'string', multiple: true },
  validation: { type: 'string', multiple: true },
  uncertainty: { type: 'string', multiple: true },
  followup: { type: 'string', multiple: true },
  tool: { type: 'string' },
  'tool-version': { type: 'string' },
  command: { type: 'string' },
  why: { type: 'string' },
  metric: { type: 'string', multiple: true },
  file: { type: 'string', multiple: true },
  conversation: { type: 'string' },
  confidence: { type: 'string' },
  mode: { type: 'string' },
  filter: { type: 'string', multiple: true },
  limit: { type: 'string' },
  budget: { type: 'string' },
  apply: { type: 'boolean' },
} as const;

function keyValues(pairs: string[] | undefined, option: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of pairs ?? []) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`${option} expects KEY=VALUE, not "${pair}"`);
    out[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return out;
}

function metrics(pairs: string[] | undefined): Record<string, number | string> | undefined {
  const kv = keyValues(pairs, '--metric');
  if (Object.keys(kv).length === 0) return undefined;
  return Object.fromEntries(Object.entries(kv).map(([k, v]) => [k, v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v]));
}

function number(text: string | undefined, option: string): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isFinite(n)) throw new UsageError(`${option} expects a number, not "${text}"`);
  return n;
}

/** Drops undefined fields and empty lists (the envelope leaves absent fields out). */
function defined<T extends Record<string, unknown>>(fields: T): T {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined && !(Array.isArray(v) && v.length === 0))) as T;
}

export const tasksCommand = command({
  name: 'tasks',
  usage: [{ usage: 'SUBCOMMAND [options]', does: 'task memory: what agents tried, what worked and failed, the evidence' }],
  description: `  start GOAL [--id ID] [--motivation T] [--hypothesis T] [--question T] [--parent ID]
  progress ID --summary T [--status S] [--blocker T]… [--worked T]… [--failed T]…
  run-start ID --tool NAME [--tool-version V] [--command C] [--why T]
  run-finish ID RUN_ID [--status succeeded|failed|cancelled] [--summary T] [--metric K=V]…
  evidence ID --summary T [--file F]… [--conversation C] [--confidence 0..1]
  finish ID [--status done|failed|abandoned] [--summary T] [--worked T]… [--failed T]… [--validation T]… [--uncertainty T]… [--followup T]…
  search [WORDS] [--mode M] [--filter KEY=VALUE]… [--limit N] [--budget TOKENS]
  get ARTIFACT_ID            one artifact with what replies to it and its verification
  list [--status S]          tasks, newest first
  show ID                    a task's page (rendered from its log)
  reindex                    rebuild the index's task tables and the task pages from .lore/tasks/*.jsonl
  dream [--apply]            plan digest compaction (a dry run unless --apply)`,
  options: OPTIONS,
  epilogue: 'Writes are recorded as --agent NAME (default: $LORE_AGENT_ID, else "cli").',
  takes: { positionals: true, existingStore: true },
  run: tasks,
});

async function tasks(parsed: Parsed<typeof OPTIONS>, io: Output): Promise<number> {
  const [sub, ...args] = parsed.positionals;
  const v = parsed.values;
  const memory = new TaskMemory(parsed.paths);
  const context: RecordContext = {
    agentId: v.agent ?? (envOf(io).LORE_AGENT_ID?.trim() || 'cli'),
    source: 'manual',
    now: () => new Date(),
  };
  const need = (n: number, what: string) => {
    if (args.length < n) throw new UsageError(`lore tasks ${sub} needs ${what}`);
  };
  const record = async (input: ArtifactInput) => {
    const { artifact, held } = await memory.record(defined(input), context);
    if (v.json) io.out(JSON.stringify({ artifact, held }, null, 2));
    else
      io.out(
        `recorded ${artifact.artifact_kind} ${artifact.artifact_id} in task ${artifact.task_id}${held.length ? ` (held: reads as an instruction to an agent: ${held.join(', ')})` : ''}`,
      );
    return EXIT_OK;
  };
  try {
    switch (sub) {
      case 'start':
        need(1, 'a goal');
        return await record({
          artifact_kind: 'task_start',
          goal: args.join(' '),
          task_id: v.id,
          motivation: v.motivation,
          hypothesis: v.hypothesis,
          scientific_question: v.question,
          parent_task_id: v.parent,
        });
      case 'progress':
        need(1, 'a task id');
        return await record({
          artifact_kind: 'task_progress',
          task_id: args[0],
          summary: v.summary,
          status: v.status as never,
          blockers: v.blocker,
          what_worked: v.worked,
          what_failed: v.failed,
        });
      case 'run-start':
        need(1, 'a task id');
        return await record({
          artifact_kind: 'run_start',
          task_id: args[0],
          tool_name: v.tool,
          tool_version: v['tool-version'],
          command: v.command,
          why_chosen: v.why,
        });
      case 'run-finish':
        need(2, 'a task id and the run id');
        return await record({
          artifact_kind: 'run_finish',
          task_id: args[0],
          reply_to_artifact_id: args[1],
          status: v.status as never,
          summary: v.summary,
          metrics: metrics(v.metric),
          what_worked: v.worked,
          what_failed: v.failed,
        });
      case 'evidence':
        need(1, 'a task id');
        return await record({
          artifact_kind: 'evidence',
          task_id: args[0],
          summary: v.summary,
          confidence: number(v.confidence, '--confidence'),
          provenance: v.file?.length || v.conversation ? defined({ files: v.file, conversation_id: v.conversation }) : undefined,
        });
      case 'finish':
        need(1, 'a task id');
        return await record({
          artifact_kind: 'task_finish',
          task_id: args[0],
          status: v.status as never,
          summary: v.summary,
          what_worked: v.worked,
          what_failed: v.failed,
          validation: v.validation,
          uncertainty: v.uncertainty,
          followups: v.followup,
        });
      case 'search':
        return search(memory, args.join(' '), v, io);
      case 'get': {
        need(1, 'an artifact id');
        const found = memory.getArtifact(args[0], true);
        if (!found) {
          io.err(`no artifact ${printable(args[0])}`);
          return EXIT_FAILED;
        }
        io.out(JSON.stringify(found, null, 2));
        return EXIT_OK;
      }
      case 'list': {
        const rows = memory.list(v.status);
        if (v.json) io.out(JSON.stringify(rows, null, 2));
        else
          for (const r of rows)
            io.out(
              `${r.status.padEnd(9)} ${r.task_id}  ${printable(r.goal ?? '')}  (${r.artifact_count} artifacts, ${new Date(r.updated_ms).toISOString().slice(0, 16)})`,
            );
        if (!v.json && rows.length === 0) io.out('no tasks yet (lore tasks start GOAL, or the task_start tool)');
        return EXIT_OK;
      }
      case 'show': {
        need(1, 'a task id');
        const state = memory.getTask(args[0], true);
        if (!state) {
          io.err(`no task ${printable(args[0])}`);
          return EXIT_FAILED;
        }
        io.out(
          v.json
            ? JSON.stringify(state, null, 2)
            : printable(
                fs.existsSync(taskPageFile(parsed.paths, args[0]))
                  ? readStoreFile(taskPageFile(parsed.paths, args[0]), 'utf8')
                  : renderTaskPage(state),
                { keepLineBreaks: true },
              ),
        );
        return EXIT_OK;
      }
      case 'reindex': {
        const report = await memory.reindex();
        if (v.json) io.out(JSON.stringify(report, null, 2));
        else
          io.out(
            `task index rebuilt from the logs: ${report.tasks} tasks, ${report.artifacts} artifacts${report.malformed.length ? `; ${report.malformed.length} malformed line(s) kept and skipped:` : ''}`,
          );
        if (!v.json) for (const m of report.malformed) io.out(`  ${printable(m.file)}:${m.line}: ${printable(m.reason)}`);
        return EXIT_OK;
      }
      case 'dream': {
        const plan = await memory.dream(v.apply ?? false, { ...context, agentId: 'lore' });
        if (v.json) io.out(JSON.stringify(plan, null, 2));
        else printDream(plan, io);
        return EXIT_OK;
      }
      default:
        throw new UsageError(sub ? `unknown subcommand "${sub}"` : 'name a subcommand');
    }
  } finally {
    memory.close();
  }
}

function search(
  memory: TaskMemory,
  query: string,
  v: { mode?: string; filter?: string[]; limit?: string; budget?: string; json?: boolean },
  io: Output,
): number {
  if (v.mode && !(SEARCH_MODES as readonly string[]).includes(v.mode)) throw new UsageError(`--mode is one of ${SEARCH_MODES.join(', ')}`);
  const filters = taskFiltersSchema.safeParse(keyValues(v.filter, '--filter'));
  if (!filters.success) throw new UsageError(`--filter: ${describeSchemaIssue(filters.error)}`);
  const reply = memory.search({
    query,
    mode: v.mode as SearchMode | undefined,
    filters: filters.data as TaskFilters,
    limit: number(v.limit, '--limit'),
    tokenBudget: number(v.budget, '--budget'),
    showHeld: true,
  });
  if (v.json) {
    io.out(JSON.stringify(reply, null, 2));
    return EXIT_OK;
  }
  for (const h of reply.hits)
    io.out(`${h.artifact_id}  ${h.task_id}  ${h.artifact_kind}/${h.chunk}  [${h.trust}${h.stale ? ', stale' : ''}]  ${printable(h.text)}`);
  io.out(
    `${reply.hits.length} hit(s) of ${reply.candidates} candidate artifact(s)${reply.omitted ? `, ${reply.omitted} more left out (--limit, --budget)` : ''}`,
  );
  return EXIT_OK;
}

function printDream(plan: Awaited<ReturnType<TaskMemory['dream']>>, io: Output): void {
  io.out(plan.dryRun ? 'dry run (nothing written; --apply writes the digests):' : `applied: ${plan.written.length} digest(s) written`);
  for (const a of plan.actions) io.out(`  ${a.action.padEnd(7)} ${a.digest_key}  (${a.reason})`);
  io.out(`  ${plan.fresh} digest(s) fresh, ${plan.supersededDigests} superseded (out of the index, kept in the logs)`);
  if (plan.staleTasks.length) io.out(`  open tasks without news for two weeks: ${plan.staleTasks.join(', ')}`);
  for (const m of plan.malformed) io.out(`  malformed ${printable(m.file)}:${m.line}: ${printable(m.reason)}`);
  for (const b of plan.blocked) io.out(`  not done: ${b}`);
}

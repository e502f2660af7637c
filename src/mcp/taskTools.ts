/**
 * The task memory tools of `lore mcp` (seed: memd-task-artifacts.md): task_start, task_progress,
 * task_run_start, task_run_finish, task_add_evidence, task_finish, artifact_create, task_search,
 * task_get. Their descriptions carry the seed's guardrails (search first; start before
 * substantive work; checkpoints only when meaningful; runs bracketed; evidence when a concrete
 * result matters; finish with worked/failed/validation/uncertainty/follow-ups; compact search
 * first, then get the records). The agent id is the MCP client's name (and an optional role), so
 * a verification counts only when another client or role makes it. Writes are redacted, checked
 * against the lifecycle and appended under the store lock; replies frame knowledge as data.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { sanitizeConversationId } from '../core/conversations/conversationId';
import { agentSource } from '../core/knowledge/agentWrites';
import { frameAsData } from '../core/safety/dataFraming';
import { redactDeep, redactSecrets } from '../core/safety/redact';
import type { StorePaths } from '../core/store/storePaths';
import { ARTIFACT_ID_PATTERN, RELATION_KINDS, RUN_STATUSES, TASK_ID_PATTERN, TASK_STATUSES, VERIFICATION_STATUSES, datasetRefSchema, entityRefSchema } from '../core/tasks/artifactSchema';
import { ArtifactRefused, type ArtifactInput } from '../core/tasks/recordArtifact';
import { taskFiltersSchema } from '../core/tasks/taskFilters';
import { TaskMemory } from '../core/tasks/taskMemory';
import { DEFAULT_TASK_REPLY_TOKENS, MAX_TASK_REPLY_TOKENS, MIN_TASK_REPLY_TOKENS, SEARCH_MODES, taskHitSchema } from '../core/tasks/taskSearch';
import { estimateTokens } from '../core/util/tokens';
import type { StoreSession } from './storeSession';
import { withStore } from './toolContext';

const text = (max: number) => z.string().max(max);
const items = z.array(text(2000)).max(30);
const taskId = z.string().regex(TASK_ID_PATTERN, 'a task id as task_start returned it').describe('The task id task_start returned');
const artifactId = z.string().regex(ARTIFACT_ID_PATTERN, 'an artifact id (a- and 12 hex digits)');
const common = {
  agent: z.string().regex(/^[a-z0-9][a-z0-9._-]{0,39}$/).optional().describe('Your role when one client runs several agents (e.g. reviewer); recorded as client/role'),
  session: z.string().max(200).optional().describe('Your session or conversation id'),
};
const files = z.array(text(1000)).max(50).optional().describe('Workspace-relative files this is about or was shown in');

const writeOutput = {
  status: z.enum(['recorded', 'refused']),
  artifact_id: z.string().optional(),
  task_id: z.string().optional(),
  held: z.array(z.string()).optional().describe('Reads as an instruction to an agent: kept, but withheld from agents'),
  reason: z.string().optional(),
};
const searchOutput = {
  hits: z.array(taskHitSchema),
  omitted: z.number().int(),
  candidates: z.number().int().describe('Artifacts left by the exact filters, before ranking'),
  mode: z.enum(SEARCH_MODES),
  filters: z.array(z.string()),
  warnings: z.array(z.string()),
};
const getOutput = {
  found: z.boolean(),
  task: z.record(z.string(), z.unknown()).optional(),
  artifact: z.record(z.string(), z.unknown()).optional(),
  related: z.array(z.record(z.string(), z.unknown())).optional(),
  verification: z.record(z.string(), z.unknown()).optional(),
  omitted: z.number().int().optional(),
};
const maxTokens = z.number().int().min(MIN_TASK_REPLY_TOKENS).max(MAX_TASK_REPLY_TOKENS).optional().describe(`Reply size limit in tokens (default ${DEFAULT_TASK_REPLY_TOKENS})`);

function reply(textOut: string, structured: Record<string, unknown>, isError = false): CallToolResult {
  return { content: [{ type: 'text', text: redactSecrets(textOut) }], structuredContent: redactDeep(structured), ...(isError ? { isError } : {}) };
}

const HOW = 'Artifacts are kept append-only in .lore/tasks/<task-id>.jsonl.';

/** Registers the task tools; returns what closes their index. */
export function registerTaskTools(server: McpServer, session: StoreSession, options: { now: () => Date }): { close(): void } {
  const memories = new Map<string, TaskMemory>();
  const memoryOf = (paths: StorePaths) => {
    let m = memories.get(paths.root);
    if (!m) memories.set(paths.root, (m = new TaskMemory(paths)));
    return m;
  };
  const context = (agent: string | undefined, sessionId: string | undefined) => {
    const client = agentSource(server.server.getClientVersion()?.name, undefined, sanitizeConversationId);
    return { agentId: agent ? `${client}/${agent}` : client, sessionId: sessionId ? sanitizeConversationId(sessionId) : undefined, source: agentSource(server.server.getClientVersion()?.name, sessionId, sanitizeConversationId), now: options.now };
  };
  const write = (input: ArtifactInput, agent?: string, sessionId?: string, next = '') =>
    withStore(session, async (paths) => {
      try {
        const { artifact, held } = await memoryOf(paths).record(input, context(agent, sessionId));
        const heldText = held.length ? ` It reads as an instruction to an agent (${held.join(', ')}): kept, but its text is withheld from agents.` : '';
        return reply(`recorded ${artifact.artifact_kind} ${artifact.artifact_id} in task ${artifact.task_id}.${heldText}${next ? ` ${next}` : ''}`, {
          status: 'recorded', artifact_id: artifact.artifact_id, task_id: artifact.task_id, ...(held.length ? { held } : {}),
        });
      } catch (error) {
        if (!(error instanceof ArtifactRefused)) throw error;
        return reply(`refused: ${error.message}`, { status: 'refused', reason: error.message }, true);
      }
    });
  const writeAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };

  server.registerTool('task_start', {
    title: 'Start a task',
    description: `Use before substantive work, after task_search found no task for it. Records the goal, motivation, hypothesis and question; the reply names the task id the other task tools take. ${HOW}`,
    inputSchema: {
      goal: text(4000).min(1), task_id: taskId.optional().describe('A slug of your choosing; default: from the goal'), motivation: text(4000).optional(), hypothesis: text(4000).optional(),
      scientific_question: text(4000).optional(), parent_task_id: taskId.optional(), project_id: text(300).optional(),
      dataset_refs: z.array(datasetRefSchema).max(20).optional(), entity_refs: z.array(entityRefSchema).max(50).optional(), ...common,
    },
    outputSchema: writeOutput,
    annotations: writeAnnotations,
  }, ({ agent, session: s, ...fields }) => write({ artifact_kind: 'task_start', ...fields }, agent, s, 'Bracket substantive runs with task_run_start / task_run_finish.'));

  server.registerTool('task_progress', {
    title: 'Record a task checkpoint',
    description: 'Only for meaningful checkpoints (a hypothesis changed, a blocker appeared or cleared, an approach was abandoned), not for every step.',
    inputSchema: {
      task_id: taskId, summary: text(8000).min(1), status: z.enum(TASK_STATUSES).optional(), blockers: items.optional().describe('The current blockers (an empty list clears them)'),
      hypothesis: text(4000).optional(), what_worked: items.optional(), what_failed: items.optional(), followups: items.optional(), ...common,
    },
    outputSchema: writeOutput,
    annotations: writeAnnotations,
  }, ({ agent, session: s, ...fields }) => write({ artifact_kind: 'task_progress', ...fields }, agent, s));

  server.registerTool('task_run_start', {
    title: 'Start a run',
    description: 'Before a substantive run (a test suite, a benchmark, a training job, a migration): the tool, its version, the command, parameters and inputs, and why this tool. The reply names the run id task_run_finish takes.',
    inputSchema: {
      task_id: taskId, tool_name: text(300).optional(), tool_version: text(300).optional(), command: text(4000).optional(), why_chosen: text(4000).optional(),
      parameters: z.record(z.string(), z.unknown()).optional(), inputs: z.record(z.string(), z.unknown()).optional(), dataset_refs: z.array(datasetRefSchema).max(20).optional(), ...common,
    },
    outputSchema: writeOutput,
    annotations: writeAnnotations,
  }, ({ agent, session: s, ...fields }) => write({ artifact_kind: 'run_start', ...fields }, agent, s));

  server.registerTool('task_run_finish', {
    title: 'Finish a run',
    description: 'After the run task_run_start opened: its status, a summary of the result, metrics and outputs, what worked and failed.',
    inputSchema: {
      task_id: taskId, run_id: artifactId.describe('The run id task_run_start returned'), status: z.enum(RUN_STATUSES.filter((x) => x !== 'running') as ['succeeded', 'failed', 'cancelled']).optional(),
      summary: text(8000).optional(), metrics: z.record(z.string(), z.union([z.number(), z.string().max(200), z.boolean()])).optional(), outputs: z.record(z.string(), z.unknown()).optional(),
      what_worked: items.optional(), what_failed: items.optional(), ...common,
    },
    outputSchema: writeOutput,
    annotations: writeAnnotations,
  }, ({ agent, session: s, run_id, ...fields }) => write({ artifact_kind: 'run_finish', reply_to_artifact_id: run_id, ...fields }, agent, s));

  server.registerTool('task_add_evidence', {
    title: 'Add evidence to a task',
    description: 'When a concrete result matters: what was observed, how confident, the files and conversation it is in, the data it is about. Another agent may countersign it with artifact_create (verification).',
    inputSchema: {
      task_id: taskId, summary: text(8000).min(1), confidence: z.number().min(0).max(1).optional(), metrics: z.record(z.string(), z.union([z.number(), z.string().max(200), z.boolean()])).optional(),
      files, conversation_id: text(300).optional(), dataset_refs: z.array(datasetRefSchema).max(20).optional(), entity_refs: z.array(entityRefSchema).max(50).optional(),
      related_artifact_ids: z.array(artifactId).max(50).optional(), ...common,
    },
    outputSchema: writeOutput,
    annotations: writeAnnotations,
  }, ({ agent, session: s, files: f, conversation_id, ...fields }) =>
    write({ artifact_kind: 'evidence', ...fields, ...(f?.length || conversation_id ? { provenance: { ...(f?.length ? { files: f } : {}), ...(conversation_id ? { conversation_id: sanitizeConversationId(conversation_id) } : {}) } } : {}) }, agent, s));

  server.registerTool('task_finish', {
    title: 'Finish a task',
    description: 'Close the task with what worked, what failed, how it was validated, what stays uncertain and the follow-ups: what the next agent needs to not repeat your work.',
    inputSchema: {
      task_id: taskId, status: z.enum(['done', 'failed', 'abandoned']).optional(), summary: text(8000).optional(), what_worked: items.optional(), what_failed: items.optional(),
      validation: items.optional(), uncertainty: items.optional(), followups: items.optional(), ...common,
    },
    outputSchema: writeOutput,
    annotations: writeAnnotations,
  }, ({ agent, session: s, ...fields }) => write({ artifact_kind: 'task_finish', ...fields }, agent, s));

  server.registerTool('artifact_create', {
    title: 'Create a review, revision, verification or decision',
    description:
      'When the event is critique (review), a revision, a verification of another artifact, or a decision, rather than a lifecycle step. A verification counts only when another agent than the claim\'s makes it.',
    inputSchema: {
      artifact_kind: z.enum(['review', 'revision', 'verification', 'decision']), task_id: taskId, summary: text(8000).min(1), reply_to_artifact_id: artifactId.optional(),
      verification_status: z.enum(VERIFICATION_STATUSES).optional(), relation_kind: z.enum(RELATION_KINDS).optional(), why_chosen: text(4000).optional(),
      thread_id: text(300).optional(), challenge_id: text(300).optional(), requested_action: text(300).optional(), confidence: z.number().min(0).max(1).optional(), ...common,
    },
    outputSchema: writeOutput,
    annotations: writeAnnotations,
  }, ({ agent, session: s, ...fields }) => write(fields, agent, s));

  server.registerTool('task_search', {
    title: 'Search task memory',
    description:
      'Search first, before starting work: exact filters (task_id, artifact_kind, status, tool_name, agent_id, verification_status, dataset_name, file …) are applied first, then the words rank what is left. ' +
      'Modes: resume_task, find_failures, find_decisions, find_evidence, find_highlights, brief_project. Each hit says what it is: verified_record, canonical_record, compiled_digest_hint (re-ground it), semantic_candidate. ' +
      'Compact replies first; then task_get the records you need.',
    inputSchema: {
      query: text(1000).optional(), mode: z.enum(SEARCH_MODES).optional(), filters: taskFiltersSchema.optional(), limit: z.number().int().min(1).max(100).optional(),
      compact: z.boolean().optional(), max_tokens: maxTokens,
    },
    outputSchema: searchOutput,
    annotations: { readOnlyHint: true, openWorldHint: false },
  }, ({ query, mode, filters, limit, compact, max_tokens }) =>
    withStore(session, async (paths) => {
      const result = memoryOf(paths).search({ query, mode, filters, limit, compact: compact ?? true, tokenBudget: max_tokens });
      const warnings = [
        ...(result.hits.some((h) => h.trust === 'compiled_digest_hint') ? ['digests are hints: re-ground them in the artifacts they name (task_get)'] : []),
        ...(result.hits.some((h) => h.stale) ? ['a digest is stale: its sources changed since it was compiled'] : []),
        ...(result.omitted ? [`${result.omitted} more matched: narrow the filters or raise max_tokens`] : []),
      ];
      const lines = result.hits.map((h) => `${h.artifact_id} ${h.task_id} ${h.artifact_kind}/${h.chunk} [${h.trust}${h.stale ? ', stale' : ''}]${h.status ? ` ${h.status}` : ''}: ${h.text}`);
      const head = `${result.hits.length} hit(s) of ${result.candidates} candidate artifact(s)${result.filters.length ? ` (filters: ${result.filters.join(', ')})` : ''}, mode ${result.mode}`;
      return reply(frameAsData([head, ...lines, ...warnings].join('\n')), { ...result, warnings });
    }));

  server.registerTool('task_get', {
    title: 'Read a task or an artifact',
    description: 'The full record of a task (task_id: its state and timeline) or of one artifact (artifact_id: with the artifacts that reply to it and its verification).',
    inputSchema: { task_id: taskId.optional(), artifact_id: artifactId.optional(), max_tokens: maxTokens },
    outputSchema: getOutput,
    annotations: { readOnlyHint: true, openWorldHint: false },
  }, ({ task_id, artifact_id, max_tokens }) =>
    withStore(session, async (paths) => {
      const memory = memoryOf(paths);
      const budget = max_tokens ?? DEFAULT_TASK_REPLY_TOKENS * 2;
      if (artifact_id) {
        const record = memory.getArtifact(artifact_id);
        if (!record) return reply(`no artifact ${artifact_id}`, { found: false });
        return reply(frameAsData(JSON.stringify(record, null, 1)), { found: true, artifact: record.artifact, related: record.related, verification: record.verification });
      }
      if (!task_id) return reply('name a task_id or an artifact_id', { found: false }, true);
      const state = memory.getTask(task_id);
      if (!state) return reply(`no task ${task_id} (task_search finds tasks by words)`, { found: false });
      // The timeline newest first, as much as fits: the head of the task is what resumes it.
      const { artifacts, ...head } = state;
      const kept = [];
      let used = estimateTokens(JSON.stringify(head));
      for (const a of [...artifacts].reverse()) {
        const cost = estimateTokens(JSON.stringify(a));
        if (used + cost > budget) break;
        kept.push(a);
        used += cost;
      }
      const task = { ...head, runs: head.runs.map((r) => ({ run_id: r.runId, status: r.status, tool_name: r.start.tool_name, command: r.start.command, summary: r.finish?.summary })), evidence: head.evidence.map((e) => e.artifact_id), decisions: head.decisions.map((d) => d.artifact_id), timeline: kept.reverse() };
      const omitted = artifacts.length - kept.length;
      return reply(frameAsData(JSON.stringify(task, null, 1)) + (omitted ? `\n(${omitted} older artifacts left out: raise max_tokens or task_get by artifact_id)` : ''), { found: true, task, omitted });
    }));

  return { close: () => memories.forEach((m) => m.close()) };
}

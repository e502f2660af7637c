/**
 * What the read tools (task_search, task_get) answer an agent, the same over MCP and in VS Code:
 * a short text framed as data and the structured content, redacted, held text withheld, within
 * the token budget.
 */
import { sanitizeConversationId } from '../conversations/conversationId';
import { frameAsData } from '../../model/safety/dataFraming';
import { redactDeep, redactSecrets } from '../../model/safety/redact';
import { estimateTokens } from '../../model/tokens';
import { ArtifactRefused } from './recordArtifact';
import type { TaskMemory } from './taskMemory';
import { toArtifactInput, type TaskWriteTool } from './taskToolInputs';
import { DEFAULT_TASK_REPLY_TOKENS, type SearchMode } from './taskSearch';
import type { TaskFilters } from './taskFilters';

/** A reply: text for the model, structured content for clients that read it. */
export interface TaskToolReply {
  text: string;
  structured: Record<string, unknown>;
  isError?: boolean;
}

function done(text: string, structured: Record<string, unknown>, isError = false): TaskToolReply {
  return { text: redactSecrets(text), structured: redactDeep(structured), ...(isError ? { isError } : {}) };
}

/** task_search: compact by default (ids, trust, a short text), then task_get for full records. */
export function taskSearchReply(
  memory: TaskMemory,
  input: { query?: string; mode?: SearchMode; filters?: TaskFilters; limit?: number; compact?: boolean; max_tokens?: number },
): TaskToolReply {
  const result = memory.search({
    query: input.query,
    mode: input.mode,
    filters: input.filters,
    limit: input.limit,
    compact: input.compact ?? true,
    tokenBudget: input.max_tokens,
  });
  const warnings = [
    ...(result.hits.some((h) => h.trust === 'compiled_digest_hint')
      ? ['digests are hints: re-ground them in the artifacts they name (task_get)']
      : []),
    ...(result.hits.some((h) => h.stale) ? ['a digest is stale: its sources changed since it was compiled'] : []),
    ...(result.omitted ? [`${result.omitted} more matched: narrow the filters or raise max_tokens`] : []),
  ];
  const lines = result.hits.map(
    (h) =>
      `${h.artifact_id} ${h.task_id} ${h.artifact_kind}/${h.chunk} [${h.trust}${h.stale ? ', stale' : ''}]${h.status ? ` ${h.status}` : ''}: ${h.text}`,
  );
  const head = `${result.hits.length} hit(s) of ${result.candidates} candidate artifact(s)${result.filters.length ? ` (filters: ${result.filters.join(', ')})` : ''}, mode ${result.mode}`;
  return done(frameAsData([head, ...lines, ...warnings].join('\n')), { ...result, warnings });
}

/** task_get: one artifact with its relations and verification, or a task with as much of its timeline (newest first) as fits. */
export function taskGetReply(memory: TaskMemory, input: { task_id?: string; artifact_id?: string; max_tokens?: number }): TaskToolReply {
  const budget = input.max_tokens ?? DEFAULT_TASK_REPLY_TOKENS * 2;
  if (input.artifact_id) {
    const record = memory.getArtifact(input.artifact_id);
    if (!record) return done(`no artifact ${input.artifact_id}`, { found: false });
    return done(frameAsData(JSON.stringify(record, null, 1)), {
      found: true,
      artifact: record.artifact,
      related: record.related,
      verification: record.verification,
    });
  }
  if (!input.task_id) return done('name a task_id or an artifact_id', { found: false }, true);
  const state = memory.getTask(input.task_id);
  if (!state) return done(`no task ${input.task_id} (task_search finds tasks by words)`, { found: false });
  const { artifacts, ...head } = state;
  const summary = {
    ...head,
    runs: head.runs.map((r) => ({
      run_id: r.runId,
      status: r.status,
      tool_name: r.start.tool_name,
      command: r.start.command,
      summary: r.finish?.summary,
    })),
    evidence: head.evidence.map((e) => e.artifact_id),
    decisions: head.decisions.map((d) => d.artifact_id),
  };
  // The newest artifacts first, as many as fit: the recent end of a task is what resumes it.
  const kept = [];
  let used = estimateTokens(JSON.stringify(summary));
  for (const a of [...artifacts].reverse()) {
    const cost = estimateTokens(JSON.stringify(a));
    if (used + cost > budget) break;
    kept.push(a);
    used += cost;
  }
  const task = { ...summary, timeline: kept.reverse() };
  const omitted = artifacts.length - kept.length;
  return done(
    frameAsData(JSON.stringify(task, null, 1)) +
      (omitted ? `\n(${omitted} older artifacts left out: raise max_tokens or task_get by artifact_id)` : ''),
    { found: true, task, omitted },
  );
}

/** Who makes a write tool call: the client (MCP client name, `vscode-agent`) and where it came from. */
export interface TaskCaller {
  /** The client's agent id; the call's `agent` role is appended as `client/role`. */
  client: string;
  /** Provenance source (`client:session`). */
  source?: string;
  now: () => Date;
}

/** A write tool call: the artifact recorded (its id, and whether it is held) or the lifecycle's refusal. */
export async function taskWriteReply(
  memory: TaskMemory,
  tool: TaskWriteTool,
  input: Record<string, unknown>,
  caller: TaskCaller,
): Promise<TaskToolReply> {
  const role = typeof input.agent === 'string' ? `/${input.agent}` : '';
  const sessionId = typeof input.session === 'string' ? sanitizeConversationId(input.session) : undefined;
  try {
    const { artifact, held } = await memory.record(toArtifactInput(tool, input), {
      agentId: `${caller.client}${role}`,
      sessionId,
      source: caller.source ?? caller.client,
      now: caller.now,
    });
    const heldText = held.length
      ? ` It reads as an instruction to an agent (${held.join(', ')}): kept, but its text is withheld from agents.`
      : '';
    const next = tool === 'task_start' ? ' Bracket substantive runs with task_run_start / task_run_finish.' : '';
    return done(`recorded ${artifact.artifact_kind} ${artifact.artifact_id} in task ${artifact.task_id}.${heldText}${next}`, {
      status: 'recorded',
      artifact_id: artifact.artifact_id,
      task_id: artifact.task_id,
      ...(held.length ? { held } : {}),
    });
  } catch (error) {
    if (!(error instanceof ArtifactRefused)) throw error;
    return done(`refused: ${error.message}`, { status: 'refused', reason: error.message }, true);
  }
}

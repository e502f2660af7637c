/**
 * The task memory of `lore mcp` (seed: memd-task-artifacts.md) as one `tasks` tool whose action
 * names one of the seed's task tools (task_start, task_progress, task_run_start, task_run_finish,
 * task_add_evidence, task_finish, artifact_create, task_search, task_get; VS Code offers those as
 * they are). Its description carries the seed's guardrails (search first; start before
 * substantive work; checkpoints only when meaningful; runs bracketed; evidence when a concrete
 * result matters; finish with worked/failed/validation/uncertainty/follow-ups; compact search
 * first, then get the records). The agent id is the MCP client's name (and an optional role), so
 * a verification counts only when another client or role makes it. Writes are redacted, checked
 * against the lifecycle and appended under the store lock; replies frame knowledge as data.
 */
import { z } from 'zod';
import { KNOWLEDGE_FRAMING } from '../../model/safety/dataFraming';
import { sanitizeConversationId } from '../conversations/conversationId';
import { agentSource } from '../../store/items/agentWrites';
import type { StorePaths } from '../../store/storePaths';
import { taskToolSchema, type TaskToolName } from '../tasks/taskToolInputs';
import { TaskMemory } from '../tasks/taskMemory';
import { taskGetReply, taskSearchReply, taskWriteReply, type TaskCaller, type TaskToolReply } from '../tasks/taskReplies';
import { agentTool, type AgentTool, type AgentToolHost, type ToolResult } from './agentTool';

/** The `tasks` tool's actions, each one of the task tools the seed defines (TASK_TOOL_INPUTS; VS Code offers them as they are). */
export const TASK_ACTIONS = {
  search: 'task_search',
  get: 'task_get',
  start: 'task_start',
  progress: 'task_progress',
  run_start: 'task_run_start',
  run_finish: 'task_run_finish',
  evidence: 'task_add_evidence',
  finish: 'task_finish',
  artifact: 'artifact_create',
} as const satisfies Record<string, TaskToolName>;
type TaskAction = keyof typeof TASK_ACTIONS;

/**
 * The less common fields of each action, said once in the description rather than as schema
 * properties: the tool list is sent with every request, and a field in a list costs a few tokens
 * where a property costs a dozen. They are passed beside the listed ones and checked as strictly
 * as ever (taskToolSchema): a misspelt field is refused, naming it.
 */
const MORE_FIELDS =
  'fields by action: start: motivation, hypothesis, scientific_question, parent_task_id, project_id, dataset_refs [{name, version, uri}], entity_refs [{name, type}]; ' +
  'progress: blockers, hypothesis, what_worked, what_failed, followups (lists of strings); ' +
  'run_start: tool_name, tool_version, command, why_chosen, parameters, inputs, dataset_refs; run_finish: metrics, outputs, what_worked, what_failed; ' +
  'evidence: confidence (0-1), metrics, files, conversation_id, dataset_refs, entity_refs, related_artifact_ids; ' +
  'finish: what_worked, what_failed, validation, uncertainty, followups; ' +
  'artifact: artifact_kind (review, revision, verification, decision), verification_status, relation_kind, why_chosen, thread_id, challenge_id, requested_action, confidence; ' +
  'search: mode (resume_task, find_failures, find_decisions, find_evidence, find_highlights, brief_project), filters {task_id, artifact_kind, status, tool_name, agent_id, verification_status, dataset_name, file, …}, limit, compact; ' +
  'get, search: max_tokens';

/** The input of the one task tool a `tasks` call stands for. */
function actionInput(action: TaskAction, args: Record<string, unknown>): Record<string, unknown> {
  const { action: _action, artifact_id, ...input } = args;
  // artifact_id names the artifact each action is about: the one to read, the run to finish, the one replied to.
  if (artifact_id !== undefined) {
    const key =
      action === 'get'
        ? 'artifact_id'
        : action === 'run_finish'
          ? 'run_id'
          : action === 'artifact'
            ? 'reply_to_artifact_id'
            : 'artifact_id';
    input[key] = artifact_id;
  }
  // Reads take no caller.
  if (action === 'search' || action === 'get') {
    delete input.agent;
    delete input.session;
  }
  return input;
}

/** The `tasks` tool (every task action); `close` closes the task indexes. */
export function taskTools(host: AgentToolHost): { tools: AgentTool[]; close(): void } {
  const memories = new Map<string, TaskMemory>();
  const memoryOf = (paths: StorePaths) => {
    let m = memories.get(paths.root);
    if (!m) memories.set(paths.root, (m = new TaskMemory(paths)));
    return m;
  };
  // A framed text's structured content opens with the same framing: Claude Code and Codex hand the model that, not the text.
  const asResult = (r: TaskToolReply): ToolResult => ({
    content: [{ type: 'text', text: r.text }],
    structuredContent: r.text.startsWith(KNOWLEDGE_FRAMING) ? { framing: KNOWLEDGE_FRAMING, ...r.structured } : r.structured,
    ...(r.isError ? { isError: true } : {}),
  });
  const caller = (sessionId: unknown): TaskCaller => {
    const name = host.clientName();
    return {
      client: agentSource(name, undefined, sanitizeConversationId),
      source: agentSource(name, typeof sessionId === 'string' ? sessionId : undefined, sanitizeConversationId),
      now: () => host.now(),
    };
  };
  const tools = [
    agentTool(
      'tasks',
      {
        title: 'Task memory',
        description:
          'What was tried on multi-session work, kept per task (.lore/tasks/). search first (the task may exist); start before substantive work; ' +
          'progress only at meaningful checkpoints; run_start/run_finish around a substantive run; evidence when a concrete result matters; ' +
          'finish with what worked, failed, how it was validated, what stays uncertain, follow-ups; artifact for a review, revision, verification or decision; ' +
          `get reads a task or an artifact in full. The reply names the ids the next call takes. Other ${MORE_FIELDS}.`,
        inputSchema: {
          action: z.enum(Object.keys(TASK_ACTIONS) as [TaskAction, ...TaskAction[]]),
          task_id: z.string().max(200).optional(),
          artifact_id: z.string().max(200).optional().describe('get: the artifact; run_finish: the run; artifact: the one it answers'),
          query: z.string().max(1000).optional().describe('search: words'),
          goal: z.string().max(4000).optional().describe('start: the goal'),
          summary: z.string().max(8000).optional(),
          status: z
            .string()
            .max(40)
            .optional()
            .describe('progress: task status; run_finish: succeeded, failed, cancelled; finish: done, failed, abandoned'),
          agent: z.string().max(40).optional().describe('Your role when one client runs several agents (e.g. reviewer)'),
          session: z.string().max(200).optional(),
        },
        annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
        moreFields: true,
      },
      async (args: Record<string, unknown>, { paths }) => {
        const action = args.action as TaskAction;
        const tool = TASK_ACTIONS[action];
        const parsed = taskToolSchema(tool).safeParse(actionInput(action, args));
        if (!parsed.success)
          return {
            content: [
              {
                type: 'text',
                text: `refused: ${action}: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ')}`,
              },
            ],
            isError: true,
          };
        const input = parsed.data as Record<string, unknown>;
        if (tool === 'task_search') return asResult(taskSearchReply(memoryOf(paths), input));
        if (tool === 'task_get') return asResult(taskGetReply(memoryOf(paths), input));
        return asResult(await taskWriteReply(memoryOf(paths), tool, input, caller(args.session)));
      },
    ),
  ];
  return { tools, close: () => memories.forEach((m) => m.close()) };
}

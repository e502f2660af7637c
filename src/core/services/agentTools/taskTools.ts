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
import { z } from 'zod';
import { sanitizeConversationId } from '../conversations/conversationId';
import { agentSource } from '../../store/items/agentWrites';
import type { StorePaths } from '../../store/storePaths';
import { TASK_TOOL_INPUTS, TASK_WRITE_TOOLS } from '../tasks/taskToolInputs';
import { TASK_TOOL_TEXTS } from '../tasks/taskToolTexts';
import { TaskMemory } from '../tasks/taskMemory';
import { taskGetReply, taskSearchReply, taskWriteReply, type TaskCaller, type TaskToolReply } from '../tasks/taskReplies';
import { SEARCH_MODES, taskHitSchema } from '../tasks/taskSearch';
import { agentTool, type AgentTool, type AgentToolHost, type ToolResult } from './agentTool';

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

/** The task tools (the seven writes, then task_search and task_get); `close` closes their indexes. */
export function taskTools(host: AgentToolHost): { tools: AgentTool[]; close(): void } {
  const memories = new Map<string, TaskMemory>();
  const memoryOf = (paths: StorePaths) => {
    let m = memories.get(paths.root);
    if (!m) memories.set(paths.root, (m = new TaskMemory(paths)));
    return m;
  };
  const asResult = (r: TaskToolReply): ToolResult => ({
    content: [{ type: 'text', text: r.text }],
    structuredContent: r.structured,
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
  const writeAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };

  const tools = [
    ...TASK_WRITE_TOOLS.map((tool) =>
      agentTool(
        tool,
        {
          ...TASK_TOOL_TEXTS[tool],
          inputSchema: TASK_TOOL_INPUTS[tool] as z.ZodRawShape,
          outputSchema: writeOutput,
          annotations: writeAnnotations,
        },
        async (args: Record<string, unknown>, { paths }) =>
          asResult(await taskWriteReply(memoryOf(paths), tool, args, caller(args.session))),
      ),
    ),
    agentTool(
      'task_search',
      {
        ...TASK_TOOL_TEXTS.task_search,
        inputSchema: TASK_TOOL_INPUTS.task_search,
        outputSchema: searchOutput,
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      async (input, { paths }) => asResult(taskSearchReply(memoryOf(paths), input)),
    ),
    agentTool(
      'task_get',
      {
        ...TASK_TOOL_TEXTS.task_get,
        inputSchema: TASK_TOOL_INPUTS.task_get,
        outputSchema: getOutput,
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      async (input, { paths }) => asResult(taskGetReply(memoryOf(paths), input)),
    ),
  ];
  return { tools, close: () => memories.forEach((m) => m.close()) };
}

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
import { redactDeep, redactSecrets } from '../core/safety/redact';
import type { StorePaths } from '../core/store/storePaths';
import { ArtifactRefused, type ArtifactInput } from '../core/tasks/recordArtifact';
import { TASK_TOOL_INPUTS, TASK_WRITE_TOOLS, toArtifactInput } from '../core/tasks/taskToolInputs';
import { TASK_TOOL_TEXTS } from '../core/tasks/taskToolTexts';
import { TaskMemory } from '../core/tasks/taskMemory';
import { taskGetReply, taskSearchReply, type TaskToolReply } from '../core/tasks/taskReplies';
import { SEARCH_MODES, taskHitSchema } from '../core/tasks/taskSearch';
import type { StoreSession } from './storeSession';
import { withStore } from './toolContext';


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

function reply(textOut: string, structured: Record<string, unknown>, isError = false): CallToolResult {
  return { content: [{ type: 'text', text: redactSecrets(textOut) }], structuredContent: redactDeep(structured), ...(isError ? { isError } : {}) };
}

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

  for (const tool of TASK_WRITE_TOOLS) {
    const { title, description } = TASK_TOOL_TEXTS[tool];
    server.registerTool(tool, { title, description, inputSchema: TASK_TOOL_INPUTS[tool], outputSchema: writeOutput, annotations: writeAnnotations }, (args: Record<string, unknown>) =>
      write(toArtifactInput(tool, args), args.agent as string | undefined, args.session as string | undefined, tool === 'task_start' ? 'Bracket substantive runs with task_run_start / task_run_finish.' : ''));
  }

  const asResult = (r: TaskToolReply): CallToolResult => ({ content: [{ type: 'text', text: r.text }], structuredContent: r.structured, ...(r.isError ? { isError: true } : {}) });
  server.registerTool('task_search', {
    ...TASK_TOOL_TEXTS.task_search,
    inputSchema: TASK_TOOL_INPUTS.task_search,
    outputSchema: searchOutput,
    annotations: { readOnlyHint: true, openWorldHint: false },
  }, (input) => withStore(session, async (paths) => asResult(taskSearchReply(memoryOf(paths), input))));

  server.registerTool('task_get', {
    ...TASK_TOOL_TEXTS.task_get,
    inputSchema: TASK_TOOL_INPUTS.task_get,
    outputSchema: getOutput,
    annotations: { readOnlyHint: true, openWorldHint: false },
  }, (input) => withStore(session, async (paths) => asResult(taskGetReply(memoryOf(paths), input))));

  return { close: () => memories.forEach((m) => m.close()) };
}

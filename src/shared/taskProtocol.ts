/**
 * Task memory between the VS Code client and the language server (part of the shared protocol,
 * re-exported by protocol.ts): the lore_task_* tools and the Tasks view.
 */
import type { TaskToolReply } from '../core/services/tasks/taskReplies';
import type { TaskListRow } from '../core/services/tasks/taskRecords';
import { TASK_ID_PATTERN, TASK_TOOL_NAMES } from '../core/services/tasks/taskNames';
import { request, returns } from './declareMessage';

/**
 * Client → server: one task tool call from a VS Code language model tool (lore_task_*), checked
 * against the same input schema as the MCP tool and answered with the same reply.
 */
export const TaskToolRequest = request({
  method: 'lore/taskTool',
  direction: 'toServer',
  // The tool's own input is checked by its schema in core (taskToolInputs), as the MCP tool's is.
  // agentId is recorded as the artifact's agent_id (e.g. `vscode-agent`).
  params: (z) => z.object({ tool: z.enum(TASK_TOOL_NAMES), input: z.unknown(), agentId: z.string().min(1).max(120) }),
  result: returns<TaskToolReply>(),
});
/** Client → server: the tasks of the store for the Tasks view, newest first. */
export const TasksListRequest = request({
  method: 'lore/tasks',
  direction: 'toServer',
  params: (z) => z.object({}).strict(),
  result: returns<{ tasks: TaskListRow[] }>(),
});
/** One artifact of a task's timeline in the Tasks view, with the files and conversation it links to. */
export interface TimelineEntry {
  artifact_id: string;
  artifact_kind: string;
  status?: string;
  agent_id: string;
  created: string;
  title: string;
  verification_status?: string;
  held?: boolean;
  files: string[];
  conversation_id?: string;
}

/** Client → server: a task's artifacts in order (the Tasks view's timeline). */
export const TaskTimelineRequest = request({
  method: 'lore/taskTimeline',
  direction: 'toServer',
  params: (z) => z.object({ taskId: z.string().regex(TASK_ID_PATTERN) }).strict(),
  result: returns<{ entries: TimelineEntry[] }>(),
});

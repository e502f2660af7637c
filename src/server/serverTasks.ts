/**
 * Task memory in the language server: the VS Code language model tools' calls (checked against
 * the same schemas as the MCP tools) and the Tasks view's data (tasks, a task's timeline). The
 * SQLite side tables live here, never on the extension host.
 */
import { artifactSchema } from '../core/services/tasks/artifactSchema';
import { isHeld } from '../core/services/tasks/taskIndex';
import { TaskMemory } from '../core/services/tasks/taskMemory';
import { taskGetReply, taskSearchReply, taskWriteReply, type TaskToolReply } from '../core/services/tasks/taskReplies';
import { TASK_WRITE_TOOLS, taskToolSchema, type TaskToolName, type TaskWriteTool } from '../core/services/tasks/taskToolInputs';
import { redactDeep } from '../core/model/safety/redact';
import type { StorePaths } from '../core/store/storePaths';
import { describeSchemaIssue } from '../core/base/schemaIssue';
import type { TaskTimelineRequest, TasksListRequest, TimelineEntry } from '../shared/protocol';
import type { ParamsOf, ResultOf } from '../shared/declareMessage';

export class ServerTasks {
  private readonly memory: TaskMemory;

  constructor(paths: StorePaths) {
    this.memory = new TaskMemory(paths);
  }

  /** One tool call; a refused write or a bad input is an error reply the model can read. */
  async call(tool: TaskToolName, rawInput: unknown, agentId: string): Promise<TaskToolReply> {
    const parsed = taskToolSchema(tool).safeParse(rawInput ?? {});
    if (!parsed.success) return { text: `invalid input: ${describeSchemaIssue(parsed.error)}`, structured: {}, isError: true };
    const input = parsed.data as Record<string, unknown>;
    if (tool === 'task_search') return taskSearchReply(this.memory, input);
    if (tool === 'task_get') return taskGetReply(this.memory, input);
    return taskWriteReply(this.memory, tool as TaskWriteTool, input, { client: agentId, now: () => new Date() });
  }

  list(): ResultOf<typeof TasksListRequest> {
    return { tasks: this.memory.list() };
  }

  /** A task's artifacts as timeline entries; a person sees held text in the view (they are the reviewer). */
  timeline(params: ParamsOf<typeof TaskTimelineRequest>): ResultOf<typeof TaskTimelineRequest> {
    const state = this.memory.getTask(params.taskId, true);
    const entries: TimelineEntry[] = (state?.artifacts ?? []).map((raw) => {
      const a = artifactSchema.parse(raw);
      const title = (a.summary ?? a.goal ?? a.command ?? a.tool_name ?? a.artifact_kind).replace(/\s+/g, ' ').slice(0, 200);
      return {
        artifact_id: a.artifact_id,
        artifact_kind: a.artifact_kind,
        agent_id: a.agent_id,
        created: a.timestamp_created,
        title,
        ...(a.status ? { status: a.status } : {}),
        ...(a.verification_status ? { verification_status: a.verification_status } : {}),
        ...(isHeld(a) ? { held: true } : {}),
        files: a.provenance?.files ?? [],
        ...(a.provenance?.conversation_id ? { conversation_id: a.provenance.conversation_id } : {}),
      };
    });
    return redactDeep({ entries });
  }

  dispose(): void {
    this.memory.close();
  }
}

/** True for the tools that write an artifact. */
export function isWriteTool(tool: string): tool is TaskWriteTool {
  return (TASK_WRITE_TOOLS as readonly string[]).includes(tool);
}

/**
 * Task memory between the VS Code client and the language server (part of the shared protocol,
 * re-exported by protocol.ts): the lore_task_* tools and the Tasks view.
 */
import type { RequestType } from 'vscode-languageserver-protocol';
import type { TaskToolReply } from '../core/services/tasks/taskReplies';
import type { TaskListRow } from '../core/services/tasks/taskRecords';
import { lazyType } from './lazyType';

/**
 * Client → server: one task tool call from a VS Code language model tool (lore_task_*), checked
 * against the same input schema as the MCP tool and answered with the same reply.
 */
export namespace TaskToolRequest {
  export const method = 'lore/taskTool' as const;
  export interface Params {
    tool: string;
    input: unknown;
    /** Recorded as the artifact's agent_id (e.g. `vscode-agent`). */
    agentId: string;
  }
  export type Result = TaskToolReply;
  export declare const type: RequestType<Params, Result, void>;
}
lazyType(TaskToolRequest, 'request');

/** Client → server: the tasks of the store for the Tasks view, newest first. */
export namespace TasksListRequest {
  export const method = 'lore/tasks' as const;
  export type Params = Record<string, never>;
  export interface Result {
    tasks: TaskListRow[];
  }
  export declare const type: RequestType<Params, Result, void>;
}
lazyType(TasksListRequest, 'request');

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
export namespace TaskTimelineRequest {
  export const method = 'lore/taskTimeline' as const;
  export interface Params {
    taskId: string;
  }
  export interface Result {
    entries: TimelineEntry[];
  }
  export declare const type: RequestType<Params, Result, void>;
}
lazyType(TaskTimelineRequest, 'request');

/**
 * Language server requests that change the store on the person's or an agent's behalf and then
 * tell the rest of the server, as a watcher's events would: forgetting a conversation (its index
 * rows purged with it) and task memory (the lore_task_* tools, the Tasks view).
 */
import * as path from 'node:path';
import type { Connection } from 'vscode-languageserver/node';
import { applyForget, planForget } from '../core/store/forget/forgetConversation';
import type { TaskToolName } from '../core/services/tasks/taskToolInputs';
import { ForgetConversationRequest, PlanForgetRequest, TaskTimelineRequest, TaskToolRequest, TasksListRequest } from '../shared/protocol';
import type { LoreServer } from './loreServer';
import { handleRequest } from './handleMessage';
import { isWriteTool } from './serverTasks';
import type { ResultOf } from '../shared/declareMessage';

/** Forget This Conversation… (the Ledger view): planned and applied here, where the search index lives. */
export function registerForgetRequests(connection: Connection, ready: () => Promise<LoreServer>): void {
  // Its index rows go and the index is purged in the same step.
  handleRequest(connection, PlanForgetRequest, async ({ conversation }): Promise<ResultOf<typeof PlanForgetRequest>> => {
    return planForget((await ready()).paths, conversation);
  });

  handleRequest(connection, ForgetConversationRequest, async ({ conversation }): Promise<ResultOf<typeof ForgetConversationRequest>> => {
    const s = await ready();
    const result = await applyForget(s.paths, conversation, { reindex: () => s.search.purge() });
    // Note index, lenses and the client's views hear of the changed files as of a watcher's events.
    for (const file of [...result.written, ...result.removedFiles]) s.fileChanged(path.join(s.paths.root, file));
    return result;
  });
}

/** Task memory: the lore_task_* language model tools and the Tasks view. */
export function registerTaskRequests(connection: Connection, ready: () => Promise<LoreServer>): void {
  handleRequest(connection, TaskToolRequest, async ({ tool, input, agentId }): Promise<ResultOf<typeof TaskToolRequest>> => {
    const s = await ready();
    const reply = await s.tasks.call(tool as TaskToolName, input, agentId);
    // The view refreshes through the same batch as a watcher event.
    const taskId = reply.structured.task_id;
    if (isWriteTool(tool) && !reply.isError && typeof taskId === 'string')
      s.fileChanged(path.join(s.paths.root, 'tasks', `${taskId}.jsonl`));
    return reply;
  });

  handleRequest(connection, TasksListRequest, async () => (await ready()).tasks.list());

  handleRequest(connection, TaskTimelineRequest, async (params): Promise<ResultOf<typeof TaskTimelineRequest>> => {
    return (await ready()).tasks.timeline(params);
  });
}

/**
 * The task memory tools as VS Code language model tools (`lore_task_search`, `lore_task_start`,
 * …): the same tools as `lore mcp`'s, checked and answered by the language server with core's
 * schemas and replies. Writes are recorded as agent `vscode-agent` (and an optional role).
 */
import * as vscode from 'vscode';
import { TASK_TOOL_NAMES_VSCODE } from './taskToolNames';
import type { StoreService } from '../storeService';
import { noStoreReply, plainReply } from '../search/toolReply';
import type { TasksClient } from './tasksClient';

/** The agent id of artifacts written through VS Code's language model tools. */
const VSCODE_AGENT = 'vscode-agent';

export function registerTaskTools(store: StoreService, tasks: TasksClient): vscode.Disposable[] {
  return Object.entries(TASK_TOOL_NAMES_VSCODE).map(([lmName, tool]) =>
    vscode.lm.registerTool<Record<string, unknown>>(lmName, {
      prepareInvocation: (options) => ({
        invocationMessage:
          tool === 'task_search'
            ? `Searching task memory${typeof options.input.query === 'string' ? ` for "${options.input.query}"` : ''}`
            : `Lore: ${tool.replace(/_/g, ' ')}`,
      }),
      invoke: async (options) => {
        if (!store.exists) return plainReply(noStoreReply(store));
        // The server redacts and frames the text (core/tasks/taskReplies), as for the MCP tools.
        const reply = await tasks.tool({ tool, input: options.input ?? {}, agentId: VSCODE_AGENT });
        return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(reply.text)]);
      },
    }),
  );
}

/**
 * Lore's MCP prompts, which clients offer as slash commands: `file_knowledge` (what do we know
 * about this file) and `task_context` (what do we know that bears on this task). Each puts
 * recall_context's reply into the conversation as one user message, framed as data.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { completable } from '@modelcontextprotocol/sdk/server/completable.js';
import { ErrorCode, McpError, type CallToolResult, type GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import * as path from 'node:path';
import { z } from 'zod';
import { recallReply } from './readTools';
import type { StoreSession } from './storeSession';

/** The prompt's one message from a tool reply's text. */
function asPrompt(description: string, intro: string, reply: CallToolResult): GetPromptResult {
  const text = reply.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  return { description, messages: [{ role: 'user', content: { type: 'text', text: `${intro}\n\n${text}` } }] };
}

async function storeOf(session: StoreSession) {
  const lookup = await session.lookup();
  if (!lookup.found) throw new McpError(ErrorCode.InvalidRequest, lookup.message);
  return lookup.paths;
}

/** Registers the prompts on `server`; `completePath` offers workspace paths for the file argument. */
export function registerPrompts(server: McpServer, session: StoreSession, completePath: (value: string) => Promise<string[]>): void {
  server.registerPrompt(
    'file_knowledge',
    {
      title: 'What do we know about this file?',
      description: 'The notes on a workspace file and the project knowledge that mentions it',
      argsSchema: { path: completable(z.string().min(1).max(4096).describe('Workspace-relative path of the file'), completePath) },
    },
    async ({ path: file }) => {
      const paths = await storeOf(session);
      // The file's name finds the knowledge that mentions it beside its own notes.
      const reply = await recallReply(session, paths, { files: [file], query: path.basename(file).replace(/\.[^.]+$/, '') });
      return asPrompt(`Lore knowledge about ${file}`, `What this project's Lore store records about ${file} (notes on the file first, then items that mention it):`, reply);
    },
  );

  server.registerPrompt(
    'task_context',
    {
      title: 'What do we know for this task?',
      description: 'The project knowledge that bears on a task: decisions, facts, open questions, playbooks and notes',
      argsSchema: {
        task: z.string().min(1).max(1000).describe('The task, in a few words'),
        files: z.string().max(4000).optional().describe('Files involved, comma-separated workspace-relative paths'),
      },
    },
    async ({ task, files }) => {
      const paths = await storeOf(session);
      const list = (files ?? '').split(',').map((f) => f.trim()).filter(Boolean).slice(0, 50);
      const reply = await recallReply(session, paths, { query: task, files: list });
      return asPrompt(`Lore knowledge for: ${task}`, `What this project's Lore store records that bears on the task "${task}":`, reply);
    },
  );
}

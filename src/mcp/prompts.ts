/**
 * Lore's MCP prompts, which clients offer as slash commands: `file_knowledge` (what do we know
 * about this file) and `task_context` (what do we know that bears on this task). Each puts the
 * context compiler's output (`lore context`'s: digest and the file's notes, the topics the task or
 * file activates, with their subscriptions, and the matching items with their ids) into the
 * conversation as one user message, framed as data. The prompt's message is the task (or the
 * file's path), so keyword, pattern and similarity triggers fire on it and glob triggers on the
 * files; the gate is not asked (gated topics follow the no-gate rows).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { completable } from '@modelcontextprotocol/sdk/server/completable.js';
import { ErrorCode, McpError, type GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import * as path from 'node:path';
import { z } from 'zod';
import { DEFAULT_BUDGET_TOKENS } from '../core/services/context/constants';
import { explainContext } from '../core/services/topics/explainContext';
import type { FileNotesInput } from '../core/services/promptCache/contextLayers';
import { HOOK_CONTEXT_INTRO, knowledgeHitLines, knowledgeQuery } from '../core/services/hooks/hookContext';
import { loadStoreConfig } from '../core/store/storeConfig';
import { isInside, type StorePaths } from '../core/store/storePaths';
import type { StoreSession } from './storeSession';

/** Why the gate is not asked, for the topics' decisions. */
const MCP_NO_GATE = 'an MCP prompt does not ask the gate';

async function storeOf(session: StoreSession) {
  const lookup = await session.lookup();
  if (!lookup.found) throw new McpError(ErrorCode.InvalidRequest, lookup.message);
  return lookup.paths;
}

/**
 * The compiled context of `message` with `files` in scope, as the prompt's one message. Hits are
 * searched for `query` (default: the message) in the server's open index.
 */
async function compiledPrompt(
  session: StoreSession,
  paths: StorePaths,
  request: { message: string; files: string[]; query?: string },
  description: string,
  intro: string,
): Promise<GetPromptResult> {
  // A client's argument is untrusted: only files of the workspace are looked up.
  for (const file of request.files) {
    if (!isInside(paths.workspace, path.resolve(paths.workspace, file)))
      throw new McpError(ErrorCode.InvalidParams, `${file} is outside the workspace`);
  }
  const hits = async (digest: string | undefined, fileNotes: FileNotesInput[]) => {
    const { query, limit, categories } = knowledgeQuery(request.query ?? request.message);
    if (!query) return [];
    const found = await session.openIndex(paths).search(query, { limit, categories });
    return knowledgeHitLines(paths, found.hits, digest, fileNotes, { ids: true });
  };
  const budgetTokens = loadStoreConfig(paths.config).config.contextBudgetTokens ?? DEFAULT_BUDGET_TOKENS;
  const explained = await explainContext(paths, {
    message: request.message,
    files: request.files,
    budgetTokens,
    noGateReason: MCP_NO_GATE,
    via: 'mcp',
    hits,
    role: HOOK_CONTEXT_INTRO,
  });
  return { description, messages: [{ role: 'user', content: { type: 'text', text: `${intro}\n\n${explained.compiled.text}` } }] };
}

/** Registers the prompts on `server`; `completePath` offers workspace paths for the file argument. */
export function registerPrompts(server: McpServer, session: StoreSession, completePath: (value: string) => Promise<string[]>): void {
  server.registerPrompt(
    'file_knowledge',
    {
      title: 'What do we know about this file?',
      description: 'The notes on a workspace file, the topics it activates and the project knowledge that mentions it',
      argsSchema: { path: completable(z.string().min(1).max(4096).describe('Workspace-relative path of the file'), completePath) },
    },
    async ({ path: file }) => {
      const paths = await storeOf(session);
      // The file's name finds the knowledge that mentions it beside its own notes.
      const query = path.basename(file).replace(/\.[^.]+$/, '');
      return compiledPrompt(
        session,
        paths,
        { message: file, files: [file], query },
        `Lore knowledge about ${file}`,
        `What this project's Lore store records about ${file} (its notes, the project's topics for it, then items that mention it):`,
      );
    },
  );

  server.registerPrompt(
    'task_context',
    {
      title: 'What do we know for this task?',
      description:
        'The project knowledge that bears on a task: the topics it activates, decisions, facts, open questions, playbooks and notes',
      argsSchema: {
        task: z.string().min(1).max(1000).describe('The task, in a few words'),
        files: z.string().max(4000).optional().describe('Files involved, comma-separated workspace-relative paths'),
      },
    },
    async ({ task, files }) => {
      const paths = await storeOf(session);
      const list = (files ?? '')
        .split(',')
        .map((f) => f.trim())
        .filter(Boolean)
        .slice(0, 50);
      return compiledPrompt(
        session,
        paths,
        { message: task, files: list },
        `Lore knowledge for: ${task}`,
        `What this project's Lore store records that bears on the task "${task}":`,
      );
    },
  );
}

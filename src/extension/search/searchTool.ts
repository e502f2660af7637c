/**
 * The `lore_search` and `lore_fileNotes` language model tools: ranked matches for words, and the
 * notes on one file, each within a token budget. Both run core's recall in the language server
 * (the index never opens on the extension host), which leaves out items held for review.
 */
import * as vscode from 'vscode';
import type { KnowledgeToolInput } from '../../core/services/agentTools/languageModelTools';
import type { StoreService } from '../storeService';
import type { SearchClient } from './searchClient';
import { knowledgeReply, noStoreReply, omittedFooter, plainReply } from './toolReply';

/** The inputs as package.json declares them (core/services/agentTools/languageModelTools.ts). */
export type SearchToolInput = KnowledgeToolInput<'lore_search'>;
export type FileNotesToolInput = KnowledgeToolInput<'lore_fileNotes'>;

/** The budget when the model names none: about what a tool result should cost (issue 14). */
const DEFAULT_TOOL_BUDGET = 2000;

export function registerSearchTools(store: StoreService, search: SearchClient): vscode.Disposable[] {
  return [
    vscode.lm.registerTool<SearchToolInput>('lore_search', {
      prepareInvocation: (options) => ({
        invocationMessage: `Searching Lore knowledge for "${String(options.input.query ?? '').slice(0, 80)}"`,
      }),
      invoke: async (options) => {
        if (!store.exists) return plainReply(noStoreReply(store));
        const query = String(options.input?.query ?? '').trim();
        if (!query) return plainReply('Give the words to search for in `query`.');
        const result = await search.recall({
          query,
          categories: options.input.categories,
          tokenBudget: options.input.tokenBudget ?? DEFAULT_TOOL_BUDGET,
        });
        if (!result.text)
          return plainReply(
            `No Lore knowledge matches "${query}".${omittedFooter(result.omitted) ? ` ${omittedFooter(result.omitted)}` : ''}`,
          );
        return knowledgeReply(result.text, omittedFooter(result.omitted));
      },
    }),
    vscode.lm.registerTool<FileNotesToolInput>('lore_fileNotes', {
      prepareInvocation: (options) => ({ invocationMessage: `Reading Lore's notes on ${String(options.input.path ?? '').slice(0, 200)}` }),
      invoke: async (options) => {
        if (!store.exists) return plainReply(noStoreReply(store));
        const file = String(options.input?.path ?? '').trim();
        if (!file) return plainReply('Give the file in `path` (workspace-relative or absolute).');
        const result = await search.recall({ files: [file], tokenBudget: options.input.tokenBudget ?? DEFAULT_TOOL_BUDGET });
        if (!result.text) return plainReply(`Lore has no notes on ${file}.`);
        return knowledgeReply(result.text, omittedFooter(result.omitted));
      },
    }),
  ];
}

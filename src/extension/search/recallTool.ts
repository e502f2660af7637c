/**
 * The `lore_recall` language model tool (Copilot agent mode and any chat that uses tools):
 * given a query and/or file paths, it returns matching knowledge with provenance within a token
 * budget, compact results first.
 */
import * as vscode from 'vscode';
import type { KnowledgeToolInput } from '../../core/services/agentTools/languageModelTools';
import type { StoreService } from '../storeService';
import type { SearchClient } from './searchClient';
import { knowledgeReply, noStoreReply, omittedFooter, plainReply } from './toolReply';

/** The input as package.json declares it (core/services/agentTools/languageModelTools.ts). */
export type RecallInput = KnowledgeToolInput<'lore_recall'>;

export function registerRecallTool(store: StoreService, search: SearchClient): vscode.Disposable {
  return vscode.lm.registerTool<RecallInput>('lore_recall', {
    prepareInvocation: (options) => ({
      invocationMessage: `Recalling Lore knowledge${options.input.query ? ` about "${options.input.query}"` : ''}${options.input.files?.length ? ` for ${options.input.files.length} file(s)` : ''}`,
    }),
    invoke: async (options) => {
      if (!store.exists) return plainReply(noStoreReply(store));
      const input = options.input ?? {};
      // The server checks and bounds the input (files, budget) before core's recall sees it.
      const result = await search.recall({ query: input.query, files: input.files, tokenBudget: input.tokenBudget });
      return result.text ? knowledgeReply(result.text, omittedFooter(result.omitted)) : plainReply('No matching knowledge.');
    },
  });
}

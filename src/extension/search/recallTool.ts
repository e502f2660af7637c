/**
 * The `lore_recall` language model tool (Copilot agent mode and any chat that uses tools):
 * given a query and/or file paths, it returns matching knowledge with provenance within a token
 * budget, compact results first.
 */
import * as vscode from 'vscode';
import { frameAsData } from '../../core/safety/dataFraming';
import { recall } from '../../core/search/recall';
import type { StoreService } from '../storeService';
import type { SearchService } from './searchService';

export interface RecallInput {
  query?: string;
  files?: string[];
  tokenBudget?: number;
}

export function registerRecallTool(store: StoreService, search: SearchService): vscode.Disposable {
  return vscode.lm.registerTool<RecallInput>('lore_recall', {
    prepareInvocation: (options) => ({
      invocationMessage: `Recalling Lore knowledge${options.input.query ? ` about "${options.input.query}"` : ''}${options.input.files?.length ? ` for ${options.input.files.length} file(s)` : ''}`,
    }),
    invoke: async (options) => {
      if (!store.exists) {
        return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart('This workspace has no Lore knowledge store yet.')]);
      }
      const input = options.input ?? {};
      const files = (input.files ?? []).filter((f) => typeof f === 'string').slice(0, 50);
      const budget = Math.min(Math.max(Number(input.tokenBudget) || 1000, 100), 8000);
      const result = await recall(store.paths, { query: typeof input.query === 'string' ? input.query : undefined, files, tokenBudget: budget, index: search.get() });
      return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(result.text ? frameAsData(result.text) : 'No matching knowledge.')]);
    },
  });
}

/**
 * The context compiler in the language server: what @lore sends a model and what **Lore: Why
 * This Context?** shows, compiled here so that the topics, the compiler and the search index stay
 * off the extension host. P3 hits come from the server's own index (ServerSearch), filtered and
 * rendered by the rules the hook and `lore context` use (knowledgeHitLines). The gate is not
 * asked: the server holds no provider settings, and gated topics follow the no-gate rows.
 */
import { explainContext, explanationJson, explanationMarkdown } from '../core/context/explainContext';
import { DEFAULT_BUDGET_TOKENS } from '../core/context/constants';
import { knowledgeHitLines, knowledgeQuery } from '../core/hooks/hookContext';
import { loadStoreConfig } from '../core/store/storeConfig';
import type { StorePaths } from '../core/store/storePaths';
import { watchReply } from '../core/topics/outputWatch';
import type { CompileContextRequest, WatchReplyRequest } from '../shared/protocol';
import type { ServerSearch } from './serverSearch';

/** Why the gate is not asked, for the decisions. */
export const SERVER_NO_GATE = 'the editor does not ask the gate (use lore context with a provider for tier 3)';

/** Compiles the context of a message; the result is `lore context --json`'s, plus the notes that went in. */
export async function compileServerContext(paths: StorePaths, search: ServerSearch, params: CompileContextRequest.Params): Promise<CompileContextRequest.Result> {
  const budgetTokens = params.budgetTokens ?? loadStoreConfig(paths.config).config.contextBudgetTokens ?? DEFAULT_BUDGET_TOKENS;
  const hits = async (digest: string | undefined, fileNotes: Parameters<typeof knowledgeHitLines>[3]) => {
    const { query, limit, categories } = knowledgeQuery(params.message);
    if (!query) return [];
    const found = await search.search({ query, limit, categories });
    return knowledgeHitLines(paths, found.hits, digest, fileNotes);
  };
  const explained = await explainContext(paths, {
    message: params.message,
    files: params.files,
    budgetTokens,
    noGateReason: SERVER_NO_GATE,
    via: 'vscode',
    hits,
    sessionId: params.sessionId,
    discussion: params.discussion,
    earlierTurns: params.earlierTurns,
  });
  const json = explanationJson(explained) as Omit<CompileContextRequest.Result, 'fileNotes' | 'digest' | 'markdown'>;
  return {
    ...json,
    fileNotes: explained.fileNotes,
    digest: explained.compiled.boundaries.some((b) => b.layer === 'knowledge'),
    ...(params.markdown ? { markdown: explanationMarkdown(explained, params.message) } : {}),
  };
}

/** Runs the output watchers on a reply of @lore's model (the topics wait for the session's next message). */
export function watchServerReply(paths: StorePaths, params: WatchReplyRequest.Params): WatchReplyRequest.Result {
  return { activated: watchReply(paths, params.sessionId, params.reply) };
}

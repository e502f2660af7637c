/**
 * The context compiler in the language server: what @lore sends a model and what **Lore: Why
 * This Context?** shows, compiled here so that the topics, the compiler and the search index stay
 * off the extension host. P3 hits come from the server's own index (ServerSearch), filtered and
 * rendered by the rules the hook and `lore context` use (knowledgeHitLines). The server holds no
 * provider settings or keys, so tier 3 goes back to the client: when the request names a `gate`
 * (@lore, with the model it answers with), each gate call is a `lore/gateAsk` to the client, and
 * the answers are cached and logged here like the CLI's; without one, gated topics follow the
 * bypass table's no-gate rows.
 */
import { explainContext, explanationJson, explanationMarkdown } from '../core/services/topics/explainContext';
import { DEFAULT_BUDGET_TOKENS } from '../core/services/context/constants';
import { knowledgeHitLines, knowledgeQuery } from '../core/services/hooks/hookContext';
import { loadStoreConfig, storePrivateMarkers } from '../core/store/storeConfig';
import type { StorePaths } from '../core/store/storePaths';
import { watchReply } from '../core/services/topics/outputWatch';
import { GATE_TIMEOUT_MS, textGate, type TopicGate } from '../core/services/topics/topicGate';
import type { CompileContextRequest, GateAskRequest, WatchReplyRequest } from '../shared/protocol';
import type { ServerSearch } from './serverSearch';
import type { ParamsOf, ResultOf } from '../shared/declareMessage';

/** Why the gate is not asked, for the decisions. */
export const SERVER_NO_GATE = 'the editor does not ask the gate (use lore context with a provider for tier 3)';

/** Sends one gate call to the client (`lore/gateAsk`); `signal` cancels it there. */
export type ClientGateAsk = (params: ParamsOf<typeof GateAskRequest>, signal: AbortSignal) => Promise<ResultOf<typeof GateAskRequest>>;

/** The request's gate over the client's model: a call the client does not answer in GATE_TIMEOUT_MS fails (the topic is dropped, not cached). */
function clientGate(paths: StorePaths, gate: NonNullable<ParamsOf<typeof CompileContextRequest>['gate']>, ask: ClientGateAsk): TopicGate {
  return textGate(
    gate.label,
    async (call) => {
      const controller = new AbortController();
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => {
          controller.abort();
          reject(new Error(`the client's model did not answer the gate within ${GATE_TIMEOUT_MS} ms`));
        }, GATE_TIMEOUT_MS);
      });
      try {
        return (await Promise.race([ask({ gateId: gate.id, ...call }, controller.signal), timeout])).text;
      } finally {
        clearTimeout(timer);
      }
    },
    storePrivateMarkers(paths.config),
  );
}

/** Compiles the context of a message; the result is `lore context --json`'s, plus the notes that went in. */
export async function compileServerContext(
  paths: StorePaths,
  search: ServerSearch,
  params: ParamsOf<typeof CompileContextRequest>,
  ask?: ClientGateAsk,
): Promise<ResultOf<typeof CompileContextRequest>> {
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
    gate: params.gate && ask ? clientGate(paths, params.gate, ask) : undefined,
    noGateReason: params.noGateReason ?? SERVER_NO_GATE,
    via: params.via ?? 'vscode',
    hits,
    sessionId: params.sessionId,
    discussion: params.discussion,
    earlierTurns: params.earlierTurns,
  });
  const json = explanationJson(explained) as Omit<ResultOf<typeof CompileContextRequest>, 'fileNotes' | 'digest' | 'markdown'>;
  return {
    ...json,
    fileNotes: explained.fileNotes,
    digest: explained.compiled.boundaries.some((b) => b.layer === 'knowledge'),
    ...(params.markdown ? { markdown: explanationMarkdown(explained, params.message) } : {}),
  };
}

/** Runs the output watchers on a reply of @lore's model (the topics wait for the session's next message). */
export function watchServerReply(paths: StorePaths, params: ParamsOf<typeof WatchReplyRequest>): ResultOf<typeof WatchReplyRequest> {
  return { activated: watchReply(paths, params.sessionId, params.reply) };
}

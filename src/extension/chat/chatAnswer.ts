/**
 * How @lore answers one question: through the configured direct provider (the harvest's adapter,
 * with prompt caching) when `lore.provider` names one, through the chat's VS Code language model
 * when it is `vscode-lm`, and from Lore's local knowledge when there is no model to ask. Kept
 * apart from the chat API's request type so it can be driven with a question and any stream.
 *
 * The prompt is the context compiler's (`lore context`'s): digest and notes (P1), the topics the
 * question activates and those the output watchers left after the discussion's previous answer
 * (P2), matching items (P3) and the earlier turns (P4), within the store's token budget. It is
 * compiled in the language server (lore/compileContext); only while the server is not running is
 * it compiled here, from the topics bundle and without P3. Gated topics ask tier 3 with the model
 * that answers (chatGate.ts), so the route is chosen before the prompt is compiled; when Lore's
 * local knowledge answers there is no model, and gated topics follow the bypass table's no-gate rows.
 */
import * as vscode from 'vscode';
import { buildContext, DEFAULT_ROLE_INSTRUCTIONS, stablePrefix, volatileSuffix } from '../../core/services/context/buildContext';
import { createCacheState, recordCall } from '../../core/services/promptCache/cacheState';
import { taskCallOf } from '../../core/services/spending/meteredTask';
import type { BuiltContext, EarlierTurn, FileNotesInput } from '../../core/services/promptCache/contextLayers';
import { loadStoreConfig } from '../../core/store/storeConfig';
import { hasKey, isNetworkVendor, resolveEndpoint, VENDOR_ENDPOINTS } from '../../core/services/providers/endpoints';
import { ProviderError } from '../../core/services/providers/provider';
import type { ModelAdapter } from '../../core/services/providers/modelAdapter';
import { createAdapter } from '../../core/services/providers/providerRegistry';
import type { CacheStates } from '../cache/cacheStates';
import { logger } from '../log';
import { adapterOptions } from '../providers/providerChoice';
import { selectModel } from '../providers/vscodeLmProvider';
import type { ClientGate, SearchClient } from '../search/searchClient';
import { readSettings, type LoreSettings } from '../settings';
import type { StoreService } from '../storeService';
import { directGate, languageModelGate } from './chatGate';
import { chatCapRefusal, recordChatCall } from './chatSpending';
import { localAnswer } from './localAnswer';
import { isLoreModel } from './loreModelIds';
import { topicsLibrary } from '../topics/loadTopicsLibrary';

const log = logger('chat');

/** One question to @lore, as the participant sees it. */
export interface ChatQuestion {
  prompt: string;
  /** Files in scope (attached, and the active editor's), absolute. */
  files: readonly string[];
  /** Earlier turns of this discussion with @lore. */
  history: readonly EarlierTurn[];
  discussionId: string;
  /** The model chosen in the chat, when VS Code has one. */
  model?: vscode.LanguageModelChat;
}

/** The part of vscode.ChatResponseStream an answer writes to. */
export interface ChatOutput {
  markdown(value: string): void;
  progress(value: string): void;
}

export interface ChatAnswer {
  /** The reply text ('' when none came). */
  text: string;
  /** `local`: no model answered (the text is Lore's own knowledge, not worth recording); `failed`: the model call failed (said in the stream). */
  route: 'direct' | 'vscode-lm' | 'local' | 'failed';
  model?: string;
  /** The file notes the model was given (shown with the answer, as its sources). */
  notes: readonly FileNotesInput[];
  /** The topics in the prompt, with the tier that activated each. */
  topics: ReadonlyArray<{ name: string; tier: number | string }>;
}

/** What lore/compileContext accepts at most (src/server/requestParams.ts). */
const MAX_MESSAGE_CHARS = 100_000;
const MAX_FILES = 50;
const MAX_TURNS = 200;

/** The compiled prompt of a question, and what went into it. */
interface QuestionContext {
  built: BuiltContext;
  notes: FileNotesInput[];
  topics: Array<{ name: string; tier: number | string }>;
  digest: boolean;
  hits: number;
}

/** Who answers a question: a direct provider, a VS Code language model, or Lore's local knowledge (and why). */
type AnswerRoute =
  | { kind: 'direct'; adapter: ModelAdapter; provider: string }
  | { kind: 'vscode-lm'; model: vscode.LanguageModelChat }
  | { kind: 'local'; reason: string };

/** Why a model error means "no model to ask" rather than a failure to report (a key refused, nothing to reach, consent refused). */
function noModelReason(error: unknown): string | undefined {
  if (error instanceof ProviderError && (error.kind === 'auth' || error.kind === 'unavailable')) return error.message;
  if (
    error instanceof vscode.LanguageModelError &&
    (error.code === vscode.LanguageModelError.NoPermissions.name || error.code === vscode.LanguageModelError.NotFound.name)
  ) {
    return `the VS Code language model refused: ${error.message}`;
  }
  return undefined;
}

export class ChatAnswerer {
  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly store: StoreService,
    private readonly caches: CacheStates,
    private readonly search: SearchClient,
  ) {}

  /** Who answers (the settings, the key, the chat's model), decided before the prompt is compiled: its model is the gate's. */
  private async route(question: ChatQuestion, settings: LoreSettings): Promise<AnswerRoute> {
    if (isNetworkVendor(settings.provider)) {
      const options = await adapterOptions(this.secrets, settings.provider, settings);
      if (!hasKey(resolveEndpoint(settings.provider, options))) {
        return {
          kind: 'local',
          reason: `\`lore.provider\` is ${settings.provider} and there is no API key for it: run **Lore: Set API Key…** or set ${VENDOR_ENDPOINTS[settings.provider].keyVars.join(' or ')}`,
        };
      }
      // The harvest's adapter; a discussion comes back, so its prefix is worth an explicit cache.
      return { kind: 'direct', adapter: createAdapter(settings.provider, options), provider: settings.provider };
    }
    if (settings.provider === 'rules')
      return { kind: 'local', reason: '`lore.provider` is `rules`, the offline extractor, which is not a language model' };
    // Lore's own model here is its local knowledge (the direct one is only offered with a direct provider, handled above).
    if (question.model && isLoreModel(question.model))
      return {
        kind: 'local',
        reason: "the chat's model is Lore's local knowledge, and `lore.provider` names no direct provider with a key",
      };
    const model = question.model ?? (await selectModel(settings.model));
    if (!model)
      return {
        kind: 'local',
        reason:
          'VS Code has no language model (sign in to a chat extension such as GitHub Copilot, or set `lore.provider` to a direct provider with a key)',
      };
    return { kind: 'vscode-lm', model };
  }

  /** The compiled context of a question: in the language server, else here without P3 (logged). */
  private async context(question: ChatQuestion, route: AnswerRoute, token: vscode.CancellationToken): Promise<QuestionContext> {
    const discussion = { id: question.discussionId, turn: Math.floor(question.history.length / 2) + 1 };
    if (!this.store.exists) {
      return {
        built: buildContext({ role: DEFAULT_ROLE_INSTRUCTIONS, discussion, earlierTurns: question.history, message: question.prompt }),
        notes: [],
        topics: [],
        digest: false,
        hits: 0,
      };
    }
    // Within lore/compileContext's bounds (the compiler keeps only the newest turns that fit anyway).
    const request = {
      message: question.prompt.slice(0, MAX_MESSAGE_CHARS),
      files: question.files.slice(0, MAX_FILES),
      sessionId: question.discussionId,
      discussion,
      earlierTurns: question.history.slice(-MAX_TURNS).map((t) => ({ role: t.role, text: t.text.slice(0, MAX_MESSAGE_CHARS) })),
      via: '@lore' as const,
      ...(route.kind === 'local'
        ? {
            noGateReason: `@lore has no model to ask (${route.reason}), so only the no-gate rows of the bypass table activate`.slice(
              0,
              500,
            ),
          }
        : {}),
    };
    const gate: ClientGate | undefined =
      route.kind === 'direct' ? directGate(route.adapter) : route.kind === 'vscode-lm' ? languageModelGate(route.model, token) : undefined;
    try {
      const r = await this.search.compileContext(request, gate);
      const built: BuiltContext = {
        text: r.text,
        stablePrefixLength: r.stablePrefixLength,
        stablePrefixBytes: r.stablePrefixBytes,
        boundaries: r.boundaries as BuiltContext['boundaries'],
      };
      return {
        built,
        notes: r.fileNotes,
        topics: r.topics.active.map((a) => ({ name: a.name, tier: a.tier })),
        digest: r.digest,
        hits: r.hits.length,
      };
    } catch (error) {
      log.warn(`compiling @lore's context here, without matching items: ${error instanceof Error ? error.message : String(error)}`);
      const { explainContext, DEFAULT_BUDGET_TOKENS, storePrivateMarkers, textGate } = topicsLibrary();
      const budgetTokens = loadStoreConfig(this.store.paths.config).config.contextBudgetTokens ?? DEFAULT_BUDGET_TOKENS;
      const topicGate = gate && textGate(gate.label, gate.ask, storePrivateMarkers(this.store.paths.config));
      const e = await explainContext(this.store.paths, {
        ...request,
        budgetTokens,
        gate: topicGate,
        noGateReason: request.noGateReason ?? 'the editor does not ask the gate',
      });
      return {
        built: e.compiled,
        notes: e.fileNotes,
        topics: e.topics.activation.active.map((a) => ({ name: a.topic.name, tier: a.tier })),
        digest: e.compiled.boundaries.some((b) => b.layer === 'knowledge'),
        hits: 0,
      };
    }
  }

  async answer(question: ChatQuestion, out: ChatOutput, token: vscode.CancellationToken): Promise<ChatAnswer> {
    const settings = readSettings();
    let route: AnswerRoute;
    try {
      route = await this.route(question, settings);
    } catch (error) {
      // The key or the model could not be looked up: Lore's knowledge answers, and says why.
      log.error('choosing the chat model failed', error);
      route = { kind: 'local', reason: `no model could be chosen: ${error instanceof Error ? error.message : String(error)}` };
    }
    const context = await this.context(question, route, token);
    const built = context.built;

    // Show what knowledge the answer is built on.
    const used: string[] = [];
    if (context.digest) used.push('the knowledge digest');
    for (const notes of context.notes) used.push(`${notes.notes.length} note(s) on \`${notes.path}\``);
    if (context.topics.length)
      used.push(`topic${context.topics.length === 1 ? '' : 's'} ${context.topics.map((t) => `\`${t.name}\``).join(', ')}`);
    if (context.hits) used.push(`${context.hits} matching item${context.hits === 1 ? '' : 's'}`);
    out.progress(used.length ? `Using ${used.join(', ')}` : 'No Lore knowledge applies yet');

    const notes = context.notes;
    const topics = context.topics;
    const local = async (reason: string): Promise<ChatAnswer> => {
      const text = await localAnswer(this.store, this.search, question.prompt, question.files, reason);
      out.markdown(text);
      return { text, route: 'local', notes, topics };
    };
    const abort = new AbortController();
    const subscription = token.onCancellationRequested(() => abort.abort());
    try {
      if (route.kind === 'local') return await local(route.reason);
      if (route.kind === 'direct') {
        // A direct provider bills the person's key: a call that would pass a daily or monthly cap is not sent.
        const refusal = chatCapRefusal(this.store, settings.budget, route.provider, route.adapter.defaultModel, built.text);
        if (refusal) {
          out.markdown(refusal);
          return { text: '', route: 'failed', notes, topics };
        }
        const state = this.caches.get(question.discussionId) ?? createCacheState(question.discussionId, route.provider);
        const reply = await route.adapter.send(built, { cache: { mode: 'explicit', state }, signal: abort.signal });
        await recordChatCall(
          this.store,
          question.discussionId,
          taskCallOf(route.provider, reply.model, built.text, reply.text, reply.usage),
        );
        await this.caches.put(recordCall(state, reply.usage, Date.now(), reply.cache));
        out.markdown(reply.text);
        return { text: reply.text, route: 'direct', model: reply.model, notes, topics };
      }
      const model = route.model;
      const messages = [
        vscode.LanguageModelChatMessage.User(stablePrefix(built)),
        vscode.LanguageModelChatMessage.User(volatileSuffix(built)),
      ];
      const response = await model.sendRequest(messages, {}, token);
      let text = '';
      for await (const chunk of response.text) {
        text += chunk;
        out.markdown(chunk);
      }
      // VS Code reports no usage: the tokens are counted from the text sent and received (and the log says so).
      await recordChatCall(this.store, question.discussionId, taskCallOf('vscode-lm', model.id, built.text, text));
      return { text, route: 'vscode-lm', model: model.name, notes, topics };
    } catch (error) {
      if (token.isCancellationRequested) return { text: '', route: 'failed', notes, topics };
      log.error('chat request failed', error);
      const reason = noModelReason(error);
      if (reason) return await local(reason);
      out.markdown(`\n\n*Lore could not get an answer: ${error instanceof Error ? error.message : String(error)}*`);
      return { text: '', route: 'failed', notes, topics };
    } finally {
      subscription.dispose();
    }
  }
}

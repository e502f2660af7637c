/**
 * The configured direct provider (`lore.provider` = openai, anthropic, gemini or ollama, with a
 * key or a base URL) offered to VS Code as a chat model, "Lore: openai gpt-…".
 *
 * Why: VS Code resolves a chat model for every chat request before it calls any participant, and
 * answers "Language model unavailable" when it has none (no Copilot, nothing in the model
 * picker): @lore's handler never runs then, whatever Lore is configured with. With this model in
 * the picker there is one to resolve; @lore still answers through the adapter itself (chatAnswer.ts),
 * and other chats can use the model too (text only, no tool calls).
 *
 * The API (`lm.registerLanguageModelChatProvider`, `contributes.languageModelChatProviders`) is
 * final from VS Code 1.104; on older versions nothing is registered and the log says so.
 */
import * as vscode from 'vscode';
import { buildContext } from '../../core/services/context/buildContext';
import type { EarlierTurn } from '../../core/services/promptCache/contextLayers';
import { estimateTokens } from '../../core/model/tokens';
import { hasKey, isNetworkVendor, resolveEndpoint, VENDOR_ENDPOINTS, type NetworkVendor } from '../../core/services/providers/endpoints';
import { createAdapter } from '../../core/services/providers/providerRegistry';
import { taskCallOf } from '../../core/services/spending/meteredTask';
import { Disposable } from '../lifecycle';
import { logger, runCommand } from '../log';
import { adapterOptions, secretKey } from '../providers/providerChoice';
import type { SearchClient } from '../search/searchClient';
import { readSettings } from '../settings';
import type { StoreService } from '../storeService';
import { chatCapRefusal, recordChatCall } from './chatSpending';
import { localAnswer } from './localAnswer';
import { LOCAL_MODEL_ID, LORE_MODEL_VENDOR } from './loreModelIds';

const log = logger('chat-model');

/** What VS Code 1.104+ asks of a chat model provider (not in @types/vscode 1.101). */
export interface ChatModelInformation {
  id: string;
  name: string;
  family: string;
  version: string;
  tooltip?: string;
  detail?: string;
  maxInputTokens: number;
  maxOutputTokens: number;
  capabilities: { imageInput?: boolean; toolCalling?: boolean | number };
}
interface ChatRequestMessage {
  role: vscode.LanguageModelChatMessageRole;
  content: ReadonlyArray<unknown>;
}
interface ChatModelProvider {
  onDidChangeLanguageModelChatInformation?: vscode.Event<void>;
  provideLanguageModelChatInformation(
    options: { silent: boolean },
    token: vscode.CancellationToken,
  ): vscode.ProviderResult<ChatModelInformation[]>;
  provideLanguageModelChatResponse(
    model: ChatModelInformation,
    messages: readonly ChatRequestMessage[],
    options: unknown,
    progress: vscode.Progress<vscode.LanguageModelTextPart>,
    token: vscode.CancellationToken,
  ): Thenable<void>;
  provideTokenCount(model: ChatModelInformation, text: string | ChatRequestMessage, token: vscode.CancellationToken): Thenable<number>;
}
type RegisterChatModelProvider = (vendor: string, provider: ChatModelProvider) => vscode.Disposable;

function textOf(message: ChatRequestMessage): string {
  return message.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

/** The vendor `lore.provider` names, when it is a direct one with a key (or an endpoint that needs none). */
async function configuredVendor(
  secrets: vscode.SecretStorage,
): Promise<{ vendor: NetworkVendor; model: string; baseUrl: string } | undefined> {
  const settings = readSettings();
  if (!isNetworkVendor(settings.provider)) return undefined;
  const options = await adapterOptions(secrets, settings.provider, settings);
  const endpoint = resolveEndpoint(settings.provider, options);
  if (!hasKey(endpoint)) return undefined;
  return {
    vendor: settings.provider,
    model: settings.model || VENDOR_ENDPOINTS[settings.provider].defaultModel,
    baseUrl: endpoint.baseUrl,
  };
}

export class DirectModelProvider extends Disposable implements ChatModelProvider {
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  readonly onDidChangeLanguageModelChatInformation = this.changed.event;
  /** Why the provider is not registered (an older VS Code), or undefined when it is. */
  readonly unregisteredReason: string | undefined;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly store: StoreService,
    private readonly search: SearchClient,
  ) {
    super();
    // The local model exists only with a store: follow the store appearing or going.
    let hadStore = store.exists;
    this._register(
      store.onDidChange(() => {
        if (store.exists !== hadStore) {
          hadStore = store.exists;
          this.changed.fire();
        }
      }),
    );
    this._register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('lore.provider') || e.affectsConfiguration('lore.model') || e.affectsConfiguration('lore.baseUrl'))
          this.changed.fire();
      }),
    );
    this._register(
      secrets.onDidChange((e) => {
        if (e.key.startsWith(secretKey(''))) this.changed.fire();
      }),
    );
    this._register(
      vscode.commands.registerCommand('lore.useDirectModelInChat', () => runCommand("Use Lore's Provider in Chat", () => this.useInChat())),
    );
    const register = (vscode.lm as unknown as { registerLanguageModelChatProvider?: RegisterChatModelProvider })
      .registerLanguageModelChatProvider;
    if (typeof register !== 'function') {
      this.unregisteredReason = `VS Code ${vscode.version} cannot take chat models from extensions (1.104 can): @lore needs a model chosen in the chat there`;
      log.info(this.unregisteredReason);
      return;
    }
    this._register(register(LORE_MODEL_VENDOR, this));
  }

  /**
   * Makes Lore's model the chat's model. Without Copilot the chat's model picker offers nothing
   * but "Sign in to use Copilot" (VS Code 1.139), so this command is how a person gets there.
   */
  async useInChat(): Promise<void> {
    if (this.unregisteredReason) {
      void vscode.window.showInformationMessage(`Lore: ${this.unregisteredReason}.`);
      return;
    }
    const [model] = await vscode.lm.selectChatModels({ vendor: LORE_MODEL_VENDOR });
    if (!model) {
      const choice = await vscode.window.showInformationMessage(
        'Lore: choose a direct provider (OpenAI or compatible, Anthropic, Gemini, Ollama) with its key first; the chat then uses it for @lore.',
        'Choose How to Distill…',
      );
      if (choice) await vscode.commands.executeCommand('lore.chooseDistiller');
      return;
    }
    await vscode.commands.executeCommand('workbench.action.chat.open');
    await vscode.commands.executeCommand('workbench.action.chat.changeModel', { vendor: model.vendor, id: model.id, family: model.family });
    log.info(`chat model set to ${model.name}`);
    if (model.id === LOCAL_MODEL_ID) {
      const choice = await vscode.window.showInformationMessage(
        "Lore: the chat answers from Lore's own knowledge, without a model. For answers from a model, choose a direct provider (OpenAI or compatible, Anthropic, Gemini, Ollama) with its key.",
        'Choose How to Distill…',
      );
      if (choice) await vscode.commands.executeCommand('lore.chooseDistiller');
    }
  }

  async provideLanguageModelChatInformation(): Promise<ChatModelInformation[]> {
    const configured = await configuredVendor(this.secrets);
    if (!configured) {
      if (!this.store.exists) return [];
      return [
        {
          id: LOCAL_MODEL_ID,
          name: 'Lore: local knowledge (no model)',
          family: LOCAL_MODEL_ID,
          version: '1',
          tooltip:
            "No language model: answers from Lore's own knowledge (notes and search), labelled as such, and sends nothing anywhere. Set lore.provider to a direct provider for model answers.",
          detail: 'no model',
          maxInputTokens: 128_000,
          maxOutputTokens: 8_192,
          capabilities: { toolCalling: true },
        },
      ];
    }
    return [
      {
        id: `lore-${configured.vendor}`,
        name: `Lore: ${configured.vendor} ${configured.model}`,
        family: configured.vendor,
        version: configured.model,
        tooltip: `The direct provider Lore is configured with (lore.provider), at ${configured.baseUrl}. It answers @lore and plain questions; it does not call tools.`,
        detail: configured.vendor,
        maxInputTokens: 128_000,
        maxOutputTokens: 8_192,
        // Without Copilot, agent mode is the chat's only mode, and VS Code lets a person choose only
        // models that take tools there. The tools offered are not called: the reply is text.
        capabilities: { toolCalling: true },
      },
    ];
  }

  async provideLanguageModelChatResponse(
    model: ChatModelInformation,
    messages: readonly ChatRequestMessage[],
    _options: unknown,
    progress: vscode.Progress<vscode.LanguageModelTextPart>,
    token: vscode.CancellationToken,
  ): Promise<void> {
    if (model.id === LOCAL_MODEL_ID) {
      const question = [...messages].reverse().find((m) => m.role === vscode.LanguageModelChatMessageRole.User);
      progress.report(
        new vscode.LanguageModelTextPart(
          await localAnswer(this.store, this.search, question ? textOf(question) : '', [], "the chat's model is Lore's local knowledge"),
        ),
      );
      return;
    }
    const configured = await configuredVendor(this.secrets);
    if (!configured) throw new Error('Lore has no direct provider configured (lore.provider with a key)');
    // The adapters take a layered context: earlier messages as turns, the last one as the message.
    const turns: EarlierTurn[] = messages.map((m) => ({
      role: m.role === vscode.LanguageModelChatMessageRole.Assistant ? 'assistant' : 'user',
      text: textOf(m),
    }));
    const last = turns.pop();
    const context = buildContext({ earlierTurns: turns, message: last?.text ?? '' });
    // Another chat's question through Lore's provider bills the same key: held to the same caps, recorded as chat.
    const refusal = chatCapRefusal(this.store, readSettings().budget, configured.vendor, configured.model, context.text);
    if (refusal) {
      progress.report(new vscode.LanguageModelTextPart(refusal));
      return;
    }
    const abort = new AbortController();
    const subscription = token.onCancellationRequested(() => abort.abort());
    try {
      const adapter = createAdapter(configured.vendor, await adapterOptions(this.secrets, configured.vendor));
      const reply = await adapter.send(context, { cache: { mode: 'implicit' }, signal: abort.signal });
      await recordChatCall(
        this.store,
        // The Web Crypto global: importing node:crypto would load it with the extension's bundle.
        `lore-model-${crypto.randomUUID()}`,
        taskCallOf(configured.vendor, reply.model, context.text, reply.text, reply.usage),
      );
      progress.report(new vscode.LanguageModelTextPart(reply.text));
    } finally {
      subscription.dispose();
    }
  }

  async provideTokenCount(_model: ChatModelInformation, text: string | ChatRequestMessage): Promise<number> {
    return estimateTokens(typeof text === 'string' ? text : textOf(text));
  }
}

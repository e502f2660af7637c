/**
 * How conversations are distilled: VS Code's language models, a direct provider with a key, or
 * the offline rules extractor. The choice is the `lore.provider` setting, asked for once (the
 * first harvest, the walkthrough, or "Lore: Choose How to Distill…") and then remembered; a
 * harvest asks only while no settings scope holds a value, so the built-in default never counts
 * as a choice the person made.
 */
import * as vscode from 'vscode';
import { isLoreModel } from '../chat/loreModelIds';
import { hasKey, NETWORK_VENDORS, resolveEndpoint, VENDOR_ENDPOINTS, type NetworkVendor } from '../../core/services/providers/endpoints';
import { Disposable } from '../lifecycle';
import { logger, runCommand } from '../log';
import { providerChosen, readSettings, updateEndpoint, updateProvider, type ProviderSetting } from '../settings';
import { ASKS_FOR_URL, baseUrlProblem, baseUrlToKeep, modelToKeep } from './endpointAnswers';
import { adapterOptions } from './providerChoice';

const log = logger('distill');

/** Context key the walkthrough's "choose how to distill" step completes on. */
export const DISTILL_CHOSEN_CONTEXT = 'lore.distillChosen';

type DistillPick = vscode.QuickPickItem & { provider?: ProviderSetting | 'direct' };

const VENDOR_LABELS: Record<NetworkVendor, string> = {
  openai: 'OpenAI or an OpenAI-compatible server',
  anthropic: 'Anthropic',
  gemini: 'Google Gemini',
  ollama: 'Ollama (local, no key)',
};

export class DistillChoice extends Disposable {
  /** True from the moment the question is asked until it is answered or dismissed (the integration tests dismiss it). */
  asking = false;

  constructor(private readonly secrets: vscode.SecretStorage) {
    super();
    this.setContext();
    this._register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('lore.provider')) this.setContext();
      }),
    );
  }

  /** True when a user, workspace or folder setting names the provider (the package default does not count). */
  isChosen(): boolean {
    return providerChosen();
  }

  /** Records a choice in settings, as the question does once answered. */
  async remember(provider: ProviderSetting): Promise<void> {
    const where = await updateProvider(provider);
    log.info(`distill with ${provider} (remembered in the ${where} settings)`);
    this.setContext();
  }

  /** Asks how to distill and remembers the answer; undefined when the person dismissed the question. */
  async ask(): Promise<ProviderSetting | undefined> {
    this.asking = true;
    try {
      // Lore's own chat models are not VS Code's models to distill with.
      const models = await vscode.lm.selectChatModels().then(
        (m) => m.filter((model) => !isLoreModel(model)).length,
        () => 0,
      );
      const picks: DistillPick[] = [
        {
          label: "$(copilot) VS Code's language models",
          description: models ? `${models} available` : 'none available yet',
          detail: 'The models you already have in VS Code (for example GitHub Copilot). VS Code asks once before Lore may use them.',
          provider: 'vscode-lm',
        },
        {
          label: '$(key) A provider with an API key',
          description: 'OpenAI, Anthropic, Gemini, Ollama',
          detail: "Lore calls the provider directly; the key is kept in VS Code's secret storage, never in settings.",
          provider: 'direct',
        },
        {
          label: '$(circuit-board) The offline extractor',
          description: 'no model, nothing leaves this machine',
          detail: 'Picks up explicit markers only ("Decision:", "TODO:", questions). Precise, but misses what was never marked.',
          provider: 'rules',
        },
      ];
      const pick = await vscode.window.showQuickPick(picks, {
        title: 'Lore: how should conversations be distilled?',
        placeHolder: 'Remembered in the lore.provider setting; change it with "Lore: Choose How to Distill…"',
        ignoreFocusOut: true,
      });
      if (!pick?.provider) return undefined;
      if (pick.provider !== 'direct') {
        await this.remember(pick.provider);
        return pick.provider;
      }
      const direct = await this.askVendor();
      if (!direct) return undefined;
      // After the provider: recording another provider drops the URL and model of the old one.
      await this.remember(direct.vendor);
      if (direct.endpoint) await updateEndpoint(direct.endpoint);
      return direct.vendor;
    } finally {
      this.asking = false;
    }
  }

  /**
   * Which provider, and for a server a person may run elsewhere (OpenAI-compatible, Ollama) its
   * URL, then the key when it needs one and none is stored, then the model. Undefined when a
   * question was dismissed.
   */
  private async askVendor(): Promise<{ vendor: NetworkVendor; endpoint?: { baseUrl?: string; model?: string } } | undefined> {
    const pick = await vscode.window.showQuickPick(
      NETWORK_VENDORS.map((vendor) => ({
        label: VENDOR_LABELS[vendor],
        description: `default model ${VENDOR_ENDPOINTS[vendor].defaultModel}`,
        vendor,
      })),
      { title: 'Lore: which provider?', ignoreFocusOut: true },
    );
    if (!pick) return undefined;
    const vendor = pick.vendor;
    const spec = VENDOR_ENDPOINTS[vendor];
    const settings = readSettings();
    // What is set now stays the suggestion only while it is this provider's.
    const same = settings.provider === vendor;
    let baseUrl: string | undefined;
    if (ASKS_FOR_URL.includes(vendor)) {
      const typed = await vscode.window.showInputBox({
        title: `Lore: the address of the ${VENDOR_LABELS[vendor].replace(/ \(.*\)$/, '')} server`,
        prompt:
          vendor === 'openai'
            ? 'OpenAI itself, or your own OpenAI-compatible server (LM Studio, llama.cpp, vLLM, LiteLLM, …)'
            : 'Where Ollama runs; press Enter for this machine',
        value: (same && settings.baseUrl) || spec.defaultBaseUrl,
        validateInput: (text) => baseUrlProblem(text),
        ignoreFocusOut: true,
      });
      if (typed === undefined) return undefined;
      baseUrl = baseUrlToKeep(vendor, typed);
    }
    // Ask for the key now rather than at the first harvest, unless one is stored or in the environment
    // (a server of one's own needs none: its placeholder key counts as one).
    const options = { ...(await adapterOptions(this.secrets, vendor, settings)), baseUrl };
    if (!hasKey(resolveEndpoint(vendor, options))) await vscode.commands.executeCommand('lore.setApiKey', vendor);
    if (!ASKS_FOR_URL.includes(vendor)) return { vendor };
    const model = await vscode.window.showInputBox({
      title: 'Lore: which model?',
      prompt: `The model's name on that server; press Enter for ${spec.defaultModel}`,
      value: (same && settings.model) || spec.defaultModel,
      ignoreFocusOut: true,
    });
    if (model === undefined) return undefined;
    return { vendor, endpoint: { baseUrl, model: modelToKeep(vendor, model) } };
  }

  private setContext(): void {
    void vscode.commands.executeCommand('setContext', DISTILL_CHOSEN_CONTEXT, this.isChosen());
  }
}

/** Registers "Lore: Choose How to Distill…" (no arguments: a link must not pick where conversations go). */
export function registerDistillCommand(choice: DistillChoice): vscode.Disposable {
  return vscode.commands.registerCommand('lore.chooseDistiller', () =>
    runCommand('Choose How to Distill', async () => {
      const provider = await choice.ask();
      if (provider)
        void vscode.window.showInformationMessage(
          `Lore: conversations will be distilled with ${provider === 'vscode-lm' ? "VS Code's language models" : provider === 'rules' ? 'the offline extractor' : provider}.`,
        );
      return provider;
    }),
  );
}

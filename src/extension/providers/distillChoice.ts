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
import { providerChosen, updateProvider, type ProviderSetting } from '../settings';
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
      const provider = pick.provider === 'direct' ? await this.askVendor() : pick.provider;
      if (provider) await this.remember(provider);
      return provider;
    } finally {
      this.asking = false;
    }
  }

  private async askVendor(): Promise<NetworkVendor | undefined> {
    const pick = await vscode.window.showQuickPick(
      NETWORK_VENDORS.map((vendor) => ({
        label: VENDOR_LABELS[vendor],
        description: `default model ${VENDOR_ENDPOINTS[vendor].defaultModel}`,
        vendor,
      })),
      { title: 'Lore: which provider?', ignoreFocusOut: true },
    );
    if (!pick) return undefined;
    // Ask for the key now rather than at the first harvest, unless one is stored or in the environment.
    if (!hasKey(resolveEndpoint(pick.vendor, await adapterOptions(this.secrets, pick.vendor))))
      await vscode.commands.executeCommand('lore.setApiKey', pick.vendor);
    return pick.vendor;
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

/**
 * A Provider over the VS Code Language Model API: the models the user already has (Copilot or
 * any extension that contributes one). The first request from a user action shows VS Code's
 * consent dialog; a refusal surfaces as a clear 'auth' error.
 */
import * as vscode from 'vscode';
import { ProviderError, type ModelReply, type ModelRequest, type Provider } from '../../core/services/providers/provider';
import { isLoreModel } from '../chat/loreModelIds';

/**
 * Picks a chat model: `selector` may be a model id, a family, or empty for the first available.
 * Lore's own models are left out: they are Lore's direct provider or no model at all.
 */
export async function selectModel(selector: string): Promise<vscode.LanguageModelChat | undefined> {
  const all = (await vscode.lm.selectChatModels()).filter((m) => !isLoreModel(m));
  if (!selector) return all[0];
  return all.find((m) => m.id === selector) ?? all.find((m) => m.family === selector) ?? all.find((m) => m.name === selector);
}

function toProviderError(error: unknown): ProviderError {
  if (error instanceof ProviderError) return error;
  if (error instanceof vscode.LanguageModelError) {
    const kind =
      error.code === vscode.LanguageModelError.NoPermissions.name
        ? 'auth'
        : error.code === vscode.LanguageModelError.NotFound.name
          ? 'unavailable'
          : error.code === vscode.LanguageModelError.Blocked.name
            ? 'rate-limit'
            : 'server';
    const hint = kind === 'auth' ? ' (allow Lore to use the model when VS Code asks, or choose another provider in lore.provider)' : '';
    return new ProviderError('vscode-lm', kind, `${error.message}${hint}`);
  }
  if (error instanceof vscode.CancellationError) return new ProviderError('vscode-lm', 'cancelled', 'cancelled');
  return new ProviderError('vscode-lm', 'server', error instanceof Error ? error.message : String(error));
}

export class VscodeLmProvider implements Provider {
  readonly name = 'vscode-lm';
  readonly offline = false;
  readonly label: string;

  /** The chosen model's id (every request goes to it). */
  get defaultModel(): string {
    return this.model.id;
  }

  constructor(private readonly model: vscode.LanguageModelChat) {
    this.label = `VS Code language model ${model.name} (${model.vendor}/${model.family})`;
  }

  async generate(request: ModelRequest): Promise<ModelReply> {
    const source = new vscode.CancellationTokenSource();
    const onAbort = () => source.cancel();
    request.signal?.addEventListener('abort', onAbort);
    const timer = request.timeoutMs ? setTimeout(() => source.cancel(), request.timeoutMs) : undefined;
    try {
      // The LM API has no system role: stable instructions first, then the volatile content.
      const messages = [
        vscode.LanguageModelChatMessage.User(request.instructions),
        vscode.LanguageModelChatMessage.User(request.content + (request.suffix ?? '')),
      ];
      const response = await this.model.sendRequest(
        messages,
        { justification: 'Lore distills your conversations into knowledge files.' },
        source.token,
      );
      let text = '';
      for await (const chunk of response.text) text += chunk;
      if (source.token.isCancellationRequested) throw new vscode.CancellationError();
      return { text, model: this.model.id };
    } catch (error) {
      if (source.token.isCancellationRequested && !request.signal?.aborted)
        throw new ProviderError('vscode-lm', 'timeout', `no reply within ${request.timeoutMs} ms`);
      throw toProviderError(error);
    } finally {
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
      source.dispose();
    }
  }
}

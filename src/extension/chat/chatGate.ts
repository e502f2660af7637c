/**
 * Tier 3 of @lore's topics with the model @lore answers with: the direct provider's adapter (one
 * output token, temperature 0, through core's adapterAsker) or the chat's VS Code language model.
 * The language server asks them back while it compiles the prompt (SearchClient.compileContext);
 * while it is not running, the compiler here uses them as they are.
 */
import * as vscode from 'vscode';
import type { ModelAdapter } from '../../core/services/providers/modelAdapter';
import type { ClientGate } from '../search/searchClient';
// Core's gate helpers, from the topics bundle (kept out of the activation bundle).
import { topicsLibrary as library } from '../topics/loadTopicsLibrary';

/** The gate through a direct provider's adapter. */
export function directGate(adapter: ModelAdapter): ClientGate {
  return { label: adapter.label, ask: (call, signal) => library().adapterAsker(adapter)(call, signal) };
}

/**
 * The gate through a VS Code language model. The LM API has no output-token or temperature option
 * every model honours, so the reply is read only up to its first word and the request is then
 * cancelled (as it is after GATE_TIMEOUT_MS, or when the chat turn is).
 */
export function languageModelGate(model: vscode.LanguageModelChat, token: vscode.CancellationToken): ClientGate {
  return {
    label: `vscode-lm (${model.name})`,
    async ask(call, signal) {
      const source = new vscode.CancellationTokenSource();
      const cancel = () => source.cancel();
      const subscription = token.onCancellationRequested(cancel);
      signal?.addEventListener('abort', cancel, { once: true });
      const timer = setTimeout(cancel, library().GATE_TIMEOUT_MS);
      try {
        const messages = [vscode.LanguageModelChatMessage.User(call.instructions), vscode.LanguageModelChatMessage.User(call.prompt)];
        const response = await model.sendRequest(messages, {}, source.token);
        let text = '';
        for await (const chunk of response.text) {
          text += chunk;
          if (/\w/.test(text)) break;
        }
        if (source.token.isCancellationRequested) throw new Error('the gate call was cancelled');
        return text;
      } finally {
        clearTimeout(timer);
        source.cancel();
        source.dispose();
        subscription.dispose();
        signal?.removeEventListener('abort', cancel);
      }
    },
  };
}

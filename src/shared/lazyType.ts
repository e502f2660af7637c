/** The lazily built LSP message types of the shared protocol (see protocol.ts's module comment). */
import { lazy } from '../core/base/lazy';

const lspProtocol = lazy(() => require('vscode-languageserver-protocol') as typeof import('vscode-languageserver-protocol'));

/** Defines `message.type` as a getter that builds the type object once, when first asked for. */
export function lazyType(message: { readonly method: string }, kind: 'request' | 'notification'): void {
  let value: unknown;
  const create = () => {
    const lsp = lspProtocol();
    return kind === 'request' ? new lsp.RequestType(message.method) : new lsp.NotificationType(message.method);
  };
  Object.defineProperty(message, 'type', { enumerable: true, get: () => (value ??= create()) });
}

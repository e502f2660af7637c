/**
 * The extension's side of a declared request (src/shared/declareMessage.ts): sends it to the
 * language server, the window's one writer and the home of the store's indexes, typed by the
 * declaration. A window whose server is not running cannot write the store: the request fails
 * with a message that says so, and nothing is written.
 */
import type { LanguageClient } from 'vscode-languageclient/node';
import type { RequestDeclaration } from '../shared/declareMessage';

/** What can reach the language server (LoreServerClient, the one client of the window). */
export interface ServerConnection {
  ready(): Promise<LanguageClient | undefined>;
}

export async function sendRequest<P, R>(server: ServerConnection, message: RequestDeclaration<P, R>, params: P): Promise<R> {
  if (message.direction !== 'toServer') throw new Error(`${message.method} is not a request to the server`);
  const client = await server.ready();
  if (!client?.isRunning())
    throw new Error("Lore's language server is not running, and it writes the store (see Output › Lore Language Server)");
  // By method, as the server registers it; the params go as one object either way.
  return client.sendRequest<R>(message.method, params);
}

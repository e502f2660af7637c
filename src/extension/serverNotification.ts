/**
 * Listens to one notification of the Lore language server across restarts: each (re)started
 * client gets the handler, and the previous client's subscription is released with it, so a
 * restart never leaves a handler behind.
 */
import type * as vscode from 'vscode';
import type { NotificationDeclaration } from '../shared/declareMessage';
import { Disposable } from './lifecycle';
import type { LoreServerClient } from './loreServerClient';

class ServerNotification<P> extends Disposable {
  private current: vscode.Disposable | undefined;

  constructor(notes: LoreServerClient, message: NotificationDeclaration<P>, handler: (params: P) => void) {
    super();
    if (message.direction !== 'toClient') throw new Error(`${message.method} is not sent by the server`);
    this._register(
      notes.onDidStart((client) => {
        this.current?.dispose();
        // `type` is read only now: building it loads the LSP library (see src/shared/protocol.ts).
        this.current = client.onNotification(message.type, handler);
      }),
    );
    this._register({ dispose: () => this.current?.dispose() });
  }
}

/**
 * Calls `handler` for every notification of this kind (its declaration) from whichever server
 * runs. The params are not checked here: the server is the bundle shipped beside this one, and a
 * check would load zod on the host with the first store change.
 */
export function onServerNotification<P>(
  notes: LoreServerClient,
  message: NotificationDeclaration<P>,
  handler: (params: P) => void,
): vscode.Disposable {
  return new ServerNotification(notes, message, handler);
}

/**
 * Listens to one notification of the Lore language server across restarts: each (re)started
 * client gets the handler, and the previous client's subscription is released with it, so a
 * restart never leaves a handler behind.
 */
import type * as vscode from 'vscode';
import type { NotificationType } from 'vscode-languageclient/node';
import { Disposable } from './lifecycle';
import type { NotesClient } from './notes/notesClient';

class ServerNotification<P> extends Disposable {
  private current: vscode.Disposable | undefined;

  constructor(notes: NotesClient, message: { readonly type: NotificationType<P> }, handler: (params: P) => void) {
    super();
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

/** Calls `handler` for every notification of this kind (a protocol namespace) from whichever server runs. */
export function onServerNotification<P>(notes: NotesClient, message: { readonly type: NotificationType<P> }, handler: (params: P) => void): vscode.Disposable {
  return new ServerNotification(notes, message, handler);
}

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

  constructor(notes: NotesClient, type: NotificationType<P>, handler: (params: P) => void) {
    super();
    this._register(
      notes.onDidStart((client) => {
        this.current?.dispose();
        this.current = client.onNotification(type, handler);
      }),
    );
    this._register({ dispose: () => this.current?.dispose() });
  }
}

/** Calls `handler` for every `type` notification from whichever server runs. */
export function onServerNotification<P>(notes: NotesClient, type: NotificationType<P>, handler: (params: P) => void): vscode.Disposable {
  return new ServerNotification(notes, type, handler);
}

/**
 * Starts the Lore language server (dist/server.js) for per-file notes: code lenses, hovers,
 * provenance links and diagnostics. Started without awaiting (activation stays cheap),
 * restarted when the store location changes, and never restarted in a loop after a crash.
 */
import * as vscode from 'vscode';
import type { LanguageClient, LanguageClientOptions, ServerOptions } from 'vscode-languageclient/node';
import {
  DidDeleteFilesRequest,
  DidRenameFilesRequest,
  HOVER_ENABLED_COMMANDS,
  NoteFilesRequest,
  NotesForFileRequest,
  SERVER_NODE_FLAGS,
  type FileNotes,
  type LoreInitializationOptions,
} from '../shared/protocol';
import { languageClient } from './loadLanguageClient';
import { logger } from './log';
import { gitCommitOption, readSettings } from './settings';
import { NoStoreError } from './noStore';
import type { StoreService } from './storeService';
import type { ResultOf } from '../shared/declareMessage';

const log = logger('notes');

export class LoreServerClient implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private starting: Promise<void> | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly started = new vscode.EventEmitter<LanguageClient>();
  /** Counts starts and stops, so a start that is overtaken while it loads the library gives up. */
  private attempts = 0;
  /** Fires each time a (re)started client is ready. */
  readonly onDidStart = this.started.event;
  private readonly lensResolved = new vscode.EventEmitter<{ uri: string; title: string }>();
  /**
   * Fires for each code lens VS Code had resolved to show it (the editor asked by itself, or a
   * caller did): lets the API's users see what a person sees, without asking for lenses anew.
   */
  readonly onDidResolveCodeLens = this.lensResolved.event;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly store: StoreService,
  ) {
    this.disposables.push(
      this.started,
      this.lensResolved,
      // A moved store (setting or workspace folders) has a new watcher and paths; a new search backend, a new index.
      this.store.onDidMove(() => void this.restart()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('lore.search') || e.affectsConfiguration('lore.git.commit')) void this.restart();
      }),
      // A file deleted in VS Code: the server moves its notes to facts.md as `path: note` (core's
      // heal of just those paths, under the store lock, facts first, so nothing is lost if it is
      // interrupted); the extension host only forwards the paths.
      vscode.workspace.onDidDeleteFiles((e) => {
        const files = e.files.filter((f) => f.scheme === 'file').map((f) => f.fsPath);
        if (files.length === 0 || !this.store.exists) return;
        void this.ready()
          .then((client) => (client?.isRunning() ? client.sendRequest(DidDeleteFilesRequest.type, { files }) : undefined))
          .then(
            (r) => {
              if (!r?.orphaned) return;
              log.info(`notes of ${r.orphaned} deleted file(s) moved to facts.md`);
              void this.store.regenerateDigest({ automatic: true });
            },
            (error) => log.error('moving notes of deleted files failed', error),
          );
      }),
      vscode.workspace.onDidRenameFiles((e) => {
        const files = e.files
          .filter((f) => f.oldUri.scheme === 'file' && f.newUri.scheme === 'file')
          .map((f) => ({ oldPath: f.oldUri.fsPath, newPath: f.newUri.fsPath }));
        if (files.length && this.client?.isRunning()) {
          this.client.sendRequest(DidRenameFilesRequest.type, { files }).then(
            (r) => log.info(`renames forwarded: ${r.updated} note file(s) updated`),
            (error) => log.error('rename forwarding failed', error),
          );
        }
      }),
    );
  }

  /** Throws NoStoreError in a window without a store (no folder, the global store not chosen): for commands that would write to one. */
  requireStore(): void {
    if (!this.store.available) throw new NoStoreError();
  }

  /** The running client, once started. */
  async ready(): Promise<LanguageClient | undefined> {
    await (this.starting ??= this.start());
    return this.client;
  }

  /** A file's notes as the server resolves them (healing the key if its inode changed). */
  async notesForFile(file: string): Promise<FileNotes | null> {
    const client = await this.ready();
    return client?.isRunning() ? client.sendRequest(NotesForFileRequest.type, { path: file }) : null;
  }

  /** Every note file the server's index knows (path and count, nothing parsed), or null while it is not running. */
  /** The note files and the transcripts' count and size, or null while the server is not running. */
  async noteFiles(): Promise<ResultOf<typeof NoteFilesRequest> | null> {
    const client = await this.ready();
    return client?.isRunning() ? client.sendRequest(NoteFilesRequest.type, {}) : null;
  }

  private async start(): Promise<void> {
    // The client library (dist/languageClient.js, ~430 KB) loads here, after activation, not with the extension.
    const attempt = ++this.attempts;
    // Not within activate(), nor the turn it ran in: the host finishes the activation (its answer,
    // other extensions the same event activates, the views' first requests queued meanwhile)
    // before the library is read and compiled, which costs more than activation itself.
    await new Promise((resolve) => setImmediate(resolve));
    if (attempt !== this.attempts) return; // stopped or restarted meanwhile
    // A window without a store has no server: it starts when the store is chosen (onDidMove).
    if (!this.store.available) return;
    const { CloseAction, ErrorAction, LanguageClient, TransportKind } = languageClient();
    const module = this.context.asAbsolutePath('dist/server.js');
    const serverOptions: ServerOptions = {
      run: { module, transport: TransportKind.ipc, options: { execArgv: [...SERVER_NODE_FLAGS] } },
      debug: { module, transport: TransportKind.ipc, options: { execArgv: [...SERVER_NODE_FLAGS, '--nolazy', '--inspect=6011'] } },
    };
    const paths = this.store.paths;
    let crashes = 0;
    const clientOptions: LanguageClientOptions = {
      documentSelector: [{ scheme: 'file' }],
      initializationOptions: {
        storeRoot: paths.root,
        workspaceRoot: paths.workspace,
        searchBackend: readSettings().searchBackend,
        ...gitCommitOption(readSettings().gitCommit),
        workspaceTrusted: vscode.workspace.isTrusted,
      } satisfies LoreInitializationOptions,
      // The server watches nothing itself: it gets the store's file events from the client.
      synchronize: { fileEvents: this.store.watcher },
      markdown: { isTrusted: { enabledCommands: [...HOVER_ENABLED_COMMANDS] }, supportHtml: false },
      outputChannelName: 'Lore Language Server',
      middleware: {
        resolveCodeLens: async (lens, token, next) => {
          const resolved = await next(lens, token);
          const uri = (lens as { data?: { uri?: unknown } } & vscode.CodeLens).data?.uri;
          if (resolved?.command && typeof uri === 'string') this.lensResolved.fire({ uri, title: resolved.command.title });
          return resolved;
        },
      },
      initializationFailedHandler: (error) => {
        log.error('the Lore language server failed to start; per-file notes are off until reload', error);
        return false;
      },
      errorHandler: {
        error: () => ({ action: ErrorAction.Continue }),
        // Restart after a crash, but not in a loop: a third crash leaves it off (see the log).
        closed: () =>
          ++crashes <= 2
            ? { action: CloseAction.Restart }
            : {
                action: CloseAction.DoNotRestart,
                message: 'The Lore language server crashed repeatedly; per-file notes are off. See the Lore log.',
              },
      },
    };
    const client = new LanguageClient('lore', 'Lore Notes', serverOptions, clientOptions);
    this.client = client;
    try {
      await client.start();
      log.info(`language server started for ${paths.root}`);
      this.started.fire(client);
    } catch (error) {
      log.error('language server start failed', error);
    }
  }

  async restart(): Promise<void> {
    const old = this.client;
    this.client = undefined;
    this.starting = undefined;
    if (old) await old.stop().catch(() => undefined);
    await this.ready();
  }

  /** Stops the language server (for `deactivate`, which VS Code awaits). */
  async stop(): Promise<void> {
    this.attempts++;
    const client = this.client;
    this.client = undefined;
    this.starting = undefined;
    if (client?.needsStop()) await client.stop().catch(() => undefined);
  }

  dispose(): void {
    void this.stop();
    for (const d of this.disposables) d.dispose();
  }
}

/**
 * The knowledge store as the extension sees it: where it is (per the settings), whether it
 * exists, the one file watcher over it, and a change event.
 *
 * The watcher's events go to the language server (the client forwards them with
 * `synchronize.fileEvents`), which batches them once and answers with `lore/storeChanged`
 * (`applyChanges`): the views refresh then, and a hand edit of a category file regenerates the
 * digest, so the Digest view follows what a person writes, in VS Code or with `lore` in a terminal.
 */
import * as path from 'node:path';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { CATEGORY_FILES } from '../core/model/categories';
import { REVIEW_FILE } from '../core/model/reviewFile';
import { editorStoreLocation } from '../core/store/storeLocation';
import { storePaths, type StorePaths } from '../core/store/storePaths';
import type { RequestDeclaration, ParamsOf } from '../shared/declareMessage';
import { RegenerateDigestRequest, type StoreChangedNotification } from '../shared/protocol';
import { Disposable } from './lifecycle';
import { logger } from './log';
import { NoStoreError } from './noStore';
import { sendRequest, type ServerConnection } from './serverRequest';
import { readSettings } from './settings';

const log = logger('store');
// review.md records which held items a person accepted, so it shapes the digest too.
const DIGEST_SOURCES = new Set<string>([...Object.values(CATEGORY_FILES).map((c) => c.file), REVIEW_FILE]);

export class StoreService extends Disposable {
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  /** Fires after anything in the store changed. */
  readonly onDidChange = this.changed.event;
  private readonly moved = this._register(new vscode.EventEmitter<StorePaths | null>());
  /** Fires when the store is somewhere else, or none (a setting or the workspace folders changed). */
  readonly onDidMove = this.moved.event;
  /** null: this window has no store (no folder open, the global store not chosen). */
  private current: StorePaths | null | undefined;
  private fileWatcher: vscode.FileSystemWatcher | undefined;
  private server: ServerConnection | undefined;

  constructor() {
    super();
    this._register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('lore.store') || e.affectsConfiguration('lore.digest')) this.reset();
      }),
    );
    this._register(vscode.workspace.onDidChangeWorkspaceFolders(() => this.reset()));
    this._register({ dispose: () => this.fileWatcher?.dispose() });
    this.reset();
  }

  /**
   * The store's layout (it may not exist yet). Throws NoStoreError in a window without a store
   * (see noStore.ts): a command that needs the store refuses then, and `runCommand` says why.
   */
  get paths(): StorePaths {
    const current = this.current === undefined ? (this.current = this.resolve()) : this.current;
    if (!current) throw new NoStoreError();
    return current;
  }

  /** False in a window without a store: no folder is open and the global store was not chosen. */
  get available(): boolean {
    if (this.current === undefined) this.current = this.resolve();
    return this.current !== null;
  }

  get exists(): boolean {
    return this.available && fs.existsSync(this.paths.root);
  }

  /**
   * The one watcher over the store, for the language client's `synchronize.fileEvents`. It is
   * replaced when the store moves; the client is restarted then and picks up the new one.
   */
  get watcher(): vscode.FileSystemWatcher {
    return (this.fileWatcher ??= createStoreWatcher(this.paths));
  }

  /** The language server, which makes every write to the store this window asks for. */
  connect(server: ServerConnection): void {
    this.server = server;
  }

  /** Sends a write (or any request) to the language server; fails when it is not running. */
  request<P, R>(message: RequestDeclaration<P, R>, params: P): Promise<R> {
    if (!this.server) return Promise.reject(new Error("Lore's language server is not connected"));
    return sendRequest(this.server, message, params);
  }

  /** The workspace store (`<folder>/.lore`), the global one (`~/.lore`) when chosen, or none (null). */
  private resolve(): StorePaths | null {
    const folder = vscode.workspace.workspaceFolders?.[0];
    const location = editorStoreLocation(folder?.uri.fsPath, readSettings(folder?.uri).storeLocation);
    return location ? storePaths(location.root, location.workspace) : null;
  }

  private reset(): void {
    const first = this.current === undefined;
    const before = this.current ? this.current.root : this.current;
    this.current = this.resolve();
    if ((this.current?.root ?? null) !== before) {
      this.fileWatcher?.dispose();
      this.fileWatcher = undefined;
      log.info(this.current ? `store: ${this.current.root}` : 'no store: no folder is open and lore.store.location is not "global"');
      if (!first) this.moved.fire(this.current);
    }
    this.fireChanged();
  }

  /** The language server's batch of file events in the store (see the module comment). */
  applyChanges(params: ParamsOf<typeof StoreChangedNotification>): void {
    if (params.all || params.files.some((f) => DIGEST_SOURCES.has(f))) void this.regenerateDigest({ automatic: true });
    else this.fireChanged();
  }

  /**
   * Regenerates the digest: `automatic` after a category file changed (a deleted digest.md stays
   * deleted: see core's regenerateDigest), otherwise because the user asked.
   */
  async regenerateDigest(options: { automatic?: boolean } = {}): Promise<void> {
    if (!this.exists) return;
    try {
      const result = await this.request(RegenerateDigestRequest, {
        enabled: readSettings().digestEnabled,
        ...(options.automatic ? { automatic: true } : {}),
      });
      if (result.changed) log.info(`digest regenerated (${result.bytes} bytes)`);
    } catch (error) {
      log.error('digest regeneration failed', error);
    }
    this.fireChanged();
  }

  /** Tells the views to refresh (file events arrive already batched by the language server). */
  fireChanged(): void {
    if (!this.isDisposed) this.changed.fire();
  }
}

/**
 * A workspace store is watched through the workspace's own recursive watcher (a pattern under the
 * folder), which also reports the store being created or deleted; a global store is watched from
 * its own folder.
 */
function createStoreWatcher(paths: StorePaths): vscode.FileSystemWatcher {
  const parent = path.dirname(paths.root);
  const inWorkspace = vscode.workspace.workspaceFolders?.some((f) => f.uri.fsPath === parent);
  const name = path.basename(paths.root);
  const pattern = inWorkspace
    ? new vscode.RelativePattern(vscode.Uri.file(parent), `{${name},${name}/**}`)
    : new vscode.RelativePattern(vscode.Uri.file(paths.root), '**');
  return vscode.workspace.createFileSystemWatcher(pattern);
}

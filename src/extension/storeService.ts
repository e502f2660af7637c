/**
 * The knowledge store as the extension sees it: where it is (per the settings), whether it
 * exists, and a change event fed by a file watcher. Hand edits of a category file regenerate
 * the digest (debounced), so the Digest view follows what a person writes.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { CATEGORY_FILES } from '../core/knowledge/categories';
import { REVIEW_FILE } from '../core/knowledge/reviewFile';
import { regenerateDigest } from '../core/store/digest';
import { STORE_DIR_NAME, storePaths, type StorePaths } from '../core/store/storePaths';
import { logger } from './log';
import { readSettings } from './settings';

const log = logger('store');
// review.md records which held items a person accepted, so it shapes the digest too.
const DIGEST_SOURCES = new Set<string>([...Object.values(CATEGORY_FILES).map((c) => c.file), REVIEW_FILE]);

export class StoreService implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires (debounced) after anything in the store changed. */
  readonly onDidChange = this.changed.event;
  private watcher: vscode.FileSystemWatcher | undefined;
  private readonly disposables: vscode.Disposable[] = [this.changed];
  private refreshTimer: NodeJS.Timeout | undefined;
  private digestTimer: NodeJS.Timeout | undefined;
  private current: StorePaths | undefined;

  constructor() {
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('lore.store') || e.affectsConfiguration('lore.digest')) this.reset();
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.reset()),
    );
    this.reset();
  }

  /** The store's layout (it may not exist yet). */
  get paths(): StorePaths {
    return (this.current ??= this.resolve());
  }

  get exists(): boolean {
    return fs.existsSync(this.paths.root);
  }

  /** The workspace store (`<folder>/.lore`) or the global one (`~/.lore`). */
  private resolve(): StorePaths {
    const folder = vscode.workspace.workspaceFolders?.[0];
    const settings = readSettings(folder?.uri);
    if (settings.storeLocation === 'global' || !folder) {
      const root = path.join(os.homedir(), STORE_DIR_NAME);
      return storePaths(root, folder?.uri.fsPath ?? root);
    }
    return storePaths(path.join(folder.uri.fsPath, STORE_DIR_NAME), folder.uri.fsPath);
  }

  private reset(): void {
    this.current = this.resolve();
    this.watcher?.dispose();
    const pattern = new vscode.RelativePattern(vscode.Uri.file(this.current.root), '**/*.{md,json}');
    this.watcher = vscode.workspace.createFileSystemWatcher(pattern);
    const onEvent = (uri: vscode.Uri) => this.onFileEvent(uri);
    this.watcher.onDidChange(onEvent);
    this.watcher.onDidCreate(onEvent);
    this.watcher.onDidDelete(onEvent);
    log.info(`store: ${this.current.root}`);
    this.fireChanged();
  }

  private onFileEvent(uri: vscode.Uri): void {
    const rel = path.relative(this.paths.root, uri.fsPath);
    if (rel.startsWith('.cache') || rel.startsWith('.index')) return;
    if (DIGEST_SOURCES.has(rel)) this.scheduleDigest();
    this.fireChanged();
  }

  /** Regenerates the digest after a category file changed (by hand or by a harvest). */
  private scheduleDigest(): void {
    clearTimeout(this.digestTimer);
    this.digestTimer = setTimeout(() => this.regenerateDigest(), 300);
  }

  regenerateDigest(): void {
    if (!this.exists) return;
    try {
      const result = regenerateDigest(this.paths, { enabled: readSettings().digestEnabled });
      if (result.changed) log.info(`digest regenerated (${result.bytes} bytes)`);
      this.fireChanged();
    } catch (error) {
      log.error('digest regeneration failed', error);
    }
  }

  /** Tells the views to refresh (debounced, so a burst of writes is one refresh). */
  fireChanged(): void {
    clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => this.changed.fire(), 100);
  }

  dispose(): void {
    clearTimeout(this.refreshTimer);
    clearTimeout(this.digestTimer);
    this.watcher?.dispose();
    for (const d of this.disposables) d.dispose();
  }
}

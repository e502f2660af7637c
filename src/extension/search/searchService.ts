/**
 * One search index per store for the extension's lifetime, reopened when the store moves.
 * When better-sqlite3 cannot load (an Electron ABI it has no prebuild for) or the setting
 * forces it, the index runs on minisearch; the log and a status-bar item say so.
 */
import * as vscode from 'vscode';
import { SearchIndex } from '../../core/search/searchIndex';
import { logger } from '../log';
import type { StoreService } from '../storeService';

const log = logger('search');

export class SearchService implements vscode.Disposable {
  private index: SearchIndex | undefined;
  private readonly status = vscode.window.createStatusBarItem('lore.searchBackend', vscode.StatusBarAlignment.Right, 99);
  private readonly disposables: vscode.Disposable[] = [this.status];

  constructor(private readonly store: StoreService) {
    this.status.name = 'Lore Search Backend';
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('lore.store') || e.affectsConfiguration('lore.search')) this.close();
      }),
    );
  }

  /** The open index (opened on first use, never throws). */
  get(): SearchIndex {
    if (!this.index) {
      const backend = vscode.workspace.getConfiguration('lore').get<'auto' | 'sqlite' | 'minisearch'>('search.backend', 'auto');
      this.index = SearchIndex.open(this.store.paths, { backend, refreshAfterMs: 2000, log: (m) => log.info(m) });
      log.info(`search backend: ${this.index.backend} (${this.index.backendReason})`);
      this.showBackend();
    }
    return this.index;
  }

  /** Shown only when search runs on the fallback, so the user knows why it may be slower. */
  private showBackend(): void {
    if (this.index?.backend === 'minisearch') {
      this.status.text = '$(search) Lore: in-memory search';
      this.status.tooltip = `Lore search uses the in-memory minisearch index: ${this.index.backendReason}`;
      this.status.command = 'lore.showLog';
      this.status.show();
    } else {
      this.status.hide();
    }
  }

  private close(): void {
    this.index?.close();
    this.index = undefined;
    this.status.hide();
  }

  dispose(): void {
    this.close();
    for (const d of this.disposables) d.dispose();
  }
}

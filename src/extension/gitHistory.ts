/**
 * The store's git history in the extension host: `lore.git.commit` decides over the store's
 * config.json for the writes made here (harvest apply, undo, review, lore_remember), and a
 * timer commits what interval mode (or a commit git deferred during a rebase) holds back once it
 * is due. The commits themselves are core's (history/storeHistory.ts), made with async git
 * processes: nothing here blocks the extension host.
 */
import * as vscode from 'vscode';
import { flushStoreHistory, setGitCommitOverride } from '../core/store/history/storeHistory';
import { Disposable, toDisposable } from './lifecycle';
import { logger } from './log';
import { gitCommitOption, readSettings } from './settings';
import type { StoreService } from './storeService';

/** How often the timer looks whether pending changes are due (the interval itself is in minutes). */
const CHECK_EVERY_MS = 60_000;

const log = logger('git');

export class GitHistory extends Disposable {
  private running = false;

  constructor(private readonly store: StoreService) {
    super();
    this.applySetting();
    this._register(vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('lore.git.commit') && this.applySetting()));
    const timer = setInterval(() => void this.flushIfDue(), CHECK_EVERY_MS);
    this._register(toDisposable(() => clearInterval(timer)));
  }

  private applySetting(): void {
    setGitCommitOverride(gitCommitOption(readSettings().gitCommit).gitCommit);
  }

  private async flushIfDue(): Promise<void> {
    if (this.running || !this.store.exists) return;
    this.running = true;
    try {
      const outcome = await flushStoreHistory(this.store.paths, { lockTimeoutMs: 5_000 });
      for (const commit of outcome?.commits ?? []) log.info(`committed ${commit.commit.slice(0, 12)} ${commit.subject}`);
      if (outcome?.warning) log.warn(outcome.warning);
    } finally {
      this.running = false;
    }
  }
}

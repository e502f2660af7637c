/**
 * The store's git history as VS Code sets it: `lore.git.commit` decides over the store's
 * config.json for the writes the language server makes (it writes every change this window asks
 * for, and commits what interval mode holds back once it is due: src/server/historyFlush.ts). A
 * change of the setting reaches the running server at once; a (re)started one gets it with its
 * initialization options.
 */
import * as vscode from 'vscode';
import { GitCommitSettingRequest } from '../shared/protocol';
import { Disposable } from './lifecycle';
import { logger } from './log';
import { gitCommitOption, readSettings } from './settings';
import type { StoreService } from './storeService';

const log = logger('git');

export class GitHistory extends Disposable {
  constructor(private readonly store: StoreService) {
    super();
    this._register(vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('lore.git.commit') && this.applySetting()));
  }

  private applySetting(): void {
    this.store
      .request(GitCommitSettingRequest, gitCommitOption(readSettings().gitCommit))
      .catch((error: unknown) =>
        log.warn(`lore.git.commit not passed to the language server: ${error instanceof Error ? error.message : String(error)}`),
      );
  }
}

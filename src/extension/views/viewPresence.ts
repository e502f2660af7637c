/**
 * Which of Lore's views show: each one once it has something to show (harvest history, held
 * items, files in the inbox, topics, agents' task records, prompt caches, knowledge), so a
 * newcomer's Lore container holds one view with one next step (the Digest view's welcome:
 * "Harvest Conversations…") and the others appear as they fill. package.json's `views` read the
 * keys set here; the setting `lore.views.showAll` shows every view whatever they say.
 */
import * as vscode from 'vscode';
import type { ContextKeys } from '../contextKeys';
import { SHOW_ALL_VIEWS_SETTING, VIEW_KEYS, type ViewKey } from './viewKeys';
import { Disposable } from '../lifecycle';
import { logger } from '../log';

const log = logger('views');

/** Whether a view has something to show now (read from the store, or asked of the language server). */
export type HasContent = () => boolean | Promise<boolean>;

export class ViewPresence extends Disposable {
  private running: Promise<void> | undefined;
  private again = false;
  private readonly updated = this._register(new vscode.EventEmitter<void>());
  /** Fires after the keys were set again. */
  readonly onDidUpdate = this.updated.event;

  /** `changes`: the events after which a view may have filled or emptied (the store's, the caches'). */
  constructor(
    private readonly keys: ContextKeys,
    private readonly checks: Record<ViewKey, HasContent>,
    changes: ReadonlyArray<vscode.Event<unknown>>,
  ) {
    super();
    for (const change of changes) this._register(change(() => void this.update()));
  }

  /**
   * Sets every key from its check. Calls during a run are folded into one more run after it, so a
   * burst of store changes costs two passes, and the last pass sees the last change.
   */
  update(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await Promise.all(VIEW_KEYS.map((key) => this.check(key)));
      } while (this.again && !this.isDisposed);
      if (!this.isDisposed) this.updated.fire();
    })().finally(() => (this.running = undefined));
    return this.running;
  }

  private async check(key: ViewKey): Promise<void> {
    try {
      const has = await this.checks[key]();
      if (!this.isDisposed) this.keys.set(key, has);
    } catch (error) {
      // The view keeps its last state; a view that cannot be read says why when it is shown.
      log.warn(`${key}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/**
 * "Show All Lore Views" and "Show Only Lore Views in Use": the setting `lore.views.showAll`, which
 * every view's `when` clause reads (as `config.lore.views.showAll`), in the user settings.
 */
export function registerViewCommands(): vscode.Disposable[] {
  const showAll = (value: boolean) => () =>
    vscode.workspace.getConfiguration('lore').update(SHOW_ALL_VIEWS_SETTING, value || undefined, vscode.ConfigurationTarget.Global);
  return [
    vscode.commands.registerCommand('lore.showAllViews', showAll(true)),
    vscode.commands.registerCommand('lore.showViewsInUse', showAll(false)),
  ];
}

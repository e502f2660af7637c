/**
 * Per-discussion prompt-cache states, persisted in the workspace state so they survive a
 * reload. Expired entries stay (shown as expired); only an explicit clear removes them.
 */
import * as vscode from 'vscode';
import { parseCacheStates } from '../../core/services/promptCache/cacheStateJson';
import type { DiscussionCacheState } from '../../core/services/promptCache/cacheState';
import { Disposable } from '../lifecycle';

const KEY = 'lore.cacheStates';

export class CacheStates extends Disposable {
  private readonly emitter = this._register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.emitter.event;
  /** The discussion the status bar follows (the last one that called a model). */
  activeId: string | undefined;

  constructor(private readonly memento: vscode.Memento) {
    super();
  }

  all(): DiscussionCacheState[] {
    return parseCacheStates(this.memento.get(KEY));
  }

  get(id: string): DiscussionCacheState | undefined {
    return this.all().find((s) => s.discussionId === id);
  }

  async put(state: DiscussionCacheState, makeActive = true): Promise<void> {
    const others = this.all().filter((s) => s.discussionId !== state.discussionId);
    await this.memento.update(KEY, [...others, state]);
    if (makeActive) this.activeId = state.discussionId;
    this.emitter.fire();
  }

  async clear(): Promise<void> {
    await this.memento.update(KEY, []);
    this.activeId = undefined;
    this.emitter.fire();
  }
}

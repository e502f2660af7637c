/**
 * The prompt caches of the workspace's agent sessions (Claude Code, Codex, Copilot Chat) as the
 * language server reads them from their session files (`lore/cacheSessions`). Live without
 * polling: the folders of those sessions are watched, and a change of a session file asks the
 * server again (it reads only what was appended). Between changes the countdowns are computed
 * here from the expiry times (atMoment), so nothing is read while the clock ticks.
 */
import * as vscode from 'vscode';
import type { CacheReport } from '../../core/services/promptCache/cacheReport';
import { atMoment, type SessionCacheState } from '../../core/services/promptCache/sessionCacheState';
import { CacheSessionsRequest } from '../../shared/protocol';
import { Disposable, toDisposable } from '../lifecycle';
import { logger } from '../log';
import type { LoreServerClient } from '../loreServerClient';

const log = logger('cache');
/** Agents write several records per turn: one refresh for a burst. */
const DEBOUNCE_MS = 300;

export class AgentCaches extends Disposable {
  private readonly emitter = this._register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.emitter.event;
  private current: CacheReport | undefined;
  private readonly watchers = new Map<string, vscode.Disposable>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<CacheReport | undefined> | undefined;

  constructor(private readonly notes: LoreServerClient) {
    super();
    this._register(
      toDisposable(() => {
        if (this.timer) clearTimeout(this.timer);
        for (const watcher of this.watchers.values()) watcher.dispose();
        this.watchers.clear();
      }),
    );
  }

  /** The last report, undefined before the first answer (or without a language server). */
  get report(): CacheReport | undefined {
    return this.current;
  }

  /** The sessions described at `now`, the most recently active first. */
  sessions(now = Date.now()): SessionCacheState[] {
    return (this.current?.sessions ?? []).map((session) => atMoment(session, now));
  }

  /** Asks the server again now; concurrent callers share one request. */
  refresh(): Promise<CacheReport | undefined> {
    this.running ??= this.request().finally(() => (this.running = undefined));
    return this.running;
  }

  /** A refresh after a burst of file events. */
  private scheduleRefresh(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.refresh();
    }, DEBOUNCE_MS);
  }

  private async request(): Promise<CacheReport | undefined> {
    try {
      const client = await this.notes.ready();
      if (!client?.isRunning() || this.isDisposed) return this.current;
      this.current = await client.sendRequest(CacheSessionsRequest.type, {});
      this.watch(this.current.folders);
      this.emitter.fire();
    } catch (error) {
      log.warn(`agent session caches: ${(error as Error).message}`);
    }
    return this.current;
  }

  /** Watches each session folder (not recursive: the session files themselves). */
  private watch(folders: readonly string[]): void {
    const wanted = new Set(folders);
    for (const [folder, watcher] of this.watchers) {
      if (!wanted.has(folder)) {
        watcher.dispose();
        this.watchers.delete(folder);
      }
    }
    for (const folder of wanted) {
      if (this.watchers.has(folder)) continue;
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(folder), '*.{jsonl,json}'));
      const changed = () => this.scheduleRefresh();
      const subscriptions = [watcher, watcher.onDidChange(changed), watcher.onDidCreate(changed), watcher.onDidDelete(changed)];
      this.watchers.set(
        folder,
        toDisposable(() => subscriptions.forEach((s) => s.dispose())),
      );
    }
  }
}

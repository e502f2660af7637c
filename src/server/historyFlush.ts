/**
 * Commits what the store's git history holds back (interval mode, or a commit git deferred during
 * a rebase) once it is due, from the language server: the window's one writer. The commits are
 * core's (history/storeHistory.ts), made with async git processes.
 */
import * as fs from 'node:fs';
import { flushStoreHistory } from '../core/store/history/storeHistory';
import type { StorePaths } from '../core/store/storePaths';

/** How often the timer looks whether pending changes are due (the interval itself is in minutes). */
const CHECK_EVERY_MS = 60_000;

export class HistoryFlush {
  private running = false;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly paths: StorePaths,
    private readonly log: (message: string) => void,
  ) {
    this.timer = setInterval(() => void this.flushIfDue(), CHECK_EVERY_MS);
    this.timer.unref();
  }

  private async flushIfDue(): Promise<void> {
    if (this.running || !fs.existsSync(this.paths.root)) return;
    this.running = true;
    try {
      const outcome = await flushStoreHistory(this.paths, { lockTimeoutMs: 5_000 });
      for (const commit of outcome?.commits ?? []) this.log(`git: committed ${commit.commit.slice(0, 12)} ${commit.subject}`);
      if (outcome?.warning) this.log(`git: ${outcome.warning}`);
    } catch (error) {
      this.log(`git: ${(error as Error).message}`);
    } finally {
      this.running = false;
    }
  }

  dispose(): void {
    clearInterval(this.timer);
  }
}

/**
 * The language server's part in a team's store shared through git (design.md): when VS Code opens
 * a trusted workspace whose store is in a git repository, Lore's merge driver is registered in the
 * clone's own git config (store/merge/mergeDriver.ts: nothing in the work tree changes), and after
 * a merge the driver took part in, the store is reconciled (store/merge/reconcileMerge.ts): a
 * teammate's forget applied, duplicates folded, the digest regenerated. The writes that follow
 * reach the views as any store change does, through the client's file watcher.
 */
import * as path from 'node:path';
import { nodeRunner } from '../core/base/nodeRunner';
import { mergeDriverCommand, mergePending, registerMergeDriver } from '../core/store/merge/mergeDriver';
import { reconcileIfMerged } from '../core/store/merge/reconcileMerge';
import type { StorePaths } from '../core/store/storePaths';
import * as fs from 'node:fs';

/** While git is still finishing the merge (MERGE_HEAD), the reconcile is tried again after this long. */
const RETRY_MS = 2_000;
const MAX_RETRIES = 30;

/** Lore's CLI beside this bundle (dist/server.js → dist/cli.js); compiled without bundling, the checkout's dist/cli.js. */
function cliScript(): string {
  return path.basename(__filename) === 'server.js' && path.basename(__dirname) === 'dist'
    ? path.join(__dirname, 'cli.js')
    : path.resolve(__dirname, '..', '..', '..', 'dist', 'cli.js');
}

export class TeamMerge {
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private disposed = false;

  constructor(
    private readonly paths: StorePaths,
    private readonly log: (message: string) => void,
  ) {}

  /** Registers the merge driver for the store's clone, when the store exists (a trusted workspace only). */
  async register(): Promise<void> {
    if (!fs.existsSync(this.paths.root)) return;
    try {
      const node = nodeRunner();
      const done = await registerMergeDriver(this.paths, mergeDriverCommand(node.command, cliScript(), node.env));
      if (done?.changed.length) this.log(`registered Lore's merge driver in ${done.repo.top}'s git config`);
    } catch (error) {
      this.log(`merge driver not registered: ${(error as Error).message}`);
    }
  }

  /** After store files changed (or at start): reconciles when a merge left its mark. */
  check(attempt = 0): void {
    if (this.disposed || this.running || !mergePending(this.paths)) return;
    this.running = true;
    reconcileIfMerged(this.paths)
      .then((result) => {
        if (result)
          this.log(`reconciled after a merge: ${result.files.length} files, digest ${result.derived.digest ? 'regenerated' : 'unchanged'}`);
        else if (attempt < MAX_RETRIES && !this.timer) {
          this.timer = setTimeout(() => {
            this.timer = undefined;
            this.check(attempt + 1);
          }, RETRY_MS);
        }
      })
      .catch((error: unknown) => this.log(`reconcile after a merge failed: ${(error as Error).message}`))
      .finally(() => {
        this.running = false;
      });
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
  }
}

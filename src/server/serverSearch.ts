/**
 * The store's search index, held by the language server so that SQLite (better-sqlite3 or
 * node:sqlite) and every index update run off the extension host. Opened on the first
 * query; kept fresh by the store's file events (a targeted update of the files that changed)
 * rather than a stat of every source before each query, with a slow full refresh as a safety
 * net for events that never came (inotify overflow, network file systems).
 */
import * as fs from 'node:fs';
import { recordUses } from '../core/store/lifecycle/usageLog';
import { recall, type RecallResult } from '../core/services/search/recall';
import { SearchIndex } from '../core/services/search/searchIndex';
import type { SearchBackendName, SearchResponse } from '../core/services/search/searchTypes';
import type { StorePaths } from '../core/store/storePaths';
import type { RecallRequest, SearchRequest } from '../shared/protocol';
import type { ParamsOf } from '../shared/declareMessage';

/** Without an event for this long, a query re-checks every source first. */
const SAFETY_REFRESH_MS = 60_000;
const MAX_QUERY_LIMIT = 200;
const MAX_RECALL_FILES = 50;
const MIN_BUDGET = 100;
const MAX_BUDGET = 8000;

export interface ServerSearchHooks {
  /** The index opened (or fell back): tell the client which engine answers. */
  backendChanged(backend: SearchBackendName, reason: string): void;
  log(message: string): void;
}

export class ServerSearch {
  private index: SearchIndex | undefined;
  private announced: string | undefined;

  constructor(
    private readonly paths: StorePaths,
    private readonly backend: 'auto' | 'memory',
    private readonly hooks: ServerSearchHooks,
  ) {}

  private open(): SearchIndex {
    if (!this.index) {
      this.index = SearchIndex.open(this.paths, { backend: this.backend, refreshAfterMs: SAFETY_REFRESH_MS, log: this.hooks.log });
      this.hooks.log(`search backend: ${this.index.backend} (${this.index.backendReason})`);
    }
    return this.index;
  }

  /** Tells the client the engine, once per engine (a locked or broken database can switch it). */
  private announce(index: SearchIndex): void {
    const key = `${index.backend}\u0000${index.backendReason}`;
    if (key === this.announced) return;
    this.announced = key;
    this.hooks.backendChanged(index.backend, index.backendReason);
  }

  async search(params: ParamsOf<typeof SearchRequest>): Promise<SearchResponse> {
    const index = this.open();
    const limit = Math.min(MAX_QUERY_LIMIT, Math.max(1, Number(params.limit) || 20));
    const response = await index.search(typeof params.query === 'string' ? params.query : '', { limit, categories: params.categories });
    this.announce(index);
    return response;
  }

  async recall(params: ParamsOf<typeof RecallRequest>): Promise<RecallResult> {
    const index = this.open();
    // The params were checked against their schema (requestParams.ts); only the sizes are bounded here.
    const files = (params.files ?? []).slice(0, MAX_RECALL_FILES);
    const tokenBudget = Math.min(Math.max(params.tokenBudget ?? 1000, MIN_BUDGET), MAX_BUDGET);
    const result = await recall(this.paths, { query: params.query, files, tokenBudget, categories: params.categories, index });
    this.announce(index);
    // What @lore and the recall tool hand a model counts as used (lifecycle/decay.ts); search-as-you-type does not.
    recordUses(
      this.paths,
      result.items.map((item) => item.id),
      'recall',
    );
    return result;
  }

  /**
   * Files in the store changed (absolute paths), or 'all' of them may have. Nothing happens
   * before the first query: the index catches up in full when it opens.
   */
  async changed(files: string[] | 'all'): Promise<void> {
    if (!this.index) return;
    try {
      await this.index.update(files === 'all' ? {} : { only: files });
    } catch (error) {
      this.hooks.log(`search index update failed: ${(error as Error).message}`);
    }
  }

  /**
   * After `lore forget` (the Ledger view's Forget This Conversation…): the index brought up to
   * date and purged of what left it (SearchIndex.purge). Opens the index only when the store has one.
   */
  async purge(): Promise<void> {
    if (!this.index && !fs.existsSync(this.paths.index)) return;
    await this.open().purge();
  }

  dispose(): void {
    this.index?.close();
    this.index = undefined;
  }
}

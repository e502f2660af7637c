/**
 * The store a running `lore mcp` serves and its open search index. The store is found on first
 * use rather than at start-up, because the client's roots can only be asked for once the client
 * has initialized; it is looked for again when the roots change, and on every call while none
 * is found (so `lore init` run beside a live server is picked up without a restart).
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { RootsListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { SearchIndex, type SearchIndexOptions } from '../core/services/search/searchIndex';
import { watchStore, type StoreWatcher } from '../core/services/search/storeWatcher';
import { loadStoreConfig, takeConfigNotices } from '../core/store/storeConfig';
import type { StorePaths } from '../core/store/storePaths';
import { ChangeFeed, changeOf } from './storeChanges';
import { locateStore, namesStore, type StoreLookup, type StoreRequest } from './storeDiscovery';

/** Without file events, the index is re-scanned for changes at most this often. */
const MCP_REFRESH_AFTER_MS = 2000;
/** With file events, a full re-scan still runs this often, for events that were lost. */
const MCP_SAFETY_REFRESH_MS = 60_000;
/** How long the client may take to list its roots before the working folder is used. */
const ROOTS_TIMEOUT_MS = 5000;

export interface StoreSessionOptions {
  indexOptions?: SearchIndexOptions;
  log?: (message: string) => void;
  /**
   * How long search and recall wait for the index to be built or refreshed before they answer
   * from the part indexed so far, saying so (default MCP_INDEX_WAIT_MS).
   */
  indexWaitMs?: number;
}

/** A first build of a large store takes tens of seconds: an agent gets an answer after this long. */
export const MCP_INDEX_WAIT_MS = 1000;

export class StoreSession {
  private found: Extract<StoreLookup, { found: true }> | undefined;
  private roots: Promise<string[]> | undefined;
  private index: SearchIndex | undefined;
  private watcher: StoreWatcher | undefined;
  /** What changed in the store, for the clients that listen (storeChanges.ts). */
  readonly changes = new ChangeFeed();

  constructor(
    private readonly request: StoreRequest,
    private readonly server: Server,
    private readonly options: StoreSessionOptions = {},
  ) {
    server.setNotificationHandler(RootsListChangedNotificationSchema, () => {
      this.roots = undefined;
      if (!namesStore(request)) this.reset();
    });
  }

  /** The server's diagnostics (stderr). */
  get log(): ((message: string) => void) | undefined {
    return this.options.log;
  }

  /** The store (found, or the message saying it was not). */
  async lookup(): Promise<StoreLookup> {
    if (this.found) return this.found;
    const roots = namesStore(this.request) ? [] : await (this.roots ??= this.clientRoots());
    const lookup = locateStore(this.request, roots);
    if (lookup.found) {
      this.found = lookup;
      this.options.log?.(`lore mcp: serving ${lookup.paths.root} (found by ${lookup.how})`);
      // Said once, at start: a committed config.json's values that Lore leaves alone (storeTrust.ts).
      loadStoreConfig(lookup.paths.config);
      for (const notice of takeConfigNotices()) this.options.log?.(`lore mcp: ${notice}`);
    }
    return lookup;
  }

  /**
   * The search index of the store, opened on first use. The stat of every source before each
   * query costs tens of ms on a large store: file events update the index instead, with a slow
   * full refresh as a safety net; without events, an agent can live with two seconds of
   * staleness. The server's own writes reindex at once (reindex).
   */
  openIndex(paths: StorePaths): SearchIndex {
    if (this.index && this.index.paths.root === paths.root) return this.index;
    this.closeIndex();
    this.watcher = watchStore(
      paths,
      (files) => void this.reindex(files),
      (error) => {
        this.options.log?.(
          `lore mcp: watching the store failed (${error.message}); re-checking it every ${MCP_REFRESH_AFTER_MS / 1000} s instead`,
        );
        this.watcher?.close();
        this.index?.refreshAfter(MCP_REFRESH_AFTER_MS);
      },
      { transcripts: this.options.indexOptions?.transcripts },
    );
    const refreshAfterMs = this.watcher ? MCP_SAFETY_REFRESH_MS : MCP_REFRESH_AFTER_MS;
    const updateWaitMs = this.options.indexWaitMs ?? MCP_INDEX_WAIT_MS;
    return (this.index = SearchIndex.open(paths, { refreshAfterMs, updateWaitMs, ...this.options.indexOptions, log: this.options.log }));
  }

  /** Brings the open index up to date for files the server just wrote or the watcher saw change. */
  async reindex(files: string[]): Promise<void> {
    await this.index?.update({ only: files }).catch(() => undefined);
    if (this.found) this.changes.emit(changeOf(this.found.paths, files));
  }

  /** Watches the store (through the search index's watcher) so that its changes are reported. */
  async follow(): Promise<void> {
    const lookup = await this.lookup();
    if (lookup.found) this.openIndex(lookup.paths);
  }

  close(): void {
    this.closeIndex();
  }

  private reset(): void {
    this.found = undefined;
    this.closeIndex();
  }

  private closeIndex(): void {
    this.watcher?.close();
    this.watcher = undefined;
    this.index?.close();
    this.index = undefined;
  }

  /** The client's `file://` roots, when it declares the capability; none when it cannot say. */
  private async clientRoots(): Promise<string[]> {
    if (!this.server.getClientCapabilities()?.roots) return [];
    try {
      const { roots } = await this.server.listRoots(undefined, { timeout: ROOTS_TIMEOUT_MS });
      return roots.map((root) => root.uri);
    } catch (error) {
      this.options.log?.(`lore mcp: the client did not list its roots (${(error as Error).message}); looking from the working folder`);
      return [];
    }
  }
}

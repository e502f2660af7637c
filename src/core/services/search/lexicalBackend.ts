/**
 * The contract of the lexical engine (SQLite FTS5, its index in a file or in memory), so the
 * incremental update, the hybrid merge and the callers do not care where the index lives; and
 * the empty engine that stands in when no SQLite driver loads.
 */
import type { ParsedQuery } from './queryParser';
import type { LexicalHit, SearchBackendName, SearchCategory, SearchDoc, SearchFilter, StoredDoc } from './searchTypes';

/** What the index remembers of a source file to decide whether to read it again. */
export interface SourceState {
  rel: string;
  mtimeMs: number;
  size: number;
  /** Content hash of the whole file. */
  hash: string;
  /** Documents extracted from it (kept so counting them needs no query). */
  docs?: number;
}

/** How one step asks the engine: every item (`and`) or any (`or`), ranking at most `rankCap` matches. */
export interface LexicalStep {
  mode: 'and' | 'or';
  rankCap: number;
  /**
   * Over `rankCap` matches, list the most recent unranked: a prefix of a word being typed can
   * match much of the store, and ranking it costs a pass over all its matches.
   */
  unrankedWhenBroad?: boolean;
}

/** A query's hits, and whether there were too many matches to rank them all. */
export interface LexicalResult {
  hits: LexicalHit[];
  capped: boolean;
  /** True when the hits are the most recent matches, in that order, not ranked. */
  unranked?: boolean;
}

/** The fields the vector layer needs of every document. */
export interface DocRef {
  id: number;
  hash: string;
  category: SearchCategory;
  date?: string;
}

/** A lexical engine holding the documents of a store. */
export interface LexicalBackend {
  readonly name: SearchBackendName;
  /** Where the index lives, for messages (a file, or "memory"). */
  readonly location: string;
  /** The state of every indexed source file, by store-relative path (do not modify). */
  sourceStates(): ReadonlyMap<string, SourceState>;
  /** Runs `fn` atomically (one write transaction in SQLite). */
  transaction<T>(fn: () => T): T;
  /**
   * While held, maintenance that a large transaction would trigger (SQLite merges all its FTS
   * segments into one) waits: a build in many small transactions would otherwise merge the whole
   * growing index again and again. FTS5's own bounded merging goes on meanwhile. After
   * releasing, `maintain` does what is due, a step at a time.
   */
  holdMaintenance?(hold: boolean): void;
  /** One bounded step of due maintenance; true while more remains. */
  maintain?(): boolean;
  /**
   * For the first build of an empty index by a process that answers nothing meanwhile (the CLI):
   * documents are written without their full-text entries, which one pass over them makes at the
   * end (finishDeferredFullText). Called in a transaction; false (nothing deferred) when the index
   * has documents. A build killed before the end leaves a mark, and the next write transaction of
   * any process makes the entries before anything else.
   */
  deferFullText?(): boolean;
  /** Makes the full-text entries a deferred build left out; called in a transaction. */
  finishDeferredFullText?(): void;
  /**
   * Makes removed documents unrecoverable from the index's files (after `lore forget`): SQLite
   * merges FTS5's segments, which still list a removed text's words, rewrites the file without
   * its free pages (VACUUM) and truncates its write-ahead log. Seconds on a large index; run
   * only when something was forgotten.
   */
  purge?(): void;
  /** Replaces the documents of one source file and records its state. */
  replaceSource(state: SourceState, docs: SearchDoc[]): void;
  /**
   * Adds documents to those of one source file (after the ones it has) and records its state,
   * with `docs` counting all of them: a large file is written over several transactions.
   */
  appendDocs(state: SourceState, docs: SearchDoc[]): void;
  /** Records a new mtime/size for a source whose content did not change. */
  setSourceState(state: SourceState): void;
  removeSource(rel: string): void;
  /** A value kept with the index about the index as a whole (sourceStamps.ts). */
  meta?(key: string): string | undefined;
  /** Records (or, with undefined, removes) such a value. */
  setMeta?(key: string, value: string | undefined): void;
  /**
   * Ranked matches, best first. An engine may rank only the `rankCap` most recently indexed
   * matches of a broad query (and says so). Snippets are cut by the caller, for the hits it keeps.
   */
  query(query: ParsedQuery, step: LexicalStep, filter: SearchFilter, limit: number): LexicalResult;
  docRefs(): DocRef[];
  getDocs(ids: number[]): StoredDoc[];
  count(): number;
  close(): void;
}

/** True when a document passes the filter (used where the engine cannot filter itself). */
export function passesFilter(doc: { category: SearchCategory; date?: string }, filter: SearchFilter): boolean {
  if (filter.categories && filter.categories.length > 0 && !filter.categories.includes(doc.category)) return false;
  if (filter.since && (!doc.date || doc.date < filter.since)) return false;
  if (filter.until && (!doc.date || doc.date > filter.until)) return false;
  return true;
}

/**
 * No index: neither better-sqlite3 nor node:sqlite loads. Every query answers nothing and the
 * engine's reason (SearchResponse.backendReason, a warning on each answer) says why.
 */
export class NoIndexBackend implements LexicalBackend {
  readonly name = 'none' as const;
  readonly location = 'nowhere';
  private readonly states = new Map<string, SourceState>();
  sourceStates(): ReadonlyMap<string, SourceState> {
    return this.states;
  }
  transaction<T>(fn: () => T): T {
    return fn();
  }
  // States are kept (without documents) so that later updates find nothing to read again.
  replaceSource(state: SourceState): void {
    this.states.set(state.rel, { ...state, docs: 0 });
  }
  appendDocs(state: SourceState): void {
    this.replaceSource(state);
  }
  setSourceState(state: SourceState): void {
    this.replaceSource(state);
  }
  removeSource(rel: string): void {
    this.states.delete(rel);
  }
  query(): LexicalResult {
    return { hits: [], capped: false };
  }
  docRefs(): DocRef[] {
    return [];
  }
  getDocs(): StoredDoc[] {
    return [];
  }
  count(): number {
    return 0;
  }
  close(): void {}
}

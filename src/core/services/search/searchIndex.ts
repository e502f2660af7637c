/**
 * The search API the CLI, the MCP server and the VS Code extension call. A SearchIndex keeps an
 * engine open (SQLite FTS5, its index in a file or in memory), refreshes it incrementally before queries,
 * embeds new texts when an embedding provider is configured, and answers with hits plus which
 * backend and mode answered and why. Nothing a user types and no damaged or locked index makes
 * it throw.
 */
import * as path from 'node:path';
import { isCurrent } from '../../model/supersession';
import type { StorePaths } from '../../store/storePaths';
import type { Embedder } from './embeddings';
import { DEFAULT_WEIGHTS, addVectorCandidates, rank, toHit, type HybridWeights } from './hybrid';
import type { SyncOptions, SyncProgress } from './indexSync';
import type { LexicalStep } from './lexicalBackend';
import { tieredLexical } from './lexicalTiers';
import { fallbackEngine, openEngine, reopenAfterCorruption, type Engine, type EngineOptions } from './openEngine';
import { isEmptyQuery, parseQuery, type ParsedQuery } from './queryParser';
import {
  DEFAULT_MARKERS,
  type HighlightMarkers,
  type LexicalHit,
  type SearchFilter,
  type SearchResponse,
  type UpdateReport,
} from './searchTypes';
import { isCorruption, isLocked, sqliteCode } from '../../base/sqliteDriver';
import { makeSnippet, termMatcher } from './textTerms';
import type { VectorSearch } from './vectorSearch';
import { forgetStamps, recordStamps, sourcesUnchanged } from './sourceStamps';
import { lazy } from '../../base/lazy';

// What only a changed store or an embedding provider needs: reading and extracting files (the
// importers, the secret and instruction rules) and vectors. A one-shot search on a current index
// loads none of it (about a third of what `lore search` loads).
const indexSync = lazy(() => require('./indexSync') as typeof import('./indexSync'));
const extractThreads = lazy(() => require('./extractThreads') as typeof import('./extractThreads'));
const embeddings = lazy(() => require('./embeddings') as typeof import('./embeddings'));
const vectorSearch = lazy(() => require('./vectorSearch') as typeof import('./vectorSearch'));

export interface SearchIndexOptions extends EngineOptions {
  /** An embedder for hybrid search; undefined: from LORE_EMBED_PROVIDER; null: none. */
  embedder?: Embedder | null;
  weights?: HybridWeights;
  /** Index inbox/ and archive/ conversations (default true). */
  transcripts?: boolean;
  maxTranscriptBytes?: number;
  /** Skip the refresh before a query when the last one is younger than this (default 0: always refresh). */
  refreshAfterMs?: number;
  /**
   * How long a query waits for the index update it started (or found running) before it answers
   * from the index as it is, saying so (default: until the update is done, as the CLI wants). A
   * first build of a large store takes tens of seconds; a server should not hold a query that long.
   */
  updateWaitMs?: number;
  /**
   * A process that runs one command and exits (the CLI): no event loop to keep answering, so a
   * build writes in transactions of about a second (ONE_SHOT_SLICE_MS) instead of tens of ms. Each
   * transaction still commits what it wrote: an interrupted build is resumed by the next one, and
   * another process's writes wait at most that long.
   */
  oneShot?: boolean;
}

export interface SearchOptions extends SearchFilter {
  /** Hits to return (default 20, at most 500). */
  limit?: number;
  markers?: HighlightMarkers;
  /** Refresh the index from the files first (default true). */
  refresh?: boolean;
  /** Use vectors when an embedder is configured (default true). */
  vector?: boolean;
  /**
   * Include items marked superseded (knowledge/supersession.ts), ranked lower (default false:
   * a superseded item is not served as knowledge; `lore search --superseded` shows them).
   */
  superseded?: boolean;
  /** This query's wait for the index update (default: the index's updateWaitMs). */
  waitMs?: number;
  /**
   * Stops this query's wait: it rejects with the signal's reason. The update it waited for goes
   * on in the background (later queries need it), yielding between slices as before.
   */
  signal?: AbortSignal;
  /** Progress of the index update this query waits for (files indexed of those to index). */
  onProgress?: (progress: SyncProgress) => void;
}

/** A full update in progress, shared by every query that needs it. */
interface FullUpdate {
  promise: Promise<UpdateReport>;
  progress: SyncProgress;
  listeners: Set<(progress: SyncProgress) => void>;
}

const DEFAULT_LIMIT = 20;

/** How agents are told that a search was answered by partial matches (SearchResponse.partial). */
export const PARTIAL_MATCHES_WARNING = 'partial matches: no item has every word of the query; these have some of the words';
const MAX_LIMIT = 500;
/** A one-shot process reads and extracts with threads (extractThreads.ts) from this many changed files: each thread starts in ~50 ms. */
const EXTRACT_THREADS_FROM_FILES = 500;
/** A one-shot process's build slices (see SearchIndexOptions.oneShot). */
const ONE_SHOT_SLICE_MS = 1000;
/** After a lock made us fall back, SQLite is tried again after this long. */
const RELOCK_RETRY_MS = 30_000;

/** An open search index over one store. */
export class SearchIndex {
  private engine: Engine;
  private synced = false;
  private lastSync = 0;
  private lockedAt = 0;
  private readonly vector: VectorSearch | undefined;
  private embedderProblem: string | undefined;
  private updates: Promise<unknown> = Promise.resolve();
  private refreshAfterMs: number;
  private full: FullUpdate | undefined;

  private constructor(
    readonly paths: StorePaths,
    private readonly options: SearchIndexOptions,
  ) {
    this.engine = openEngine(paths, options);
    if (this.engine.locked) this.lockedAt = Date.now();
    this.refreshAfterMs = options.refreshAfterMs ?? 0;
    let embedder: Embedder | undefined;
    try {
      // Without LORE_EMBED_PROVIDER there is no embedder to make (embedderFromEnv says so too), and the module stays unloaded.
      const env = options.env ?? process.env;
      embedder =
        options.embedder === null
          ? undefined
          : (options.embedder ?? (env.LORE_EMBED_PROVIDER ? embeddings().embedderFromEnv(env) : undefined));
    } catch (error) {
      this.embedderProblem = (error as Error).message;
    }
    this.vector = embedder ? new (vectorSearch().VectorSearch)(embedder) : undefined;
  }

  /** Opens the index of a store (creating `.index/` when needed). Never throws. */
  static open(paths: StorePaths, options: SearchIndexOptions = {}): SearchIndex {
    return new SearchIndex(paths, options);
  }

  /** Where the answering index lives: `sqlite` (the file), `memory`, or `none` (no SQLite driver). */
  get backend(): Engine['lexical']['name'] {
    return this.engine.lexical.name;
  }

  /** Why that engine (for a status line). */
  get backendReason(): string {
    return this.engine.reason;
  }

  /**
   * Brings the index up to date (all files, or `only` some), then embeds new texts. Updates run
   * one at a time: overlapping ones (a watcher and a query) would embed the same texts twice. A
   * full update joins the one already pending. Before the first full update has finished, `only`
   * files are indexed at once (a write is found by the next query, even while a first build
   * runs) and the full update is started in the background.
   */
  update(options: Pick<SyncOptions, 'only'> = {}): Promise<UpdateReport> {
    if (!options.only) return this.fullUpdate().promise;
    if (this.synced) return this.enqueue(() => this.runUpdate(options));
    // Errors of the background build reach whoever waits for it; none here.
    this.fullUpdate().promise.catch(() => undefined);
    return Promise.resolve().then(() => this.updateNow(options.only!));
  }

  /**
   * Brings the index up to date and makes what left it unrecoverable from its files
   * (LexicalBackend.purge): after `lore forget`.
   */
  async purge(): Promise<void> {
    await this.update();
    await this.enqueue(async () => {
      this.withRecovery(() => this.engine.lexical.purge?.(), 'throw');
      return { ...noUpdate(0), embedded: 0 };
    });
  }

  /** How far the first build (or a full refresh) has got; undefined when none is running. */
  get building(): SyncProgress | undefined {
    return this.full && { ...this.full.progress };
  }

  private enqueue(task: () => Promise<UpdateReport>): Promise<UpdateReport> {
    const next = this.updates.then(task);
    this.updates = next.catch(() => undefined);
    return next;
  }

  private fullUpdate(): FullUpdate {
    if (this.full) return this.full;
    const full: FullUpdate = {
      promise: Promise.resolve() as unknown as Promise<UpdateReport>,
      progress: { done: 0, total: 0 },
      listeners: new Set(),
    };
    full.promise = this.enqueue(() => this.runUpdate({}, full)).finally(() => {
      if (this.full === full) this.full = undefined;
    });
    this.full = full;
    return full;
  }

  /** Indexes a few files at once, outside the queue (lexical only: the running build embeds after). */
  private updateNow(only: string[]): UpdateReport {
    const report = this.withRecovery(
      () => indexSync().syncIndex(this.engine.lexical, this.paths, { ...this.syncOptions(), only }),
      'throw',
    );
    forgetStamps(this.engine.lexical, report);
    if (report.indexed.length > 0 || report.removed.length > 0) this.vector?.invalidate();
    return { ...report, embedded: 0 };
  }

  private async runUpdate(options: Pick<SyncOptions, 'only'>, full?: FullUpdate): Promise<UpdateReport> {
    this.maybeRetrySqlite();
    const sliced = (): Promise<Omit<UpdateReport, 'embedded'>> => {
      const lexical = this.engine.lexical;
      const progress = (p: SyncProgress) => {
        if (!full) return;
        full.progress = p;
        for (const listener of full.listeners) listener({ ...p });
      };
      return indexSync()
        .syncIndexInSlices(lexical, this.paths, this.syncOptions(), {
          sliceMs: this.options.oneShot ? ONE_SHOT_SLICE_MS : undefined,
          deferFullText: this.options.oneShot,
          extractThreads: this.options.oneShot
            ? { threads: extractThreads().defaultExtractThreads(), fromFiles: EXTRACT_THREADS_FROM_FILES }
            : undefined,
          run: (slice) => this.withRecovery(() => slice(this.engine.lexical), 'throw'),
          onProgress: progress,
        })
        .finally(() => lexical.holdMaintenance?.(false));
    };
    let report: Omit<UpdateReport, 'embedded'>;
    const stamps = full ? sourcesUnchanged(this.engine.lexical, this.paths, { transcripts: this.options.transcripts }) : undefined;
    try {
      report = stamps?.held
        ? noUpdate(stamps.docs ?? this.safeCount())
        : full
          ? await sliced()
          : this.withRecovery(() => indexSync().syncIndex(this.engine.lexical, this.paths, { ...this.syncOptions(), ...options }), 'throw');
    } catch (error) {
      if (this.engine.lexical.name !== 'sqlite' || !sqliteCode(error)) throw error;
      if (isLocked(error)) {
        // Another process is writing the index (most likely updating it): answer from what is
        // there rather than rebuild everything in memory; the next refresh catches up.
        const message = 'the index is being written by another process; results may be a little stale';
        report = { ...noUpdate(this.safeCount()), errors: [{ file: '.index', message }] };
      } else {
        // Read-only, disk full, I/O error: SQLite cannot keep the index; memory can.
        this.fallBack(`the search index could not be updated (${(error as Error).message})`);
        this.lockedAt = 0;
        this.vector?.invalidate(true);
        report = await sliced();
      }
    }
    if (stamps && !stamps.held) recordStamps(this.engine.lexical, stamps, report);
    if (!full) forgetStamps(this.engine.lexical, report);
    if (full) this.synced = true;
    this.lastSync = Date.now();
    if (report.indexed.length > 0 || report.removed.length > 0) this.vector?.invalidate();
    const embedded = this.vector
      ? await this.vector.embedMissing(this.engine.lexical, this.engine.vectors, (write) => this.withRecovery(write), this.options.log)
      : 0;
    return { ...report, embedded };
  }

  /**
   * Waits for an update for at most `waitMs`, reporting its progress; undefined when it is still
   * running then. Rejects with the signal's reason when the signal aborts first.
   */
  private waitFor(
    pending: Promise<UpdateReport>,
    waitMs: number,
    signal?: AbortSignal,
    onProgress?: (progress: SyncProgress) => void,
  ): Promise<UpdateReport | undefined> {
    signal?.throwIfAborted();
    const full = this.full;
    return new Promise<UpdateReport | undefined>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const listener = onProgress ? (p: SyncProgress) => onProgress(p) : undefined;
      const settle = (done: () => void) => {
        if (timer) clearTimeout(timer);
        if (listener) full?.listeners.delete(listener);
        signal?.removeEventListener('abort', abort);
        done();
      };
      const abort = () => settle(() => reject(signal!.reason));
      if (listener && full) {
        full.listeners.add(listener);
        listener({ ...full.progress });
      }
      if (Number.isFinite(waitMs)) timer = setTimeout(() => settle(() => resolve(undefined)), Math.max(0, waitMs));
      signal?.addEventListener('abort', abort, { once: true });
      pending.then(
        (report) => settle(() => resolve(report)),
        (error: unknown) => settle(() => reject(error)),
      );
    });
  }

  /** Runs a query. */
  async search(query: string, options: SearchOptions = {}): Promise<SearchResponse> {
    const started = performance.now();
    // Without SQLite there is no index: every answer says why it is empty.
    const warnings: string[] = this.backend === 'none' ? [this.backendReason] : [];
    let update: UpdateReport | undefined;
    let indexing: SyncProgress | undefined;
    const stale = Date.now() - this.lastSync >= this.refreshAfterMs;
    if (!this.synced || ((options.refresh ?? true) && stale)) {
      const firstBuild = !this.synced;
      try {
        update = await this.waitFor(
          this.update(),
          options.waitMs ?? this.options.updateWaitMs ?? Infinity,
          options.signal,
          options.onProgress,
        );
        if (update) for (const e of update.errors.slice(0, 5)) warnings.push(`${e.file}: ${e.message}`);
        else {
          const progress = this.building ?? { done: 0, total: 0 };
          // A refresh still scanning, or with nothing to index, leaves the index as complete as it was.
          if (firstBuild || progress.done < progress.total) {
            indexing = progress;
            warnings.push(indexingWarning(indexing, firstBuild));
          }
        }
      } catch (error) {
        if (options.signal?.aborted) throw error;
        // Unexpected (the engines' own failures are handled in update): answer from the index as it is.
        warnings.push(`the index could not be refreshed: ${(error as Error).message}`);
      }
    }
    const parsed = parseQuery(query);
    const limit = Math.min(MAX_LIMIT, Math.max(1, Math.floor(Number(options.limit) || DEFAULT_LIMIT)));
    const filter: SearchFilter = { categories: options.categories, since: options.since, until: options.until };
    const markers = options.markers ?? DEFAULT_MARKERS;
    const base = { query, backend: this.backend, backendReason: this.backendReason, warnings, update, ...(indexing ? { indexing } : {}) };
    if (isEmptyQuery(parsed)) {
      return {
        ...base,
        hits: [],
        mode: 'lexical',
        modeReason: 'the query has no words to search for',
        tookMs: performance.now() - started,
      };
    }
    const vector = options.vector !== false ? this.vector : undefined;
    // Lexical-only needs just the hits it returns; a hybrid merge wants a deeper pool to re-rank.
    // Superseded items are left out after the fetch: a few more candidates keep the page full.
    const pool = vector ? Math.max(limit * 3, 30) : options.superseded ? limit : limit + Math.min(limit, 20);
    const lexical = tieredLexical(parsed, (q, step) => this.lexical(q, step, filter, pool, warnings));
    let candidates = lexical.candidates;
    const partial = lexical.tier === 'partial';
    let weights: HybridWeights | undefined;
    let modeReason = this.lexicalReason();
    if (vector) {
      try {
        const similar = await vector.similar(this.engine.lexical, this.engine.vectors, query, pool, filter);
        candidates = addVectorCandidates(candidates, similar);
        weights = this.options.weights ?? DEFAULT_WEIGHTS;
        modeReason = `hybrid ${weights.bm25} × BM25 + ${weights.vector} × cosine (${vector.embedder.label})`;
      } catch (error) {
        modeReason = `lexical only: embedding the query failed (${(error as Error).message})`;
        warnings.push(modeReason);
      }
    }
    // Documents before ranking: the rank reads them (a superseded item is demoted).
    const missing = candidates.filter((c) => !c.doc).map((c) => c.id);
    const fetched = new Map(this.engine.lexical.getDocs(missing).map((d) => [d.id, d]));
    const withDocs = candidates.map((c) => (c.doc ? c : { ...c, doc: fetched.get(c.id) }));
    const served = options.superseded
      ? withDocs
      : withDocs.filter((c) => !c.doc || c.doc.category === 'transcripts' || isCurrent(c.doc.text));
    const ranked = rank(served, weights).slice(0, limit);
    const matcher = termMatcher(parsed);
    const hits = ranked.flatMap((c) => {
      const doc = c.doc;
      if (!doc) return [];
      return [
        toHit(
          c,
          doc,
          () => makeSnippet(doc.text, matcher, markers),
          () => path.join(this.paths.root, doc.file),
        ),
      ];
    });
    return {
      ...base,
      backend: this.backend,
      backendReason: this.backendReason,
      hits,
      ...(partial ? { partial } : {}),
      mode: weights ? 'hybrid' : 'lexical',
      modeReason,
      tookMs: performance.now() - started,
    };
  }

  /** Changes how old the last refresh may be before a query refreshes again (see the option). */
  refreshAfter(ms: number): void {
    this.refreshAfterMs = ms;
  }

  /** Releases the database. */
  close(): void {
    this.engine.lexical.close();
  }

  private safeCount(): number {
    try {
      return this.engine.lexical.count();
    } catch {
      return 0;
    }
  }

  private syncOptions(): SyncOptions {
    return { transcripts: this.options.transcripts, maxTranscriptBytes: this.options.maxTranscriptBytes };
  }

  private lexicalReason(): string {
    if (this.embedderProblem) return `lexical only: ${this.embedderProblem}`;
    if (!this.vector) return 'lexical only: no embedding provider configured (set LORE_EMBED_PROVIDER to openai, gemini or ollama)';
    return 'lexical only: vectors not requested';
  }

  private lexical(parsed: ParsedQuery, step: LexicalStep, filter: SearchFilter, limit: number, warnings: string[]): LexicalHit[] {
    // Ranking fewer matches than the hits asked for would return fewer than there are.
    const rankCap = Math.max(step.rankCap, limit);
    try {
      const result = this.withRecovery(() => this.engine.lexical.query(parsed, { ...step, rankCap }, filter, limit), 'fallback', true);
      // Partial matches are a last resort; a cap there is not worth a warning.
      if (result.unranked)
        warnings.push(`over ${rankCap} matches for a word being typed: the most recent are listed, unranked; finish the word to rank them`);
      else if (result.capped && step.mode === 'and')
        warnings.push(`over ${rankCap} matches: ranked among the ${rankCap} most recently indexed; add words to narrow it`);
      return result.hits;
    } catch (error) {
      // The sanitizer should make this unreachable; if the engine still refuses, say so.
      warnings.push(`the ${this.backend} engine could not run the query: ${(error as Error).message}`);
      return [];
    }
  }

  /**
   * Runs an engine call; when SQLite turns out corrupt it is rebuilt, when locked the fallback
   * takes over (or the error is rethrown, when asked), and the call runs again on the new engine
   * (re-synced first when asked).
   */
  private withRecovery<T>(call: () => T, onLocked: 'fallback' | 'throw' = 'fallback', resync = false): T {
    try {
      return call();
    } catch (error) {
      if (this.engine.lexical.name !== 'sqlite') throw error;
      if (isCorruption(error)) this.engine = reopenAfterCorruption(this.paths, this.engine, this.options);
      else if (isLocked(error) && onLocked === 'fallback')
        this.fallBack(`the search index is locked by another process (${(error as Error).message})`);
      else throw error;
      this.vector?.invalidate(true);
      if (resync) indexSync().syncIndex(this.engine.lexical, this.paths, this.syncOptions());
      return call();
    }
  }

  private fallBack(reason: string): void {
    this.engine.lexical.close();
    this.engine = fallbackEngine(this.paths, reason, this.options.env);
    this.lockedAt = Date.now();
    this.options.log?.(this.engine.reason);
  }

  /** Returns to SQLite a while after a lock forced the fallback. */
  private maybeRetrySqlite(): void {
    if (this.lockedAt === 0 || Date.now() - this.lockedAt < RELOCK_RETRY_MS) return;
    const engine = openEngine(this.paths, this.options);
    this.lockedAt = engine.lexical.name === 'sqlite' ? 0 : Date.now();
    if (engine.lexical.name !== 'sqlite') return;
    this.engine.lexical.close();
    this.engine = engine;
    this.synced = false;
    this.vector?.invalidate(true);
  }
}

/** The report of an update that had nothing to do. */
function noUpdate(docs: number): Omit<UpdateReport, 'embedded'> {
  return { scanned: 0, indexed: [], removed: [], rehashed: 0, unchanged: 0, errors: [], docs, ms: 0 };
}

/** The warning of an answer given before the index update it waited for was done. */
function indexingWarning(progress: SyncProgress, firstBuild: boolean): string {
  const counted = progress.total > 0 ? ` (${progress.done} of ${progress.total} files indexed)` : '';
  return firstBuild
    ? `the search index is still being built${counted}: these results come from the part indexed so far; search again shortly for complete results`
    : `the search index is catching up with changed files${counted}: the newest changes may be missing from these results`;
}

/** One-shot search: opens the store's index, refreshes it, queries, closes. */
export async function searchStore(
  paths: StorePaths,
  query: string,
  options: SearchIndexOptions & SearchOptions = {},
): Promise<SearchResponse> {
  const index = SearchIndex.open(paths, { oneShot: true, ...options });
  try {
    return await index.search(query, options);
  } finally {
    index.close();
  }
}

/**
 * Threads that read source files and make their documents ahead of the thread writing them to
 * the index, for a one-shot build of many files (the CLI's first build). Reading, parsing,
 * redacting, flagging and hashing are more than half of a build's work and need nothing of the
 * index, so on a machine with a second core they run beside SQLite's inserts instead of before
 * each one. Results come back in the files' order of the plan, at most LOOKAHEAD_FILES ahead of
 * the writer (so a 100,000-file build never holds every document in memory at once).
 *
 * Anything the threads cannot do (the script is missing, a thread dies, a file they could not
 * read) is left to the writer, which prepares that file itself as it always did: the index is
 * the same either way (test/process/search/extractThreads.test.ts).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Worker } from 'node:worker_threads';
import type { PreparedFile } from './extractDocs';
import type { SourceFileInfo } from './sourceFiles';
import { lazy } from '../../base/lazy';

// Loaded on first use, not with the module: every one-shot search imports it, and builds are rare.
const workerThreads = lazy(() => require('node:worker_threads') as typeof import('node:worker_threads'));

/** The threads' script, beside this module: out/…/search/ when compiled, dist/ in the bundles. */
const THREAD_SCRIPT = path.join(__dirname, 'extractThread.js');

/** Files per message to a thread: few enough to keep every thread busy to the end. */
const BATCH_FILES = 32;
/**
 * Files prepared, or queued to a thread, ahead of the writer at most. Every batch of the window
 * is sent at once: a thread's next batch must already wait in its queue while the writer spends
 * its slice in SQLite (the writer's thread, which hands out batches, answers no message then).
 */
const LOOKAHEAD_FILES = 2048;
/**
 * Files the writer waits for before it writes (readyRun): writing each file as soon as it came
 * made a transaction (and a commit, a third of the writer's time) per few files.
 */
export const WRITE_RUN_FILES = 512;
/** Threads at most, whatever the machine: the writer is the bound beyond. */
const MAX_THREADS = 3;

/** A batch of files for a thread to prepare. */
export interface ExtractBatch {
  /** The store the files are in: a thread reads through a link out of it no more than the writer does. */
  storeRoot: string;
  start: number;
  maxBytes: number;
  files: Array<SourceFileInfo & { unchangedHash?: string }>;
}

/** What a thread sends back for a batch: a result per file, in order. */
export interface ExtractBatchResult {
  start: number;
  results: PreparedFile[];
}

/**
 * Threads a one-shot build uses on this machine: one per core. The writer waits for them half
 * its time (extraction is the larger share), so on 2 cores 2 threads beside it finished first.
 */
export function defaultExtractThreads(): number {
  return Math.max(1, Math.min(MAX_THREADS, os.availableParallelism()));
}

export class ExtractThreads {
  private readonly workers: Worker[] = [];
  /** The thread the next batch goes to (they take turns). */
  private turn = 0;
  private readonly results = new Map<number, PreparedFile>();
  private waiting: { index: number; resolve: () => void } | undefined;
  /** Files [0, dispatched) were sent to a thread. */
  private dispatched = 0;
  /** Where the writer is: files before this one were taken, or are waited for (the look-ahead window starts here). */
  private taken = 0;
  private stopped = false;

  private constructor(
    private readonly storeRoot: string,
    private readonly files: SourceFileInfo[],
    private readonly maxBytes: number,
    private readonly unchangedHash: (rel: string) => string | undefined,
  ) {}

  /** Starts `threads` threads on the files; undefined when none can start here (the writer prepares every file). */
  static start(
    storeRoot: string,
    files: SourceFileInfo[],
    maxBytes: number,
    unchangedHash: (rel: string) => string | undefined,
    threads: number,
    script = THREAD_SCRIPT,
  ): ExtractThreads | undefined {
    if (threads < 1 || !fs.existsSync(script)) return undefined;
    const pool = new ExtractThreads(storeRoot, files, maxBytes, unchangedHash);
    try {
      const { Worker: Thread } = workerThreads();
      for (let i = 0; i < threads; i++) pool.add(new Thread(script));
    } catch {
      pool.close();
      return undefined;
    }
    pool.fill();
    return pool;
  }

  private add(worker: Worker): void {
    // Kept referenced: the writer awaiting a result is what keeps a one-shot process alive. The
    // build ends them (close) when it ends, however it ends.
    worker.on('message', (message: ExtractBatchResult) => {
      message.results.forEach((result, i) => this.results.set(message.start + i, result));
      this.wake();
    });
    // A thread that fails leaves what it had to the writer.
    worker.on('error', () => this.close());
    worker.on('exit', () => {
      if (!this.stopped) this.close();
    });
    this.workers.push(worker);
  }

  /** Sends the next batches to the threads in turn, up to LOOKAHEAD_FILES ahead of the writer. */
  private fill(): void {
    while (!this.stopped && this.dispatched < this.files.length && this.dispatched < this.taken + LOOKAHEAD_FILES) {
      const start = this.dispatched;
      const files = this.files.slice(start, start + BATCH_FILES).map((f) => ({ ...f, unchangedHash: this.unchangedHash(f.rel) }));
      this.dispatched += files.length;
      const batch: ExtractBatch = { storeRoot: this.storeRoot, start, maxBytes: this.maxBytes, files };
      this.workers[this.turn++ % this.workers.length].postMessage(batch);
    }
  }

  private wake(): void {
    if (this.waiting && (this.stopped || this.results.has(this.waiting.index))) {
      const { resolve } = this.waiting;
      this.waiting = undefined;
      resolve();
    }
  }

  /** Whether file `index` is prepared, or will not be (the threads stopped: the writer prepares it). */
  settled(index: number): boolean {
    return this.stopped || this.results.has(index);
  }

  /** Resolves once file `index` is prepared, or once the threads stopped (the writer then prepares it). */
  ready(index: number): Promise<void> {
    if (this.stopped || this.results.has(index)) return Promise.resolve();
    this.taken = Math.max(this.taken, index);
    this.fill();
    return new Promise((resolve) => {
      this.waiting = { index, resolve };
    });
  }

  /** Resolves once files [from, to) are prepared (or the threads stopped). */
  async readyRun(from: number, to: number): Promise<void> {
    for (let i = from; i < to && !this.stopped; i++) await this.ready(i);
  }

  /** File `index` as prepared, once; undefined when the threads did not prepare it. */
  take(index: number): PreparedFile | undefined {
    const result = this.results.get(index);
    this.results.delete(index);
    this.taken = Math.max(this.taken, index + 1);
    this.fill();
    return result;
  }

  /** Ends the threads (what they were preparing is dropped). */
  close(): void {
    if (this.stopped) return;
    this.stopped = true;
    for (const worker of this.workers) void worker.terminate().catch(() => undefined);
    this.wake();
  }
}

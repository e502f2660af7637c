/**
 * Incremental index update, the same for both engines: a source whose mtime and size match what
 * the index recorded is skipped without reading it; otherwise it is read and hashed, and only a
 * changed hash re-extracts its documents. Vanished sources are dropped. Nothing is written when
 * nothing changed, so a refresh before every query is a stat scan and no lock.
 */
import type { StorePaths } from '../../store/storePaths';
import { prepareFile, prepareFileInSlices, type PreparedFile } from './extractDocs';
import type { SearchDoc } from './searchTypes';
import type { LexicalBackend, SourceState } from './lexicalBackend';
import type { UpdateReport } from './searchTypes';
import {
  classifySource,
  statSource,
  visitSourceFiles,
  visitSourceFilesInSlices,
  type SourceFileInfo,
  type SourceVisitor,
} from './sourceFiles';
import { clearFrontmatterMemo } from '../../base/yamlFrontmatter';
import { randomId } from '../../base/lazyCrypto';
import { ExtractThreads, WRITE_RUN_FILES } from './extractThreads';

/** Conversation files larger than this are not indexed (they are recorded so they are not re-read). */
const DEFAULT_MAX_TRANSCRIPT_BYTES = 16 * 1024 * 1024;

/**
 * A file modified this recently may be modified again within the same mtime tick without its
 * size changing; its mtime is not trusted (recorded as -1) so the next update compares content.
 * This is git's "racily clean" rule.
 */
const RACY_MS = 1000;

export interface SyncOptions {
  /** Update only these files (store-relative or absolute), e.g. from a file watcher. */
  only?: string[];
  /** Index conversations of inbox/ and archive/ (default true). */
  transcripts?: boolean;
  maxTranscriptBytes?: number;
}

/** Brings the backend up to date with the store's files, in one transaction. */
export function syncIndex(backend: LexicalBackend, paths: StorePaths, options: SyncOptions = {}): Omit<UpdateReport, 'embedded'> {
  const plan = planSync(backend, paths, options);
  if (plan.changed.length > 0 || plan.removed.length > 0) backend.transaction(() => applySlice(backend, plan, plan.changed.length));
  return finishSync(backend, plan);
}

/** How far a sliced sync got: files applied of those that changed (total). */
export interface SyncProgress {
  done: number;
  total: number;
}

export interface SlicedSyncOptions {
  /** Work done between two yields to the event loop, in ms (default 25). */
  sliceMs?: number;
  /** Called after each slice. */
  onProgress?: (progress: SyncProgress) => void;
  /**
   * Runs each slice's transaction (SearchIndex wraps it in its recovery); it receives the
   * backend to use, which recovery may have replaced since the last slice.
   */
  run?: <T>(slice: (backend: LexicalBackend) => T) => T;
  /**
   * Nothing is answered from this index until the update ends (a one-shot process): the first
   * build of an empty index writes its documents alone and makes their full-text entries in one
   * pass at the end (LexicalBackend.deferFullText), 0.7× the time of a plain bulk insert of the
   * same rows instead of 1.9× for the entries made file by file and merged.
   */
  deferFullText?: boolean;
  /**
   * Threads that read and extract files ahead of the writer (extractThreads.ts), for an update of
   * at least `fromFiles` changed files; none by default. `script`: another thread script (tests).
   */
  extractThreads?: { threads: number; fromFiles: number; script?: string };
}

const DEFAULT_SLICE_MS = 25;
/** Changed files from which a sliced update holds maintenance back until it is done. */
const HOLD_MAINTENANCE_FILES = 100;

/**
 * The same update as syncIndex, cut into slices of about `sliceMs` each, with a yield to the
 * event loop between them, so that a first index of a large store (tens of seconds) never holds
 * a server's event loop for long: requests keep being answered, and queries between two slices
 * see the part indexed so far. Each slice is its own transaction, and a source's state is
 * written by the transaction that writes its last document (a large file's, over several
 * slices, under a state that marks it unfinished until then: applyLargeFile), so an
 * interrupted build leaves a valid index that the next update completes.
 * Category files come first (the listing's order), then notes, then conversations.
 * Maintenance the slices would each trigger (SQLite's segment merge) is held and done at the
 * end, in steps too.
 */
export async function syncIndexInSlices(
  backend: LexicalBackend,
  paths: StorePaths,
  options: SyncOptions = {},
  slicing: SlicedSyncOptions = {},
): Promise<Omit<UpdateReport, 'embedded'>> {
  const run = slicing.run ?? ((slice) => slice(backend));
  const sliceMs = slicing.sliceMs ?? DEFAULT_SLICE_MS;
  const plan = options.only ? run((b) => planSync(b, paths, options)) : await planFullInSlices(run, paths, options, sliceMs);
  const total = plan.changed.length;
  // A build, not a refresh of a few files: merging waits for the end.
  if (total >= HOLD_MAINTENANCE_FILES) backend.holdMaintenance?.(true);
  slicing.onProgress?.({ done: 0, total });
  let current = backend;
  const tracked: typeof run = (slice) =>
    run((b) => {
      current = b;
      return slice(b);
    });
  const deferred =
    slicing.deferFullText && total >= HOLD_MAINTENANCE_FILES && tracked((b) => b.transaction(() => b.deferFullText?.() ?? false));
  const threads = slicing.extractThreads;
  let ahead: ExtractThreads | undefined;
  if (threads && total >= threads.fromFiles) {
    // What the index holds now: a thread skips making the documents of content it already has.
    const known = run((b) => b.sourceStates());
    const unchangedHash = (rel: string) => known.get(rel)?.hash;
    ahead = ExtractThreads.start(paths.root, plan.changed, plan.limits.maxBytes, unchangedHash, threads.threads, threads.script);
  }
  try {
    while (plan.next < total || (plan.removed.length > 0 && !plan.removedApplied)) {
      const next = plan.changed[plan.next];
      if (ahead && next) await ahead.readyRun(plan.next, Math.min(total, plan.next + WRITE_RUN_FILES));
      // A large file's documents are made with pauses (or by a thread), then written over several slices.
      if (next && next.size >= LARGE_SOURCE_BYTES) {
        plan.made = ahead?.take(plan.next) ?? (await prepareFileInSlices(next, plan.limits.maxBytes, yieldToEventLoop, sliceMs));
        await applyLargeFile(tracked, plan, sliceMs);
        slicing.onProgress?.({ done: plan.next, total });
        continue;
      }
      tracked((b) => {
        const deadline = performance.now() + sliceMs;
        // A slice takes files until its time is up (at least one, so a slow file still moves on).
        b.transaction(() => applySlice(b, plan, total, deadline, ahead));
      });
      slicing.onProgress?.({ done: plan.next, total });
      if (plan.next < total) await yieldToEventLoop();
    }
  } finally {
    ahead?.close();
  }
  if (deferred) tracked((b) => b.transaction(() => b.finishDeferredFullText?.()));
  // What a large transaction would have merged at once (a stall of ~0.5 s), a step per slice.
  current.holdMaintenance?.(false);
  while (current.maintain?.()) await yieldToEventLoop();
  return finishSync(current, plan);
}

/** Lets pending I/O and timers run (setImmediate: after I/O callbacks, unlike a resolved promise). */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Source files at least this large have their documents made in slices (a few thousand items). */
const LARGE_SOURCE_BYTES = 32 * 1024;

/** Documents written between two checks of a slice's deadline, when a large file is written. */
const WRITE_BATCH = 250;

/**
 * What a source's state says while its documents are written over several transactions: an
 * mtime and size no file has, so an update interrupted half-way (a crash, a kill) finds the
 * file changed and writes it again (its partial documents replaced), and a file gone by then is
 * removed with them. The hash names the writer (no content hash has a `~`): a chunk is added only
 * while the state is still its own, so another process that wrote the file in the meantime is
 * not appended to.
 */
function writingState(rel: string): SourceState {
  return { rel, mtimeMs: -1, size: -1, hash: `~writing-${randomId()}` };
}

/** The rest of a large file still to write: its documents, how far, and its final state. */
interface LargeWrite {
  state: SourceState;
  docs: SearchDoc[];
  at: number;
  writing: SourceState;
}

/**
 * Applies the next changed file, a large one whose documents were made ahead (plan.made), in
 * slices of about `sliceMs`: the first slice replaces its documents with the first of the new
 * ones under a writing state, each later slice adds more, and the last one writes the file's
 * real state with the last documents. A file of 20,000 notes was one transaction of about a
 * second under load, the longest a server stopped answering during a build.
 */
async function applyLargeFile(run: <T>(slice: (backend: LexicalBackend) => T) => T, plan: SyncPlan, sliceMs: number): Promise<void> {
  const file = plan.changed[plan.next];
  const made = plan.made;
  plan.made = undefined;
  let rest: LargeWrite | undefined;
  run((b) =>
    b.transaction(() => {
      rest = undefined; // a retry after recovery starts again
      const deadline = performance.now() + sliceMs;
      applyFile(b, file, b.sourceStates().get(file.rel), plan.limits, plan.report, made, (state, docs) => {
        const writing = writingState(state.rel);
        b.replaceSource(writing, []);
        rest = { state, docs, at: 0, writing };
        writeUntil(b, rest, deadline);
      });
    }),
  );
  plan.next++;
  // Written over several transactions: the segment merge one large transaction would have made at
  // its commit (see the backend's maintenance) waits for the end of the sync, a step at a time;
  // otherwise the batches after a mid-file merge would leave segments unmerged, depending on how
  // the slices fell.
  if (rest && rest.at < rest.docs.length) run((b) => b.holdMaintenance?.(true));
  while (rest && rest.at < rest.docs.length) {
    await yieldToEventLoop();
    run((b) =>
      b.transaction(() => {
        const write = rest!;
        // Written by another process meanwhile, or the index was rebuilt: nothing of ours to add to.
        if (b.sourceStates().get(file.rel)?.hash !== write.writing.hash) rest = undefined;
        else writeUntil(b, write, performance.now() + sliceMs);
      }),
    );
  }
}

/** Adds a large file's next documents until the deadline (a batch at least); the last batch carries its state. */
function writeUntil(backend: LexicalBackend, write: LargeWrite, deadline: number): void {
  do {
    const batch = write.docs.slice(write.at, write.at + WRITE_BATCH);
    write.at += batch.length;
    backend.appendDocs(write.at >= write.docs.length ? write.state : write.writing, batch);
  } while (write.at < write.docs.length && performance.now() < deadline);
}

/** What an update found to do, and how far applying it got. */
interface SyncPlan {
  report: Omit<UpdateReport, 'embedded'>;
  changed: SourceFileInfo[];
  removed: string[];
  /** Index of the next changed file to apply. */
  next: number;
  removedApplied: boolean;
  /** Documents of the next file, made ahead in slices (see LARGE_SOURCE_BYTES). */
  made?: PreparedFile;
  started: number;
  limits: { maxBytes: number; now: number };
}

/** Lists the sources (or stats the `only` ones) and picks those whose mtime or size changed, and the vanished ones. */
function planSync(backend: LexicalBackend, paths: StorePaths, options: SyncOptions): SyncPlan {
  const started = performance.now();
  const report: Omit<UpdateReport, 'embedded'> = {
    scanned: 0,
    indexed: [],
    removed: [],
    rehashed: 0,
    unchanged: 0,
    errors: [],
    docs: 0,
    ms: 0,
  };
  const states = backend.sourceStates();
  const changed: SourceFileInfo[] = [];
  const removed: string[] = [];
  if (options.only) {
    for (const file of options.only) {
      const info = statSource(paths, file);
      if (info) {
        if (info.kind === 'transcript' && options.transcripts === false) continue;
        report.scanned++;
        if (!isUnchanged(states.get(info.rel), info.mtimeMs, info.size)) changed.push(info);
        continue;
      }
      const known = classifySource(paths, file);
      if (known && states.has(known.rel)) removed.push(known.rel);
    }
  } else {
    const listing = fullListing(states, report, changed);
    visitSourceFiles(paths, { transcripts: options.transcripts }, listing.visit);
    removed.push(...listing.vanished());
  }
  return finishPlan(report, changed, removed, started, options);
}

/** planSync of every source, the stat scan done with pauses (the backend's states read once, at the start). */
async function planFullInSlices(
  run: <T>(slice: (backend: LexicalBackend) => T) => T,
  paths: StorePaths,
  options: SyncOptions,
  sliceMs: number,
): Promise<SyncPlan> {
  const started = performance.now();
  const report: Omit<UpdateReport, 'embedded'> = {
    scanned: 0,
    indexed: [],
    removed: [],
    rehashed: 0,
    unchanged: 0,
    errors: [],
    docs: 0,
    ms: 0,
  };
  const changed: SourceFileInfo[] = [];
  // A copy: the map a backend hands out is its live cache, which updates between pauses change.
  const states = new Map(run((b) => b.sourceStates()));
  const listing = fullListing(states, report, changed);
  await visitSourceFilesInSlices(paths, { transcripts: options.transcripts }, listing.visit, yieldToEventLoop, sliceMs);
  return finishPlan(report, changed, listing.vanished(), started, options);
}

/** The visitor of a full listing: counts, picks the changed sources, and finds the vanished ones after. */
function fullListing(
  states: ReadonlyMap<string, SourceState>,
  report: Omit<UpdateReport, 'embedded'>,
  changed: SourceFileInfo[],
): { visit: SourceVisitor; vanished(): string[] } {
  let known = 0;
  const seen: string[] = [];
  const visit: SourceVisitor = (rel, abs, kind, category, mtimeMs, size) => {
    report.scanned++;
    seen.push(rel);
    const state = states.get(rel);
    if (state) known++;
    if (!isUnchanged(state, mtimeMs, size)) changed.push({ rel, abs, kind, category, mtimeMs, size });
  };
  const vanished = () => {
    // Every indexed source was seen (the usual case): no need to look for vanished ones.
    if (known >= states.size) return [];
    const present = new Set(seen);
    return [...states.keys()].filter((rel) => !present.has(rel));
  };
  return { visit, vanished };
}

function finishPlan(
  report: Omit<UpdateReport, 'embedded'>,
  changed: SourceFileInfo[],
  removed: string[],
  started: number,
  options: SyncOptions,
): SyncPlan {
  report.unchanged = report.scanned - changed.length;
  const limits = { maxBytes: options.maxTranscriptBytes ?? DEFAULT_MAX_TRANSCRIPT_BYTES, now: Date.now() };
  return { report, changed, removed, next: 0, removedApplied: removed.length === 0, started, limits };
}

/**
 * Applies changed files from `plan.next` on, until `end` or the deadline, then (once all are
 * applied) the removals. Runs inside a transaction.
 */
function applySlice(backend: LexicalBackend, plan: SyncPlan, end: number, deadline = Infinity, ahead?: ExtractThreads): void {
  // Another process may have updated the index since the states were read outside the lock.
  const current = backend.sourceStates();
  const first = plan.next;
  // A slice with a deadline stops before a large file: the next slices write it (applyLargeFile);
  // with threads preparing files, also before one not prepared yet (the writer waits outside the transaction).
  const fits = (i: number) => (deadline === Infinity || plan.changed[i].size < LARGE_SOURCE_BYTES) && (!ahead || ahead.settled(i));
  while (plan.next < end && (plan.next === first || (performance.now() < deadline && fits(plan.next)))) {
    const index = plan.next++;
    const file = plan.changed[index];
    const prepared = ahead?.take(index) ?? (plan.made?.rel === file.rel ? plan.made : undefined);
    applyFile(backend, file, current.get(file.rel), plan.limits, plan.report, prepared);
    plan.made = undefined;
  }
  if (plan.next < plan.changed.length || plan.removedApplied) return;
  plan.removedApplied = true;
  for (const rel of plan.removed) {
    if (!current.has(rel)) continue;
    backend.removeSource(rel);
    plan.report.removed.push(rel);
  }
}

function finishSync(backend: LexicalBackend, plan: SyncPlan): Omit<UpdateReport, 'embedded'> {
  const { report } = plan;
  // Whatever gray-matter cached while notes were parsed goes (a leak in a long-running process otherwise).
  if (plan.changed.some((f) => f.kind === 'notes')) clearFrontmatterMemo();
  report.docs = backend.count();
  report.indexed.sort();
  report.removed.sort();
  report.ms = performance.now() - plan.started;
  return report;
}

/** A source whose recorded mtime and size still hold is not read again (primitives: no object per file). */
function isUnchanged(state: SourceState | undefined, mtimeMs: number, size: number): boolean {
  return state !== undefined && state.mtimeMs === mtimeMs && state.size === size;
}

function applyFile(
  backend: LexicalBackend,
  file: SourceFileInfo,
  previous: SourceState | undefined,
  limits: { maxBytes: number; now: number },
  report: Omit<UpdateReport, 'embedded'>,
  ahead?: PreparedFile,
  write: (state: SourceState, docs: SearchDoc[]) => void = (state, docs) => backend.replaceSource(state, docs),
): void {
  if (isUnchanged(previous, file.mtimeMs, file.size)) {
    report.unchanged++;
    return;
  }
  // Read ahead (a large file's documents made in slices, or an extraction thread's): the
  // documents and the hash recorded below come from the same bytes. A thread made no documents
  // for content the index had when the build began; if another process changed that entry since,
  // the file is prepared again here.
  const usable = ahead?.rel === file.rel && !ahead.readError && !(ahead.unchanged && ahead.hash !== previous?.hash);
  const prepared = usable ? ahead! : prepareFile(file, limits.maxBytes, previous?.hash);
  if (prepared.readError !== undefined || prepared.hash === undefined) {
    report.errors.push({ file: file.rel, message: prepared.readError ?? 'not read' });
    return;
  }
  const state: SourceState = {
    rel: file.rel,
    mtimeMs: limits.now - file.mtimeMs < RACY_MS ? -1 : file.mtimeMs,
    size: prepared.length === file.size ? file.size : -1,
    hash: prepared.hash,
  };
  if (previous && previous.hash === state.hash) {
    backend.setSourceState(state);
    report.rehashed++;
    return;
  }
  if (prepared.tooLarge) {
    // Recorded with no documents, so the file is not read again until it changes.
    backend.replaceSource(state, []);
    report.errors.push({
      file: file.rel,
      message: `not indexed: ${prepared.length} bytes is over the ${limits.maxBytes}-byte limit for conversations`,
    });
    return;
  }
  if (prepared.extractError !== undefined || !prepared.docs) {
    // A parser bug must not stop the update; the file keeps its previous documents.
    report.errors.push({ file: file.rel, message: prepared.extractError ?? 'no documents made' });
    return;
  }
  // Engine errors (disk full, corruption) propagate: the caller rebuilds or falls back.
  write(state, prepared.docs);
  report.indexed.push(file.rel);
}

/**
 * The language server's parts put together, free of the connection so tests and benchmarks can
 * hold one in-process: the note index, staleness, lookup, writer, notes service, code lenses and
 * the search index. The client's file events about the store (`fileChanged`) are batched once
 * (StoreEvents); each batch updates both indexes and becomes one `lore/notesChanged`, one
 * `lore/storeChanged` and a code-lens refresh, through the hooks the connection provides.
 */
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { storeRelative, type StorePaths } from '../core/store/storePaths';
import type { SearchBackendName } from '../core/services/search/searchTypes';
import type { NotesChangedNotification, StoreChangedNotification } from '../shared/protocol';
import { NoteLenses } from './codeLenses';
import { NoteIndex, type IndexChange } from '../core/store/noteIndex';
import { NoteLookup } from './noteLookup';
import { NotesService } from './notesService';
import { StalenessTracker } from './staleness';
import { ServerSearch } from './serverSearch';
import { ServerTasks } from './serverTasks';
import { StoreEvents, type StoreChangeBatch } from './storeEvents';
import { StoreWriter } from './storeWriter';
import { TeammateArrivalsWatch } from './teammateArrivalsWatch';
import type { Arrivals } from '../core/store/items/teammateArrivals';
import { TeamMerge } from './teamMerge';
import type { ParamsOf } from '../shared/declareMessage';

/** What the server needs from the connection. */
export interface ServerHooks {
  notesChanged(params: ParamsOf<typeof NotesChangedNotification>): void;
  /** Ask the client to re-request code lenses (only called when it supports that). */
  refreshCodeLenses(): void;
  /** Files in the store changed on disk (one batch). Optional: tests and benchmarks may not care. */
  storeChanged?(params: ParamsOf<typeof StoreChangedNotification>): void;
  /** The search index opened on this engine. */
  searchBackend?(backend: SearchBackendName, reason: string): void;
  /** Items arrived from teammates (git moved HEAD). Optional: tests and benchmarks may not care. */
  teammateArrivals?(arrivals: Arrivals): void;
  log(message: string): void;
}

/** Baselines captured per watcher batch at most: a big harvest should not hash the whole workspace at once. */
const MAX_BASELINES_PER_BATCH = 200;
const LENS_REFRESH_DEBOUNCE_MS = 50;

export class LoreServer {
  readonly index: NoteIndex;
  readonly staleness: StalenessTracker;
  readonly writer: StoreWriter;
  readonly notes: NotesService;
  readonly lenses: NoteLenses;
  readonly search: ServerSearch;
  readonly tasks: ServerTasks;
  /** What arrived from teammates when git moved HEAD, and whether the person saw it. */
  readonly arrivals: TeammateArrivalsWatch;
  /** The merge driver's registration and the reconcile after a merge (teamMerge.ts). */
  readonly teamMerge: TeamMerge;
  private readonly events: StoreEvents;
  private lensTimer: NodeJS.Timeout | undefined;
  /** Resolves once the index holds every note file present at start. */
  ready: Promise<void> = Promise.resolve();

  constructor(
    readonly paths: StorePaths,
    private readonly hooks: ServerHooks,
    options: { debounceMs?: number; searchBackend?: 'auto' | 'memory' } = {},
  ) {
    this.index = new NoteIndex(paths.files, undefined, paths.workspace);
    this.staleness = new StalenessTracker(path.join(paths.index, 'note-baselines'));
    const lookup = new NoteLookup(paths, this.index, this.staleness);
    this.writer = new StoreWriter(paths, this.index, this.staleness, (changes) => this.publish(changes, [], false), hooks.log);
    this.notes = new NotesService(lookup, this.index, this.staleness);
    this.lenses = new NoteLenses(this.notes, () => this.scheduleLensRefresh());
    this.search = new ServerSearch(paths, options.searchBackend ?? 'auto', {
      backendChanged: (b, r) => hooks.searchBackend?.(b, r),
      log: hooks.log,
    });
    this.tasks = new ServerTasks(paths);
    this.arrivals = new TeammateArrivalsWatch(paths, (a) => hooks.teammateArrivals?.(a), hooks.log);
    this.teamMerge = new TeamMerge(paths, hooks.log);
    this.events = new StoreEvents(paths, (batch) => void this.onBatch(batch), options.debounceMs);
  }

  /** A file event the client forwarded (absolute path of a created, changed or deleted file). */
  fileChanged(file: string): void {
    this.events.add(file);
  }

  /** Builds the note index (the search index opens on the first query). */
  start(): Promise<void> {
    const started = Date.now();
    this.ready = this.index.rebuild().then(
      () => this.hooks.log(`indexed ${this.index.size} note files in ${Date.now() - started} ms (${this.paths.files})`),
      (error: unknown) => this.hooks.log(`index build failed: ${(error as Error).stack ?? String(error)}`),
    );
    // A pull made while the window was closed is news now; off the start's path (git runs).
    if (this.hooks.teammateArrivals) void this.ready.then(() => this.arrivals.start());
    return this.ready;
  }

  dispose(): void {
    this.teamMerge.dispose();
    this.events.dispose();
    this.arrivals.dispose();
    this.search.dispose();
    this.tasks.dispose();
    if (this.lensTimer) clearTimeout(this.lensTimer);
  }

  /** Absolute path of a recorded (workspace-relative or absolute) note path. */
  absoluteOf(recorded: string): string {
    return path.resolve(this.paths.workspace, recorded);
  }

  scheduleLensRefresh(): void {
    if (this.lensTimer) return;
    this.lensTimer = setTimeout(() => {
      this.lensTimer = undefined;
      this.hooks.refreshCodeLenses();
    }, LENS_REFRESH_DEBOUNCE_MS);
  }

  private async onBatch(batch: StoreChangeBatch): Promise<void> {
    await this.ready;
    this.teamMerge.check();
    const all = batch.noteFiles === 'all';
    const changes = await this.index.refresh(all ? undefined : batch.noteFiles);
    const storeFiles = [...batch.storeFiles].map((name) => path.join(this.paths.root, name));
    this.publish(changes, storeFiles, all);
    this.hooks.storeChanged?.({ files: [...batch.changed].map((f) => storeRelative(this.paths, f)).sort(), ...(all ? { all } : {}) });
    this.captureBaselines(changes);
    // A pull, merge or checkout changes the store's files: did git move HEAD, and what came with it?
    if (this.hooks.teammateArrivals) void this.arrivals.check();
    await this.search.changed(all ? 'all' : [...batch.changed]);
  }

  private publish(changes: IndexChange[], storeFiles: string[], all: boolean): void {
    if (changes.length === 0 && storeFiles.length === 0 && !all) return;
    const files = new Set<string>(storeFiles);
    for (const change of changes) {
      files.add(path.join(this.paths.files, change.name));
      if (change.before?.path) files.add(this.absoluteOf(change.before.path));
      if (change.after?.path) files.add(this.absoluteOf(change.after.path));
    }
    const uris = [...files].sort().map((f) => pathToFileURL(f).toString());
    this.hooks.notesChanged(all ? { uris, all } : { uris });
    if (changes.length > 0 || all) this.scheduleLensRefresh();
  }

  /** A note file just written usually describes the file as it is now: remember its lines. */
  private captureBaselines(changes: IndexChange[]): void {
    const fresh = changes.filter((c) => c.after?.path && c.after.fingerprint).slice(0, MAX_BASELINES_PER_BATCH);
    if (fresh.length === 0) return;
    setImmediate(() => {
      for (const change of fresh) this.staleness.captureIfCurrent(this.absoluteOf(change.after!.path), change.after!);
    });
  }
}

/**
 * Watches the knowledge store so that hand edits, harvests and `lore` runs in a terminal reach
 * open editors within a second: `files/` for note files, the store root for category files and
 * for `files/` coming and going. A store that does not exist yet is waited for by watching the
 * nearest existing ancestor. Events are debounced (~150 ms) into one batch: a harvest or a git
 * checkout touches many files at once, and atomic writes fire several events per file.
 *
 * fs.watch is not recursive here on purpose: the store is two levels deep and non-recursive
 * watches work the same on every platform.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** What changed during one debounce window. */
export interface StoreChangeBatch {
  /** Note file names in files/ that changed, or 'all' when they must be rescanned. */
  noteFiles: Set<string> | 'all';
  /** Store-root markdown files (category files, digest) that changed. */
  storeFiles: Set<string>;
}

export const DEFAULT_DEBOUNCE_MS = 150;

export class StoreWatcher {
  private rootWatcher: fs.FSWatcher | undefined;
  private filesWatcher: fs.FSWatcher | undefined;
  private ancestorWatcher: fs.FSWatcher | undefined;
  private poll: NodeJS.Timeout | undefined;
  private timer: NodeJS.Timeout | undefined;
  private pendingNotes: Set<string> | 'all' = new Set();
  private readonly pendingStore = new Set<string>();
  private disposed = false;

  constructor(
    private readonly root: string,
    private readonly onBatch: (batch: StoreChangeBatch) => void,
    private readonly log: (message: string) => void,
    private readonly debounceMs = DEFAULT_DEBOUNCE_MS,
  ) {}

  /** Attaches the watchers that fit what exists now. */
  start(): void {
    this.attach();
  }

  dispose(): void {
    this.disposed = true;
    this.detach();
    if (this.timer) clearTimeout(this.timer);
  }

  private get filesDir(): string {
    return path.join(this.root, 'files');
  }

  private attach(): void {
    if (this.disposed) return;
    if (!isDirectory(this.root)) {
      this.closeStoreWatchers();
      this.watchAncestor();
      return;
    }
    this.closeAncestorWatcher();
    this.rootWatcher ??= this.watch(this.root, (name) => this.onRootEvent(name));
    if (isDirectory(this.filesDir)) {
      this.filesWatcher ??= this.watch(this.filesDir, (name) => this.onFilesEvent(name));
    } else if (this.filesWatcher) {
      this.filesWatcher.close();
      this.filesWatcher = undefined;
    }
  }

  private watch(dir: string, onEvent: (name: string | null) => void): fs.FSWatcher | undefined {
    try {
      const watcher = fs.watch(dir, { persistent: false }, (_event, name) => onEvent(name === null ? null : String(name)));
      // A watched folder that is deleted errors (or just ends); re-evaluate the layout then.
      watcher.on('error', () => this.onLayoutChange());
      watcher.on('close', () => undefined);
      return watcher;
    } catch (error) {
      this.log(`cannot watch ${dir}: ${(error as Error).message}`);
      return undefined;
    }
  }

  private onRootEvent(name: string | null): void {
    if (name === null || name === 'files') {
      this.onLayoutChange();
      return;
    }
    if (name.endsWith('.md') && !name.startsWith('.')) {
      this.pendingStore.add(name);
      this.schedule();
    }
    // The root itself may have been removed; rename events on it arrive here too.
    if (!isDirectory(this.root)) this.onLayoutChange();
  }

  private onFilesEvent(name: string | null): void {
    if (this.pendingNotes === 'all') return this.schedule();
    if (name === null) this.pendingNotes = 'all';
    else if (name.endsWith('.md') && !name.startsWith('.')) this.pendingNotes.add(name);
    else return;
    this.schedule();
  }

  /**
   * `files/` or the store appeared or vanished: re-attach (a folder deleted and re-created keeps
   * no watch, so every store watcher is replaced) and rescan everything.
   */
  private onLayoutChange(): void {
    this.closeStoreWatchers();
    this.pendingNotes = 'all';
    this.schedule();
  }

  private watchAncestor(): void {
    if (this.ancestorWatcher || this.poll) return;
    let dir = path.dirname(this.root);
    while (!isDirectory(dir) && path.dirname(dir) !== dir) dir = path.dirname(dir);
    const check = () => {
      if (isDirectory(this.root)) return this.onLayoutChange();
      // A closer ancestor may have appeared (the workspace folder itself): watch that one.
      this.closeAncestorWatcher();
      this.watchAncestor();
    };
    this.ancestorWatcher = isDirectory(dir) ? this.watch(dir, check) : undefined;
    // Where even the ancestor cannot be watched, look every two seconds instead.
    if (!this.ancestorWatcher) this.poll = setInterval(check, 2000).unref();
  }

  private schedule(): void {
    if (this.disposed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), this.debounceMs);
  }

  private flush(): void {
    this.timer = undefined;
    const batch: StoreChangeBatch = { noteFiles: this.pendingNotes, storeFiles: new Set(this.pendingStore) };
    const layout = batch.noteFiles === 'all';
    this.pendingNotes = new Set();
    this.pendingStore.clear();
    if (layout) this.attach();
    if (batch.noteFiles !== 'all' && batch.noteFiles.size === 0 && batch.storeFiles.size === 0) return;
    this.onBatch(batch);
  }

  private closeStoreWatchers(): void {
    this.rootWatcher?.close();
    this.filesWatcher?.close();
    this.rootWatcher = undefined;
    this.filesWatcher = undefined;
  }

  private closeAncestorWatcher(): void {
    this.ancestorWatcher?.close();
    this.ancestorWatcher = undefined;
    if (this.poll) clearInterval(this.poll);
    this.poll = undefined;
  }

  private detach(): void {
    this.closeStoreWatchers();
    this.closeAncestorWatcher();
  }
}

function isDirectory(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

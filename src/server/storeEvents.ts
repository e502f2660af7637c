/**
 * File events about the knowledge store, as the client forwards them
 * (`workspace/didChangeWatchedFiles`, from the one VS Code file watcher the extension keeps over
 * the store, which also sees `lore` runs in a terminal and git checkouts). The server watches
 * nothing itself: the editor's watcher already handles platforms, exclusions and stores that do
 * not exist yet.
 *
 * This is the one debounce of store changes: events within DEFAULT_DEBOUNCE_MS become one batch
 * (a harvest or a checkout touches many files at once, an atomic save fires several events per
 * file), which updates the note index, the search index and, through `lore/storeChanged`, the
 * extension's views and digest.
 */
import * as path from 'node:path';
import { isInside, storeRelative, type StorePaths } from '../core/store/storePaths';

/** What changed during one debounce window. */
export interface StoreChangeBatch {
  /** Note file names in files/ that changed, or 'all' when they must be rescanned. */
  noteFiles: Set<string> | 'all';
  /** Store-root markdown files (category files, digest, review) that changed. */
  storeFiles: Set<string>;
  /** Absolute paths of every changed file in the store (the search index picks its sources). */
  changed: Set<string>;
}

const DEFAULT_DEBOUNCE_MS = 150;

/** Derived folders: their churn (the index database, the reply cache) is nobody's news. */
const DERIVED = ['.index', '.cache', '.logs'];

export class StoreEvents {
  private timer: NodeJS.Timeout | undefined;
  private pendingNotes: Set<string> | 'all' = new Set();
  private readonly pendingStore = new Set<string>();
  private readonly pendingChanged = new Set<string>();
  private disposed = false;

  constructor(
    private readonly paths: StorePaths,
    private readonly onBatch: (batch: StoreChangeBatch) => void,
    private readonly debounceMs = DEFAULT_DEBOUNCE_MS,
  ) {}

  /** One changed, created or deleted path (absolute). Paths outside the store are ignored. */
  add(file: string): void {
    if (this.disposed) return;
    const abs = path.resolve(file);
    const root = this.paths.root;
    if (abs === root || abs === this.paths.files) {
      // The store or files/ itself came or went: every note may have changed.
      this.pendingNotes = 'all';
      return this.schedule();
    }
    if (!isInside(root, abs)) return;
    const rel = storeRelative(this.paths, abs);
    const top = rel.split('/')[0];
    if (DERIVED.includes(top)) return;
    const name = path.basename(abs);
    if (name.startsWith('.')) return; // temporary files of atomic writes, the lock, `.lore-prev-…`
    this.pendingChanged.add(abs);
    const dir = path.dirname(abs);
    if (dir === this.paths.files) {
      if (this.pendingNotes !== 'all' && name.endsWith('.md')) this.pendingNotes.add(name);
    } else if (dir === root && name.endsWith('.md')) {
      this.pendingStore.add(name);
    }
    this.schedule();
  }

  /** Drops what is pending (the server is shutting down). */
  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), this.debounceMs);
  }

  private flush(): void {
    this.timer = undefined;
    const batch: StoreChangeBatch = {
      noteFiles: this.pendingNotes,
      storeFiles: new Set(this.pendingStore),
      changed: new Set(this.pendingChanged),
    };
    this.pendingNotes = new Set();
    this.pendingStore.clear();
    this.pendingChanged.clear();
    if (batch.noteFiles !== 'all' && batch.noteFiles.size === 0 && batch.changed.size === 0) return;
    this.onBatch(batch);
  }
}

/**
 * The index of a store's note files (`files/*.md`): note file name (the note's portable id) →
 * what the note file records, with lookups by recorded path, by recorded size and by the local
 * device:inode of the file the notes are about. Every process uses
 * this one index: the language server holds one for its lifetime and patches it per note file
 * from file events; the CLI, MCP, the harvest plan and context open one persisted under
 * `.index/` (noteIndexCache.ts). It is derived and rebuildable, never the source of truth: an
 * entry is checked against its note file's stat before a caller trusts it (`fresh`).
 *
 * Only meta, a note count and the note file's stat are kept per note file; the notes themselves
 * are parsed on demand by whoever needs them, which keeps a 100,000-note store small.
 *
 * The local id (device:inode) is this machine's knowledge, never written to a note file: read
 * from the recorded path when a note file is first indexed, and learned when a lookup finds a
 * file's notes by path or content (an atomic save, a checkout) or Lore writes them. It is how a
 * file moved on this machine is followed (noteLocator.ts checks it against path or content).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FENCE_LINE, isItemLine } from '../model/itemLines';
import { isNoteFileName, parseNoteFile, readCoreFrontmatter, type NoteFileMeta } from '../model/noteFile';
import { clearFrontmatterMemo } from '../base/yamlFrontmatter';
import { fileIdOf } from '../base/fileIdentity';
import { listNames } from '../base/walkTree';
import { readStoreFile } from '../base/readText';

/** One note file of the store. */
export interface IndexEntry {
  /** File name in files/, e.g. `app-ts-3k9x2m1q.md`. */
  name: string;
  /** Absolute path of the note file. */
  file: string;
  meta: NoteFileMeta;
  /** Number of notes (list items). */
  count: number;
  /** Changes whenever the note file changed, so caches keyed by it invalidate. */
  version: number;
  /** Note file stat at the last read: an unchanged triple skips the re-read. */
  mtimeMs: number;
  size: number;
  ino: number;
  /** device:inode of the file the notes are about on this machine, '' when not known. */
  localId: string;
}

/** A note file whose entry was added, changed or removed by a refresh. */
export interface IndexChange {
  name: string;
  before?: NoteFileMeta;
  after?: NoteFileMeta;
}

/** Reads a note file's text; injectable so tests can count how many note files a lookup reads. */
export type NoteReader = (file: string) => string;

const readUtf8: NoteReader = (file) => readStoreFile(file, 'utf8');

/**
 * Note files read between two yields to the event loop in the async refresh. Reads are
 * synchronous on purpose: for thousands of small files fs.promises costs ~10× more (four
 * thread-pool hops per file).
 */
const READ_CHUNK = 500;

/**
 * Number of items core's listItems would return, without building them: list-item lines at
 * column 0 outside code fences (indented lines are continuations, headings are not items).
 * Kept in step with core by a test that compares the two.
 */
export function countItems(body: string): number {
  let count = 0;
  let inFence = false;
  for (const line of body.replace(/^\ufeff/, '').split(/\r?\n/)) {
    if (FENCE_LINE.test(line)) inFence = !inFence;
    else if (!inFence && isItemLine(line)) count++;
  }
  return count;
}

/** Meta and note count of a note file's text, with the same result as core's parseNoteFile. */
export function readNoteSummary(text: string): { meta: NoteFileMeta; count: number } {
  // Lore's own frontmatter without YAML, and the items counted without building them.
  const core = readCoreFrontmatter(text);
  if (core) return { meta: core.meta, count: countItems(core.body) };
  const note = parseNoteFile(text);
  return { meta: note.meta, count: note.notes.length };
}

/** What is kept of an entry between processes (see noteIndexCache.ts). */
export type StoredEntry = Omit<IndexEntry, 'file' | 'version'>;

/**
 * Where an index read back from disk gets the entries it has not loaded yet: the part that can
 * hold a recorded path or size, or everything. Each part is handed out once.
 */
export interface StoredEntrySource {
  withPath(relative: string): StoredEntry[];
  withSize(size: number): StoredEntry[];
  withLocalId(localId: string): StoredEntry[];
  all(): StoredEntry[];
}

export class NoteIndex {
  private readonly entries = new Map<string, IndexEntry>();
  private readonly byPath = new Map<string, Set<string>>();
  private readonly bySize = new Map<number, Set<string>>();
  private readonly byLocalId = new Map<string, Set<string>>();
  private versionCounter = 0;
  private generationCounter = 0;
  /** Async refreshes run one after the other so they never interleave on the maps. */
  private queue: Promise<unknown> = Promise.resolve();
  /** Entries not loaded yet (a persisted index loads only the parts a lookup needs). */
  private source: StoredEntrySource | undefined;

  constructor(
    readonly filesDir: string,
    private readonly read: NoteReader = readUtf8,
    /** The workspace, to read the local id of a newly indexed note file's recorded path (none: not read). */
    private readonly workspace?: string,
  ) {}

  /** Changes whenever any entry changed: answers derived from the index are valid while it holds. */
  get generation(): number {
    return this.generationCounter;
  }

  get size(): number {
    this.loadAll();
    return this.entries.size;
  }

  /** The note file with this name, if indexed. */
  get(name: string): IndexEntry | undefined {
    return this.entries.get(name);
  }

  /** Note files that record this workspace-relative path, in name order. */
  withRecordedPath(relative: string): IndexEntry[] {
    if (this.source) this.restore(this.source.withPath(relative), false);
    return this.collect(this.byPath.get(relative));
  }

  /** Note files whose recorded size is `size`: the only ones a content fingerprint could match. */
  withRecordedSize(size: number): IndexEntry[] {
    if (this.source) this.restore(this.source.withSize(size), false);
    return this.collect(this.bySize.get(size));
  }

  /** Note files known to be about the file with this device:inode on this machine. */
  withLocalId(localId: string): IndexEntry[] {
    if (this.source) this.restore(this.source.withLocalId(localId), false);
    return this.collect(this.byLocalId.get(localId));
  }

  /**
   * Records that the note file `name` is about the file with `localId` here (found by path or
   * content, or just written): the next lookup of that file is direct. Changes no file.
   */
  learn(name: string, localId: string): IndexEntry | undefined {
    const entry = this.entries.get(name);
    if (!entry || entry.localId === localId) return entry;
    const learned = { ...entry, localId };
    this.remove(entry);
    this.add(learned);
    return learned;
  }

  /** Entries whose recorded path lies under a folder (for folder renames and deletions). */
  underFolder(relativeFolder: string): IndexEntry[] {
    this.loadAll();
    const prefix = relativeFolder.endsWith('/') ? relativeFolder : relativeFolder + '/';
    return [...this.entries.values()].filter((e) => e.meta.path.startsWith(prefix));
  }

  all(): IterableIterator<IndexEntry> {
    this.loadAll();
    return this.entries.values();
  }

  /** Reads every note file. Replaces what was indexed; returns the changes against it. */
  rebuild(): Promise<IndexChange[]> {
    return this.refresh(undefined);
  }

  /**
   * Re-reads the named note files (removed ones drop out); `undefined` rescans the folder.
   * Yields to the event loop between chunks (the server's first index of 10,000 files).
   */
  refresh(names?: Iterable<string>): Promise<IndexChange[]> {
    const list = names === undefined ? undefined : [...names];
    const task = async () => {
      const targets = this.targetsOf(list);
      const loaded: Array<{ name: string; entry: IndexEntry | null }> = [];
      for (let i = 0; i < targets.length; i++) {
        if (i > 0 && i % READ_CHUNK === 0) await new Promise((resolve) => setImmediate(resolve));
        const entry = this.load(targets[i]);
        if (entry !== undefined) loaded.push({ name: targets[i], entry });
      }
      return this.apply(loaded);
    };
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** The synchronous refresh, for one-shot processes (CLI, MCP) and for a handful of names. */
  refreshSync(names?: Iterable<string>): IndexChange[] {
    const loaded: Array<{ name: string; entry: IndexEntry | null }> = [];
    for (const name of this.targetsOf(names)) {
      const entry = this.load(name);
      if (entry !== undefined) loaded.push({ name, entry });
    }
    return this.apply(loaded);
  }

  /**
   * The entry of `name` as its note file is now: one stat, and a re-read only when the note file
   * changed since it was indexed (an edit by hand, another process). The gate every answer
   * from a persisted index goes through.
   */
  fresh(name: string): IndexEntry | undefined {
    this.refreshSync([name]);
    return this.entries.get(name);
  }

  /** Entries as stored between processes. */
  stored(): StoredEntry[] {
    this.loadAll();
    return [...this.entries.values()].map(({ name, meta, count, mtimeMs, size, ino, localId }) => ({
      name,
      meta,
      count,
      mtimeMs,
      size,
      ino,
      localId,
    }));
  }

  /**
   * Adds entries read back from a persisted index (trusted as they are; `fresh` checks each
   * before use). `replace: false` keeps entries already loaded, which may be newer.
   */
  restore(stored: Iterable<StoredEntry>, replace = true): void {
    for (const s of stored) {
      const before = this.entries.get(s.name);
      if (before && !replace) continue;
      if (before) this.remove(before);
      this.add({ ...s, file: path.join(this.filesDir, s.name), version: ++this.versionCounter });
    }
  }

  /** Loads entries from `source` as lookups need them, instead of all at once. */
  loadLazily(source: StoredEntrySource): void {
    this.source = source;
  }

  private loadAll(): void {
    const source = this.source;
    this.source = undefined;
    if (source) this.restore(source.all(), false);
  }

  private targetsOf(names: Iterable<string> | undefined): string[] {
    if (names !== undefined) return [...names].filter(isNoteFileName);
    this.loadAll();
    // No files/ folder (yet): nothing is listed and every entry goes.
    const listed = listNames(this.filesDir).filter(isNoteFileName);
    const present = new Set(listed);
    return [...listed, ...[...this.entries.keys()].filter((n) => !present.has(n))];
  }

  /**
   * Applies what was read in one synchronous step, so a request served between two reads never
   * sees a renamed note file (a migration) gone from its old name and not yet under its new one.
   */
  private apply(loaded: Array<{ name: string; entry: IndexEntry | null }>): IndexChange[] {
    if (loaded.length > 0) clearFrontmatterMemo();
    const changes: IndexChange[] = [];
    for (const { name, entry } of loaded) {
      const before = this.entries.get(name);
      if (before) this.remove(before);
      if (entry) this.add(entry);
      if (before || entry) changes.push({ name, before: before?.meta, after: entry?.meta });
    }
    return changes;
  }

  /**
   * Reads one note file: its new entry, null when it is gone, undefined when nothing changed.
   * An unchanged mtime, size and inode skip the read: our own writes are re-read at once and
   * then reported again by file events, and atomic writes change the inode.
   */
  private load(name: string): IndexEntry | null | undefined {
    const file = path.join(this.filesDir, name);
    const before = this.entries.get(name);
    let stat: fs.Stats;
    let text: string;
    try {
      stat = fs.statSync(file);
      if (!stat.isFile()) throw new Error('not a file');
      if (before && before.mtimeMs === stat.mtimeMs && before.size === stat.size && before.ino === stat.ino) return undefined;
      text = this.read(file);
    } catch {
      return before ? null : undefined;
    }
    const { meta, count } = readNoteSummary(text);
    // An edit that kept the recorded path keeps what this machine learned about the file.
    const localId = before && before.meta.path === meta.path ? before.localId : this.localIdAt(meta.path);
    return { name, file, meta, count, version: ++this.versionCounter, mtimeMs: stat.mtimeMs, size: stat.size, ino: stat.ino, localId };
  }

  /** device:inode of the file at a recorded path now, '' when there is none (or no workspace to look in). */
  private localIdAt(recorded: string): string {
    if (!this.workspace || !recorded) return '';
    const stat = fs.statSync(path.resolve(this.workspace, recorded), { bigint: true, throwIfNoEntry: false });
    return stat?.isFile() ? fileIdOf(stat) : '';
  }

  private add(entry: IndexEntry): void {
    this.generationCounter++;
    this.entries.set(entry.name, entry);
    if (entry.meta.path) addTo(this.byPath, entry.meta.path, entry.name);
    if (entry.meta.size >= 0) addTo(this.bySize, entry.meta.size, entry.name);
    if (entry.localId) addTo(this.byLocalId, entry.localId, entry.name);
  }

  private remove(entry: IndexEntry): void {
    this.generationCounter++;
    this.entries.delete(entry.name);
    removeFrom(this.byPath, entry.meta.path, entry.name);
    removeFrom(this.bySize, entry.meta.size, entry.name);
    removeFrom(this.byLocalId, entry.localId, entry.name);
  }

  private collect(names: Set<string> | undefined): IndexEntry[] {
    if (!names) return [];
    return [...names]
      .sort()
      .map((n) => this.entries.get(n)!)
      .filter(Boolean);
  }
}

function addTo<K>(map: Map<K, Set<string>>, key: K, name: string): void {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(name);
}

function removeFrom<K>(map: Map<K, Set<string>>, key: K, name: string): void {
  const set = map.get(key);
  if (!set) return;
  set.delete(name);
  if (set.size === 0) map.delete(key);
}

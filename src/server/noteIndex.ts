/**
 * The server's in-memory index of `files/*.md`: note file name (the device-inode key) → what the
 * note file records, plus lookups by recorded path and recorded size. It is built once and then
 * patched per note file from watcher events, so a lookup never lists the folder.
 *
 * Only meta and a note count are kept per note file; the notes themselves are parsed on demand
 * for the few files that are open (a bounded cache), which keeps a 100,000-note store small.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import matter from 'gray-matter';
import { stripProvenance } from '../core/knowledge/provenance';
import { parseNoteFile, type NoteFileMeta } from '../core/store/noteFile';
import type { NoteInfo } from '../shared/protocol';

/** One note file of the store. */
export interface IndexEntry {
  /** File name in files/, e.g. `2049-1234.md`. */
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
}

/** A note file whose entry was added, changed or removed by a refresh. */
export interface IndexChange {
  name: string;
  before?: NoteFileMeta;
  after?: NoteFileMeta;
}

const NOTES_CACHE_LIMIT = 256;
/**
 * Note files read between two yields to the event loop. Reads are synchronous on purpose: for
 * thousands of small files fs.promises costs ~10× more (four thread-pool hops per file).
 */
const READ_CHUNK = 500;

/**
 * gray-matter (core's frontmatter parser) memoizes every text it parses, for the life of the
 * process. Harmless in the CLI, a leak in a server that re-reads note files for hours.
 * `clearCache` exists at run time but not in its typings.
 */
function clearFrontmatterCache(): void {
  (matter as unknown as { clearCache?: () => void }).clearCache?.();
}

/**
 * The frontmatter exactly as core's renderNoteFile writes it (JSON strings are YAML scalars).
 * Reading it with a regex is ~5× faster than gray-matter, which matters for the 10,000 files
 * of a first index; anything else (hand-edited, CRLF, reordered) goes through core's parser.
 */
const CORE_FRONTMATTER = /^---\npath: ("(?:[^"\\\n]|\\.)*")\nfile_id: ("(?:[^"\\\n]|\\.)*")\nsize: (-?\d+)\nfingerprint: ("(?:[^"\\\n]|\\.)*")\n---\n/;

/**
 * Number of items core's listItems would return, without building them: list-item lines at
 * column 0 outside code fences (indented lines are continuations, headings are not items).
 * Kept in step with core by a test that compares the two.
 */
export function countItems(body: string): number {
  let count = 0;
  let inFence = false;
  for (const line of body.replace(/^\ufeff/, '').split(/\r?\n/)) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    else if (!inFence && /^[-*+]\s/.test(line)) count++;
  }
  return count;
}

/** Meta and note count of a note file's text, with the same result as core's parseNoteFile. */
export function readNoteSummary(text: string): { meta: NoteFileMeta; count: number } {
  const match = CORE_FRONTMATTER.exec(text);
  if (match) {
    try {
      const meta: NoteFileMeta = { path: JSON.parse(match[1]), fileId: JSON.parse(match[2]), size: Number(match[3]), fingerprint: JSON.parse(match[4]) };
      return { meta, count: countItems(text.slice(match[0].length)) };
    } catch {
      // Not valid JSON after all: let the real parser decide.
    }
  }
  const note = parseNoteFile(text);
  return { meta: note.meta, count: note.notes.length };
}

function isNoteFileName(name: string): boolean {
  return name.endsWith('.md') && !name.startsWith('.');
}

/** 0-based line of each note in the whole file: `KnowledgeItem.line` counts from the body. */
function noteLines(text: string, raws: string[]): number[] {
  const lines = text.replace(/^\ufeff/, '').split(/\r?\n/);
  const out: number[] = [];
  let from = 0;
  for (const raw of raws) {
    let at = lines.indexOf(raw, from);
    if (at < 0) at = lines.indexOf(raw);
    out.push(at);
    if (at >= 0) from = at + 1;
  }
  return out;
}

export class NoteIndex {
  private readonly entries = new Map<string, IndexEntry>();
  private readonly byPath = new Map<string, Set<string>>();
  private readonly bySize = new Map<number, Set<string>>();
  private readonly notesCache = new Map<string, { version: number; notes: NoteInfo[] }>();
  private versionCounter = 0;
  private generationCounter = 0;
  /** Builds and refreshes run one after the other so they never interleave on the maps. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly filesDir: string) {}

  /** Changes whenever any entry changed: answers derived from the index are valid while it holds. */
  get generation(): number {
    return this.generationCounter;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The note file with this name (the device-inode key), if indexed. */
  get(name: string): IndexEntry | undefined {
    return this.entries.get(name);
  }

  /** Note files that record this workspace-relative path, in name order (as core searches). */
  withRecordedPath(relative: string): IndexEntry[] {
    return this.collect(this.byPath.get(relative));
  }

  /** Note files whose recorded size is `size`: the only ones a content fingerprint could match. */
  withRecordedSize(size: number): IndexEntry[] {
    return this.collect(this.bySize.get(size));
  }

  /** Entries whose recorded path lies under a folder (for folder renames). */
  underFolder(relativeFolder: string): IndexEntry[] {
    const prefix = relativeFolder.endsWith('/') ? relativeFolder : relativeFolder + '/';
    return [...this.entries.values()].filter((e) => e.meta.path.startsWith(prefix));
  }

  all(): IterableIterator<IndexEntry> {
    return this.entries.values();
  }

  /** Reads every note file. Replaces what was indexed; returns the changes against it. */
  rebuild(): Promise<IndexChange[]> {
    return this.enqueue(() => this.refreshNow(undefined));
  }

  /** Re-reads the named note files (removed ones drop out); `undefined` rescans the folder. */
  refresh(names?: Iterable<string>): Promise<IndexChange[]> {
    const list = names === undefined ? undefined : [...names];
    return this.enqueue(() => this.refreshNow(list));
  }

  /** The notes of an entry, parsed from disk on first use and cached until the entry changes. */
  notesOf(entry: IndexEntry): NoteInfo[] {
    const cached = this.notesCache.get(entry.name);
    if (cached && cached.version === entry.version) {
      // Re-insert so the Map's order is least-recently-used first.
      this.notesCache.delete(entry.name);
      this.notesCache.set(entry.name, cached);
      return cached.notes;
    }
    let text: string;
    try {
      text = fs.readFileSync(entry.file, 'utf8');
    } catch {
      return [];
    }
    const parsed = parseNoteFile(text);
    clearFrontmatterCache();
    const lines = noteLines(text, parsed.notes.map((n) => n.raw));
    const notes = parsed.notes.map((item, i): NoteInfo => ({
      text: stripProvenance(item.text),
      raw: item.raw,
      provenance: item.provenance ? { source: item.provenance.source, date: item.provenance.date } : undefined,
      line: lines[i] >= 0 ? lines[i] : item.line,
      noteFile: entry.file,
    }));
    this.notesCache.set(entry.name, { version: entry.version, notes });
    if (this.notesCache.size > NOTES_CACHE_LIMIT) this.notesCache.delete(this.notesCache.keys().next().value!);
    return notes;
  }

  private enqueue<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async refreshNow(names: string[] | undefined): Promise<IndexChange[]> {
    let targets: string[];
    if (names === undefined) {
      let listed: string[] = [];
      try {
        listed = fs.readdirSync(this.filesDir).filter(isNoteFileName);
      } catch {
        // No files/ folder (yet): every entry goes.
      }
      const present = new Set(listed);
      targets = [...listed, ...[...this.entries.keys()].filter((n) => !present.has(n))];
    } else {
      targets = names.filter(isNoteFileName);
    }
    // Read everything first and apply in one synchronous step, so a request served between two
    // reads never sees a re-keyed note file gone from its old name and not yet under its new one.
    const loaded: Array<{ name: string; entry: IndexEntry | null }> = [];
    for (let i = 0; i < targets.length; i++) {
      if (i > 0 && i % READ_CHUNK === 0) await new Promise((resolve) => setImmediate(resolve));
      const entry = this.load(targets[i]);
      if (entry !== undefined) loaded.push({ name: targets[i], entry });
    }
    clearFrontmatterCache();
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
   * then reported again by the watcher, and atomic writes change the inode.
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
      text = fs.readFileSync(file, 'utf8');
    } catch {
      return before ? null : undefined;
    }
    const { meta, count } = readNoteSummary(text);
    return { name, file, meta, count, version: ++this.versionCounter, mtimeMs: stat.mtimeMs, size: stat.size, ino: stat.ino };
  }

  private add(entry: IndexEntry): void {
    this.generationCounter++;
    this.entries.set(entry.name, entry);
    if (entry.meta.path) addTo(this.byPath, entry.meta.path, entry.name);
    if (entry.meta.size >= 0) addTo(this.bySize, entry.meta.size, entry.name);
  }

  private remove(entry: IndexEntry): void {
    this.generationCounter++;
    this.entries.delete(entry.name);
    this.notesCache.delete(entry.name);
    removeFrom(this.byPath, entry.meta.path, entry.name);
    removeFrom(this.bySize, entry.meta.size, entry.name);
  }

  private collect(names: Set<string> | undefined): IndexEntry[] {
    if (!names) return [];
    return [...names].sort().map((n) => this.entries.get(n)!).filter(Boolean);
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

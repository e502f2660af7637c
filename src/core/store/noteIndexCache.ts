/**
 * The note index of a one-shot process (the CLI, MCP, a harvest plan, context), kept between
 * runs under `.index/notes/`: derived, git-ignored, deletable, never the source of truth.
 *
 * Sharded so a lookup reads what it needs, not the store's index: `p-XX.json` hold the entries
 * whose recorded path hashes to XX, `s-XX.json` those whose recorded size is XX modulo the
 * shard count, `i-XX.json` those whose local device:inode hashes to XX (about one shard per 64
 * note files, at most 256 of each kind), and
 * `state.json` says for which state of `files/` the shards are complete. A lookup for a file
 * without notes reads one stat of its would-be note file and two small shards.
 *
 * Trust is checked, not assumed. Every write Lore makes to a note file is a rename (atomic
 * writes, migrations, removals), and so is a git checkout, a `mv` or a delete: each changes the
 * mtime of `files/`. While that mtime is the one `state.json` records, the set of note files is
 * the one indexed, and each entry a lookup touches is checked by its own stat
 * (NoteIndex.fresh), so a hand edit of a note file is seen when that file is looked at. When the
 * mtime moved, one listing and one stat per note file bring the index up to date (re-reading
 * only changed note files) and the shards are written again. What this misses: an in-place edit
 * of a note file's recorded path or size, by hand, in a note file no lookup touches; the next
 * change to the folder or `lore notes heal` (which reads every note file) repairs it.
 *
 * Lore's own writes would make every next process re-list (an agent adding notes to files
 * without notes creates a note file per call: a stat of 10,000 note files each time). A writer
 * holding the store lock, whose index was trusted when it opened, records instead what it wrote
 * (recordOwnWrites): the new folder mtime, and the names it wrote in `journal`, which the next
 * process re-reads on open (their shard entries may be stale). What this adds to the misses
 * above: a note file another program (git) adds or removes within the same file-system
 * timestamp tick as Lore's write, which the folder's mtime cannot tell apart from it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../base/atomicWrite';
import { NoteIndex, type NoteReader, type StoredEntry, type StoredEntrySource } from './noteIndex';
import { isNoteFileName } from '../model/noteFile';
import type { StorePaths } from './storePaths';
import { mkdirNoFollow, removeNoFollow } from '../base/storeLinks';
import { pushAll } from '../base/bulkArrays';
import { readStoreFile } from '../base/readText';

const DIR_NAME = 'notes';
const FORMAT = 4;
/** Names recorded by own writes before a re-list is cheaper than re-reading them all at each open. */
const MAX_JOURNAL = 64;
/** About this many entries per shard; a small store has one shard of each kind, a large one up to 256. */
const ENTRIES_PER_SHARD = 64;
const MAX_SHARDS = 256;
/**
 * A folder changed this recently may change again within the same file-system timestamp tick
 * without its mtime moving: such an index is saved as untrusted, and the next process re-lists.
 */
const RACY_MS = 100;

/**
 * state.json. Checked by hand, like the shards: this derived memo is read by every one-shot
 * process (a hook must answer in milliseconds, and loading zod costs more than the lookup), and
 * anything unexpected only means a rebuild, never a lost note.
 */
interface IndexState {
  format: typeof FORMAT;
  filesDir: string;
  /** mtime of files/ in nanoseconds when the shards were complete; null: re-list before trusting. */
  dirMtimeNs: string | null;
  /** Shards of each kind: a power of two up to MAX_SHARDS. */
  shards: number;
  /** Note files Lore wrote since the shards were written (see recordOwnWrites): re-read on open. */
  journal?: string[];
}

function isIndexState(value: unknown): value is IndexState {
  const v = value as Partial<IndexState> | null;
  return (
    !!v &&
    typeof v === 'object' &&
    v.format === FORMAT &&
    typeof v.filesDir === 'string' &&
    (v.dirMtimeNs === null || typeof v.dirMtimeNs === 'string') &&
    Number.isInteger(v.shards) &&
    v.shards! >= 1 &&
    v.shards! <= MAX_SHARDS &&
    (v.shards! & (v.shards! - 1)) === 0 &&
    (v.journal === undefined ||
      (Array.isArray(v.journal) &&
        v.journal.length <= MAX_JOURNAL &&
        v.journal.every((n) => typeof n === 'string' && isNoteFileName(n) && !n.includes('/') && !n.includes('\\'))))
  );
}

/** [name, path, id, size, fingerprint, count, mtimeMs, fileSize, ino, localId]: arrays parse faster than objects. */
type EntryTuple = [string, string, string, number, string, number, number, number, number, string];
const TUPLE_TYPES = ['string', 'string', 'string', 'number', 'string', 'number', 'number', 'number', 'number', 'string'];

export interface OpenNoteIndexOptions {
  /** Reads a note file (tests count reads through it). */
  read?: NoteReader;
  /** Save what a re-list found (default). Off for a dry run, which promises to write nothing. */
  persist?: boolean;
}

function dirOf(paths: StorePaths): string {
  return path.join(paths.index, DIR_NAME);
}

/** The file that says whether the persisted index can be trusted (delete it to force a rebuild). */
export function noteIndexMemoFile(paths: StorePaths): string {
  return path.join(dirOf(paths), 'state.json');
}

/** FNV-1a: a stable, cheap spread of paths over the shards (no security property needed). */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

const hex = (n: number) => n.toString(16).padStart(2, '0');
const pathShard = (relative: string, shards: number) => `p-${hex(hashOf(relative) % shards)}.json`;
const sizeShard = (size: number, shards: number) => `s-${hex(size % shards)}.json`;
const localShard = (localId: string, shards: number) => `i-${hex(hashOf(localId) % shards)}.json`;

function shardCountFor(entries: number): number {
  let count = 1;
  while (count < MAX_SHARDS && count * ENTRIES_PER_SHARD < entries) count *= 2;
  return count;
}

function toTuple(e: StoredEntry): EntryTuple {
  return [e.name, e.meta.path, e.meta.id, e.meta.size, e.meta.fingerprint, e.count, e.mtimeMs, e.size, e.ino, e.localId];
}

function fromTuple(t: EntryTuple): StoredEntry {
  const [name, recorded, id, size, fingerprint, count, mtimeMs, fileSize, ino, localId] = t;
  return { name, meta: { path: recorded, id, size, fingerprint }, count, mtimeMs, size: fileSize, ino, localId };
}

function isEntryTuple(value: unknown): value is EntryTuple {
  return Array.isArray(value) && value.length === TUPLE_TYPES.length && value.every((v, i) => typeof v === TUPLE_TYPES[i]);
}

class ShardCorrupt extends Error {}

/** Reads shards on demand, each once; a missing shard is empty, a broken one throws ShardCorrupt. */
class ShardSource implements StoredEntrySource {
  private readonly taken = new Set<string>();
  private readonly texts = new Map<string, string | undefined>();

  constructor(
    private readonly dir: string,
    private readonly shards: number,
  ) {}

  withPath(relative: string): StoredEntry[] {
    return this.take(pathShard(relative, this.shards));
  }

  withSize(size: number): StoredEntry[] {
    return size >= 0 ? this.take(sizeShard(size, this.shards)) : [];
  }

  withLocalId(localId: string): StoredEntry[] {
    return localId ? this.take(localShard(localId, this.shards)) : [];
  }

  all(): StoredEntry[] {
    const out: StoredEntry[] = [];
    for (let i = 0; i < this.shards; i++) pushAll(out, this.take(`p-${hex(i)}.json`));
    return out;
  }

  /** A shard's text as on disk (undefined when missing or unreadable): a re-list rewrites only shards that differ. */
  text(name: string): string | undefined {
    if (!this.texts.has(name)) {
      try {
        this.texts.set(name, readStoreFile(path.join(this.dir, name), 'utf8'));
      } catch {
        this.texts.set(name, undefined);
      }
    }
    return this.texts.get(name);
  }

  private take(name: string): StoredEntry[] {
    if (this.taken.has(name)) return [];
    this.taken.add(name);
    let parsed: unknown;
    try {
      const text = this.text(name);
      if (text === undefined) return [];
      parsed = JSON.parse(text);
    } catch (error) {
      throw new ShardCorrupt(`${name}: ${(error as Error).message}`);
    }
    if (!Array.isArray(parsed) || !parsed.every(isEntryTuple))
      throw new ShardCorrupt(`${name}: not a list of [name, path, id, size, fingerprint, count, mtimeMs, fileSize, ino, localId]`);
    return parsed.map(fromTuple);
  }
}

function readState(paths: StorePaths): IndexState | undefined {
  try {
    const parsed: unknown = JSON.parse(readStoreFile(noteIndexMemoFile(paths), 'utf8'));
    return isIndexState(parsed) && parsed.filesDir === paths.files ? parsed : undefined;
  } catch {
    return undefined; // Missing or unreadable: rebuild it.
  }
}

/**
 * Writes the shards that changed against `previous` (all without it), then the state; the state
 * is first marked untrusted, so a crash in between makes the next process re-list.
 */
function save(paths: StorePaths, index: NoteIndex, dirMtimeNs: string | null, previous?: ShardSource): boolean {
  if (!fs.existsSync(paths.root)) return false; // Never create a store as a side effect of a lookup.
  const dir = dirOf(paths);
  const stored = index.stored();
  const count = shardCountFor(stored.length);
  const shards = new Map<string, EntryTuple[]>();
  for (let i = 0; i < count; i++) {
    shards.set(`p-${hex(i)}.json`, []);
    shards.set(`s-${hex(i)}.json`, []);
    shards.set(`i-${hex(i)}.json`, []);
  }
  for (const entry of stored) {
    const tuple = toTuple(entry);
    shards.get(pathShard(entry.meta.path, count))!.push(tuple);
    if (entry.meta.size >= 0) shards.get(sizeShard(entry.meta.size, count))!.push(tuple);
    if (entry.localId) shards.get(localShard(entry.localId, count))!.push(tuple);
  }
  const state = (mtime: string | null) => JSON.stringify({ format: FORMAT, filesDir: paths.files, dirMtimeNs: mtime, shards: count });
  try {
    mkdirNoFollow(dir);
    writeFileAtomic(noteIndexMemoFile(paths), state(null), { durable: false });
    for (const [name, tuples] of shards) {
      const text = JSON.stringify(tuples);
      if (previous?.text(name) !== text) writeFileAtomic(path.join(dir, name), text, { durable: false });
    }
    // Shards of an earlier, larger count would never be read again.
    for (const name of fs.readdirSync(dir))
      if (/^[psi]-[0-9a-f]{2}\.json$/.test(name) && !shards.has(name)) removeNoFollow(path.join(dir, name), { force: true });
    if (dirMtimeNs !== null) writeFileAtomic(noteIndexMemoFile(paths), state(dirMtimeNs), { durable: false });
    return true;
  } catch {
    // A read-only store still answers lookups; it just re-lists next time.
    return false;
  }
}

/**
 * The note index of `paths`, read back from `.index/notes/` (lazily: a lookup loads the shards
 * it needs) and brought up to date with the folder when the folder changed (see above).
 */
export function openNoteIndex(paths: StorePaths, options: OpenNoteIndexOptions = {}): NoteIndex {
  const dir = fs.statSync(paths.files, { bigint: true, throwIfNoEntry: false });
  if (!dir?.isDirectory()) return new NoteIndex(paths.files, options.read, paths.workspace);
  const state = readState(paths);
  const mtimeNs = String(dir.mtimeNs);
  if (state && state.dirMtimeNs === mtimeNs) {
    const index = new NoteIndex(paths.files, options.read, paths.workspace);
    index.loadLazily(
      new TrustingSource(new ShardSource(dirOf(paths), state.shards), () => relist(paths, index, undefined, options.persist ?? true)),
    );
    // Written by Lore since the shards were: these entries are read now and win over the shards'.
    if (state.journal?.length) index.refreshSync(state.journal);
    trustedAt.set(index, mtimeNs);
    return index;
  }
  const index = new NoteIndex(paths.files, options.read, paths.workspace);
  const saved = relist(paths, index, state ? new ShardSource(dirOf(paths), state.shards) : undefined, options.persist ?? true);
  if (saved) trustedAt.set(index, saved);
  return index;
}

/** The folder mtime an index opened by openNoteIndex was complete for (own writes move it on). */
const trustedAt = new WeakMap<NoteIndex, string>();

/**
 * Records note files Lore just wrote (created, replaced or removed), so that the next process
 * trusts the persisted index instead of re-listing files/ (see the header). Call it holding the
 * store lock, with the index the writes were planned on and every note file name they touched;
 * it does nothing unless that index was complete when it was opened and no other process saved
 * one since. Never throws: at worst the next process re-lists.
 */
export function recordOwnWrites(paths: StorePaths, index: NoteIndex, names: string[]): void {
  const trusted = trustedAt.get(index);
  if (trusted === undefined) return;
  trustedAt.delete(index);
  try {
    const state = readState(paths);
    const dir = fs.statSync(paths.files, { bigint: true, throwIfNoEntry: false });
    if (!state || state.dirMtimeNs !== trusted || !dir) return;
    const mtimeNs = String(dir.mtimeNs);
    // An append in place leaves the folder as it was: nothing to record.
    if (mtimeNs === trusted) return void trustedAt.set(index, trusted);
    index.refreshSync(names);
    const journal = [...new Set([...(state.journal ?? []), ...names])];
    // A long journal: let the next process re-list and write the shards afresh.
    const next: IndexState =
      journal.length > MAX_JOURNAL ? { ...state, dirMtimeNs: null, journal: undefined } : { ...state, dirMtimeNs: mtimeNs, journal };
    writeFileAtomic(noteIndexMemoFile(paths), JSON.stringify(next), { durable: false });
    if (next.dirMtimeNs !== null) trustedAt.set(index, mtimeNs);
  } catch {
    // A read-only .index/: the next process re-lists.
  }
}

/**
 * Brings `index` up to date with the folder (one listing, one stat per note file) and saves it;
 * returns the folder mtime the saved index is complete for, when it is trusted.
 */
function relist(paths: StorePaths, index: NoteIndex, previous: ShardSource | undefined, persist: boolean): string | undefined {
  const dir = fs.statSync(paths.files, { bigint: true, throwIfNoEntry: false });
  if (previous) {
    try {
      index.restore(previous.all(), false);
    } catch {
      // A broken shard: the listing below reads the note files it would have described.
    }
  }
  const listedAt = Date.now();
  index.refreshSync();
  if (!dir) return undefined;
  const racy = listedAt - Number(dir.mtimeMs) < RACY_MS;
  if (!persist || racy) {
    if (persist) save(paths, index, null, previous);
    return undefined;
  }
  return save(paths, index, String(dir.mtimeNs), previous) ? String(dir.mtimeNs) : undefined;
}

/** A trusted shard source that falls back to a full re-list when a shard turns out broken. */
class TrustingSource implements StoredEntrySource {
  constructor(
    private readonly shards: ShardSource,
    private readonly onCorrupt: () => void,
  ) {}

  withPath(relative: string): StoredEntry[] {
    return this.guard(() => this.shards.withPath(relative));
  }

  withSize(size: number): StoredEntry[] {
    return this.guard(() => this.shards.withSize(size));
  }

  withLocalId(localId: string): StoredEntry[] {
    return this.guard(() => this.shards.withLocalId(localId));
  }

  all(): StoredEntry[] {
    return this.guard(() => this.shards.all());
  }

  private guard(take: () => StoredEntry[]): StoredEntry[] {
    try {
      return take();
    } catch (error) {
      if (!(error instanceof ShardCorrupt)) throw error;
      this.onCorrupt();
      return [];
    }
  }
}

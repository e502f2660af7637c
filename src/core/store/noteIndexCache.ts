/**
 * The note index of a one-shot process (the CLI, MCP, a harvest plan, context), kept between
 * runs in `.index/notes.json`: derived, git-ignored, deletable, never the source of truth.
 *
 * Trust is checked, not assumed. Every write Lore makes to a note file is a rename (atomic
 * writes, re-keys, removals), and so is a git checkout, a `mv` or a delete: each changes the
 * mtime of `files/`. When that mtime is the one recorded with the index, the set of note files
 * is the one indexed and a lookup reads only the entries it touches, each checked by its own
 * stat (NoteIndex.fresh), so a hand edit of one note file is seen when that file is looked at.
 * When the mtime moved, one listing and one stat per note file bring the index up to date
 * (re-reading only the note files that changed) and it is saved again. What this misses: an
 * in-place edit of a note file's recorded path or size, by hand, in a note file no lookup
 * touches; `lore notes heal` (which reads every note file) and the next change to the folder
 * repair it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from './atomicWrite';
import { NoteIndex, type NoteReader, type StoredEntry } from './noteIndex';
import type { StorePaths } from './storePaths';

const CACHE_NAME = 'notes.json';
const FORMAT = 1;
/**
 * A folder changed this recently may change again within the same file-system timestamp tick
 * without its mtime moving: such an index is saved as untrusted, and the next process re-lists.
 */
const RACY_MS = 100;

const cacheSchema = z.object({
  format: z.literal(FORMAT),
  filesDir: z.string(),
  /** mtime of files/ in nanoseconds when the index was complete; null: re-list before trusting. */
  dirMtimeNs: z.string().nullable(),
  // [name, path, fileId, size, fingerprint, count, mtimeMs, fileSize, ino]: arrays parse faster than objects.
  entries: z.array(z.tuple([z.string(), z.string(), z.string(), z.number(), z.string(), z.number(), z.number(), z.number(), z.number()])),
});

export interface OpenNoteIndexOptions {
  /** Reads a note file (tests count reads through it). */
  read?: NoteReader;
}

export function noteIndexCacheFile(paths: StorePaths): string {
  return path.join(paths.index, CACHE_NAME);
}

function loadCache(paths: StorePaths): z.infer<typeof cacheSchema> | undefined {
  try {
    const parsed = cacheSchema.safeParse(JSON.parse(fs.readFileSync(noteIndexCacheFile(paths), 'utf8')));
    return parsed.success && parsed.data.filesDir === paths.files ? parsed.data : undefined;
  } catch {
    return undefined; // Missing or unreadable: rebuild it.
  }
}

function fromTuple(t: z.infer<typeof cacheSchema>['entries'][number]): StoredEntry {
  const [name, recorded, fileId, size, fingerprint, count, mtimeMs, fileSize, ino] = t;
  return { name, meta: { path: recorded, fileId, size, fingerprint }, count, mtimeMs, size: fileSize, ino };
}

/** Saves the index as complete for the folder state `dirMtimeNs` (null: complete for no known state). */
function saveCache(paths: StorePaths, index: NoteIndex, dirMtimeNs: string | null): void {
  if (!fs.existsSync(paths.root)) return; // Never create a store as a side effect of a lookup.
  const entries = index.stored().map((e) => [e.name, e.meta.path, e.meta.fileId, e.meta.size, e.meta.fingerprint, e.count, e.mtimeMs, e.size, e.ino]);
  try {
    fs.mkdirSync(paths.index, { recursive: true });
    writeFileAtomic(noteIndexCacheFile(paths), JSON.stringify({ format: FORMAT, filesDir: paths.files, dirMtimeNs, entries }), { durable: false });
  } catch {
    // A read-only store still answers lookups; it just re-lists next time.
  }
}

/**
 * The note index of `paths`, read back from `.index/` and brought up to date with the folder
 * (see the file comment for what that costs and when).
 */
export function openNoteIndex(paths: StorePaths, options: OpenNoteIndexOptions = {}): NoteIndex {
  const index = new NoteIndex(paths.files, options.read);
  const dir = fs.statSync(paths.files, { bigint: true, throwIfNoEntry: false });
  if (!dir?.isDirectory()) return index;
  const cache = loadCache(paths);
  if (cache) index.restore(cache.entries.map(fromTuple));
  const mtimeNs = String(dir.mtimeNs);
  if (cache && cache.dirMtimeNs === mtimeNs) return index;
  const listedAt = Date.now();
  const changes = index.refreshSync();
  const racy = listedAt - Number(dir.mtimeMs) < RACY_MS;
  if (!cache || changes.length > 0 || cache.dirMtimeNs !== (racy ? null : mtimeNs)) saveCache(paths, index, racy ? null : mtimeNs);
  return index;
}

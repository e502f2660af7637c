/**
 * A per-machine cache of what was learned by reading a file, keyed by what `stat` says about the
 * file (git's index does the same for the work tree): the known-files cache (sha256s the ledger
 * proves) and the measured-files cache (what a dry run learned) are two of these. Kept in the
 * store's derived `.cache/`, never committed.
 *
 * Trusted only when size, mtime, ctime and inode all match. A value is remembered only if the
 * file's ctime predates the moment it was read, so no write can hide between the read and the
 * stat. A cache that is missing, unreadable or of another shape is empty, never an error. Two
 * processes saving at once: the last one's entries stay (each write is atomic); what the other
 * learned is learned again next time.
 */
import * as fs from 'node:fs';
import { writeFileAtomic } from '../../base/atomicWrite';
import { mkdirNoFollow } from '../../base/storeLinks';
import * as path from 'node:path';
import { readStoreFile } from '../../base/readText';

/** What a file's stat must still say for a remembered value to stand. */
export interface FileStamp {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
}

type Entry<V> = [size: number, mtimeMs: number, ctimeMs: number, ino: number, value: V];

export class StatStampedCache<V> {
  private constructor(
    private readonly file: string,
    private readonly version: number,
    private readonly entries: Map<string, Entry<V>>,
  ) {}

  /** Loads the cache file; entries whose value `isValue` refuses are dropped. */
  static load<V>(file: string, version: number, isValue: (value: unknown) => value is V): StatStampedCache<V> {
    const entries = new Map<string, Entry<V>>();
    try {
      const data = JSON.parse(readStoreFile(file, 'utf8')) as { version?: unknown; files?: unknown };
      if (data.version === version && data.files && typeof data.files === 'object') {
        for (const [name, entry] of Object.entries(data.files as Record<string, unknown>)) {
          if (isStamped(entry) && isValue(entry[4])) entries.set(name, entry as Entry<V>);
        }
      }
    } catch {
      // Missing or damaged: every file is read, as without a cache.
    }
    return new StatStampedCache(file, version, entries);
  }

  /** The remembered value for `key` (a file's path, or a path with a qualifier) if `stat` still matches. */
  lookup(key: string, stat: FileStamp): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    const [size, mtimeMs, ctimeMs, ino, value] = entry;
    return size === stat.size && mtimeMs === stat.mtimeMs && ctimeMs === stat.ctimeMs && ino === stat.ino ? value : undefined;
  }

  /**
   * Remembers `value` for `file` (under `key`, default its path) as read at `readAt` (ms since the
   * epoch). Skipped when the file changed since then, or vanished: the value would not describe
   * what is there now.
   */
  remember(file: string, value: V, readAt: number, key = file): void {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(file);
    } catch {
      this.entries.delete(key);
      return;
    }
    if (!(stat.ctimeMs < readAt)) {
      this.entries.delete(key);
      return;
    }
    this.entries.set(key, [stat.size, stat.mtimeMs, stat.ctimeMs, stat.ino, value]);
  }

  /** Writes the cache, dropping files that no longer exist (`fileOf` a key). A failure only costs speed later: its message. */
  save(fileOf: (key: string) => string = (key) => key): string | undefined {
    for (const key of this.entries.keys()) if (!fs.existsSync(fileOf(key))) this.entries.delete(key);
    try {
      mkdirNoFollow(path.dirname(this.file));
      // Not fsynced: a cache lost in a crash only costs the next run its speed.
      writeFileAtomic(this.file, JSON.stringify({ version: this.version, files: Object.fromEntries(this.entries) }), { durable: false });
      return undefined;
    } catch (error) {
      return (error as Error).message;
    }
  }
}

function isStamped(value: unknown): value is Entry<unknown> {
  return Array.isArray(value) && value.length === 5 && value.slice(0, 4).every((n) => typeof n === 'number' && Number.isFinite(n));
}

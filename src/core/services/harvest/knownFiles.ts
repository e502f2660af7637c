/**
 * The sha256 of conversation files outside the inbox that the ledger already proves, keyed by
 * what `stat` says about them, so that a later dry run or harvest does not read and hash a
 * Claude Code or Codex history of hundreds of megabytes again to learn it is unchanged (git's
 * index does the same for the work tree). Kept in the store's derived `.cache/known-files.json`;
 * written only by an apply, under the store lock.
 *
 * Trusted only when size, mtime, ctime and inode all match, and only for files the harvest never
 * deletes: an inbox file is reclaimed on the strength of its hash, so it is always read. A file
 * is remembered only if its ctime predates the moment the harvest started reading it, so no write
 * can hide between the hash and the stat. A cache that is missing, unreadable or of another
 * shape is empty, never an error.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../../base/atomicWrite';
import { permitsReclaim, type Ledger } from '../../model/ledgerFormat';
import type { StorePaths } from '../../store/storePaths';
import type { ClassifiedConversation } from '../../store/harvestPlan';
import { mkdirNoFollow } from '../../base/storeLinks';

/** What a file's stat must still say for its remembered sha256 to stand. */
interface FileStamp {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
}

type Entry = [size: number, mtimeMs: number, ctimeMs: number, ino: number, sha256: string];

const VERSION = 1;

export class KnownFiles {
  private constructor(
    private readonly file: string,
    private readonly entries: Map<string, Entry>,
  ) {}

  static open(paths: StorePaths): KnownFiles {
    const file = path.join(paths.cache, 'known-files.json');
    const entries = new Map<string, Entry>();
    try {
      const data = JSON.parse(fs.readFileSync(file, 'utf8')) as { version?: unknown; files?: unknown };
      if (data.version === VERSION && data.files && typeof data.files === 'object') {
        for (const [name, value] of Object.entries(data.files as Record<string, unknown>)) {
          if (isEntry(value)) entries.set(name, value);
        }
      }
    } catch {
      // Missing or damaged: every file is read and hashed, as without a cache.
    }
    return new KnownFiles(file, entries);
  }

  /** The remembered sha256 of `file` if its stat still matches. */
  lookup(file: string, stat: FileStamp): string | undefined {
    const entry = this.entries.get(file);
    if (!entry) return undefined;
    const [size, mtimeMs, ctimeMs, ino, sha256] = entry;
    return size === stat.size && mtimeMs === stat.mtimeMs && ctimeMs === stat.ctimeMs && ino === stat.ino ? sha256 : undefined;
  }

  /**
   * Remembers that `file` had `sha256` when it was read at `readAt` (ms since the epoch). Skipped
   * when the file changed since then, or vanished: its hash would not describe what is there now.
   */
  remember(file: string, sha256: string, readAt: number): void {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(file);
    } catch {
      this.entries.delete(file);
      return;
    }
    if (!(stat.ctimeMs < readAt)) {
      this.entries.delete(file);
      return;
    }
    this.entries.set(file, [stat.size, stat.mtimeMs, stat.ctimeMs, stat.ino, sha256]);
  }

  /**
   * After an apply: files outside the inbox whose content the ledger now proves (read at `readAt`)
   * need not be read next time. Saves the cache; returns a warning if it could not.
   */
  rememberProven(
    conversations: ReadonlyArray<Pick<ClassifiedConversation, 'path' | 'inInbox' | 'sha256' | 'assembled'>>,
    ledger: Ledger,
    readAt: number,
  ): string | undefined {
    for (const c of conversations) {
      // An assembled session's hash covers many files or rows, not the one file its path names.
      if (!c.inInbox && !c.assembled && c.sha256 && permitsReclaim(ledger.entries[c.sha256])) this.remember(c.path, c.sha256, readAt);
    }
    return this.save();
  }

  /** Writes the cache, dropping files that no longer exist. A failure only costs speed later. */
  save(): string | undefined {
    for (const file of this.entries.keys()) if (!fs.existsSync(file)) this.entries.delete(file);
    try {
      mkdirNoFollow(path.dirname(this.file));
      // Not fsynced: a cache lost in a crash only costs the next run its speed.
      writeFileAtomic(this.file, JSON.stringify({ version: VERSION, files: Object.fromEntries(this.entries) }), { durable: false });
      return undefined;
    } catch (error) {
      return `the known-files cache was not saved (${(error as Error).message}); the next harvest hashes those files again`;
    }
  }
}

function isEntry(value: unknown): value is Entry {
  return (
    Array.isArray(value) &&
    value.length === 5 &&
    value.slice(0, 4).every((n) => typeof n === 'number' && Number.isFinite(n)) &&
    typeof value[4] === 'string' &&
    /^[0-9a-f]{64}$/.test(value[4])
  );
}

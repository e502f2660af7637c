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
 * can hide between the hash and the stat (statStampedCache.ts).
 */
import * as path from 'node:path';
import { permitsReclaim, type Ledger } from '../../model/ledgerFormat';
import type { StorePaths } from '../../store/storePaths';
import type { ClassifiedConversation } from '../../store/harvestPlan';
import { StatStampedCache, type FileStamp } from './statStampedCache';

const VERSION = 1;

export class KnownFiles {
  private constructor(private readonly cache: StatStampedCache<string>) {}

  static open(paths: StorePaths): KnownFiles {
    return new KnownFiles(StatStampedCache.load(path.join(paths.cache, 'known-files.json'), VERSION, isSha256));
  }

  /** The remembered sha256 of `file` if its stat still matches. */
  lookup(file: string, stat: FileStamp): string | undefined {
    return this.cache.lookup(file, stat);
  }

  /**
   * Remembers that `file` had `sha256` when it was read at `readAt` (ms since the epoch). Skipped
   * when the file changed since then, or vanished: its hash would not describe what is there now.
   */
  remember(file: string, sha256: string, readAt: number): void {
    this.cache.remember(file, sha256, readAt);
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
    const failed = this.cache.save();
    return failed && `the known-files cache was not saved (${failed}); the next harvest hashes those files again`;
  }
}

function isSha256(value: unknown): value is string {
  return typeof value === 'string' && /^[0-9a-f]{64}$/.test(value);
}

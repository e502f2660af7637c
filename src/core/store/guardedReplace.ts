/**
 * Replacing a file that a person (or another tool) may be editing at the same moment. People
 * edit category and note files by hand while a harvest runs: editors append (O_APPEND), save by
 * writing a temporary file and renaming it over, or truncate and rewrite in place. Lore must
 * never replace a version it has not read, so every replacement is an edit re-applied to what
 * is really there:
 *
 * 1. read a stable snapshot (a read during which the file changed is retried; a file caught
 *    smaller than expected just after a write is re-read after a pause) and keep it open;
 * 2. apply the edit and write the result to a complete, verified temporary file;
 * 3. when the edit only adds bytes at the end, append them in place (appendInPlace); otherwise
 *    check the path still holds the version read, then rename the new file over it (a plain
 *    rename: the path is never empty, so no reader or editor finds the file missing). A version
 *    that changed meanwhile gets the edit re-applied to it;
 * 4. settle: writes that still reached the replaced file through a descriptor opened before the
 *    rename (an appender, an editor that truncates and rewrites) are read from the descriptor
 *    kept open and merged, and an editor that saved an older buffer over the new file gets the
 *    edit re-applied on top of its save.
 *
 * The edits Lore makes (append lines, add notes) are idempotent, so re-applying one on top of a
 * newer version never duplicates a line. Bytes waiting to be merged are kept on disk, never
 * only in memory. A file that never holds still fails with FileBusyError after a while:
 * nothing is lost, and the caller gives up before anything is reclaimed.
 *
 * What remains: an editor that renames its save into place in the microseconds between the
 * check and the rename of step 3 has that one save replaced (POSIX has no compare-and-swap
 * rename; Linux's RENAME_EXCHANGE is not reachable from Node).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { crashPoint } from '../util/crashPoints';
import { appendInPlace, extendsBytes } from './appendInPlace';
import { fsyncDirectory, fsyncFile, writeTempBeside } from './atomicWrite';
import { sameVersion, sleepSync } from './fileVersion';
import { StoreEntryError } from './storeErrors';
import { listNames } from '../util/walkTree';

/** An edit of a file's bytes: `current` is undefined when the file does not exist; undefined = no change. */
export type ByteEdit = (current: Buffer | undefined) => Buffer | undefined;

export interface GuardedReplaceOptions {
  /** fsync the new file and its folder (default true). */
  durable?: boolean;
  /** How long to keep re-applying the edit to a file that keeps changing before FileBusyError (default 10 s). */
  patienceMs?: number;
  /**
   * The size the caller last saw. A snapshot that is smaller and was modified moments ago is
   * probably an editor's save caught between truncate and write: it is re-read after a pause.
   */
  expectedBytes?: number;
}

export class FileBusyError extends Error {
  /** Not an errno: its own message says what happened and what to do. */
  readonly code = 'LORE_FILE_BUSY';
  constructor(readonly path: string, attempts: number, waitedMs: number) {
    super(`${path} kept changing while Lore was updating it (${attempts} attempts in ${(waitedMs / 1000).toFixed(1)} s). Nothing was lost and nothing was reclaimed: run again when the file is not being saved continuously`);
    this.name = 'FileBusyError';
  }
}

/** Marks a file of bytes still to be merged into its file; recoverStaleAsides finds it after a crash. */
const ASIDE_MARK = '.lore-prev-';
const STABLE_READ_ATTEMPTS = 50;
const PATIENCE_MS = 10_000;
/** A replaced file that is still being written is polled this often, this many times at most. */
const SETTLE_POLL_MS = 15;
const SETTLE_POLLS = 60;
/** Re-applications after a replacement was overwritten, before giving the file to its editor. */
const MAX_SETTLE_DEPTH = 5;
/** A snapshot smaller than expected and modified within this window is re-read. */
const MID_SAVE_WINDOW_MS = 250;

interface Snapshot {
  fd?: number;
  bytes?: Buffer;
  stat?: fs.BigIntStats;
}


function backoff(attempt: number): number {
  return Math.random() * Math.min(2 ** attempt, 40);
}

/** Every byte of an open file, read by position (the descriptor's offset is not used). */
function readAll(fd: number): Buffer {
  const chunks: Buffer[] = [];
  let position = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(1 << 16);
    const n = fs.readSync(fd, chunk, 0, chunk.length, position);
    if (n === 0) break;
    chunks.push(chunk.subarray(0, n));
    position += n;
  }
  return Buffer.concat(chunks);
}

function closeQuietly(fd: number | undefined): void {
  if (fd === undefined) return;
  try {
    fs.closeSync(fd);
  } catch {
    // Nothing to recover: the descriptor was only read.
  }
}

/**
 * Reads `file` when it holds still: the read is retried while the file changes under it (size,
 * inode or mtime differ before and after, or the path now names another file). Returns an
 * empty snapshot when it does not exist; the descriptor stays open for `settle`.
 */
function readSnapshot(file: string, expectedBytes?: number): Snapshot {
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    let fd: number;
    try {
      fd = fs.openSync(file, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw error;
    }
    let stable: boolean;
    let snapshot: Snapshot;
    try {
      const before = fs.fstatSync(fd, { bigint: true });
      if (!before.isFile()) throw new StoreEntryError(file, 'file');
      const bytes = readAll(fd);
      const after = fs.fstatSync(fd, { bigint: true });
      const atPath = fs.statSync(file, { bigint: true, throwIfNoEntry: false });
      stable = sameVersion(before, after) && after.size === BigInt(bytes.length) && atPath !== undefined && sameVersion(atPath, after);
      // Smaller than the caller last saw and written moments ago: probably an editor's save caught
      // between its truncate and its write. Never taken as the version to edit while that holds (an
      // editor saving every few ms would otherwise, after a while, have its file replaced by a
      // fragment plus Lore's lines); a file that never holds still ends in FileBusyError, nothing lost.
      // Without an expected size (merging set-aside bytes back, a file Lore did not plan against), an
      // empty file written moments ago is the mid-save case: taken as the version, it made the set-aside
      // (older) bytes the whole file, and every line saved since was lost.
      const floor = expectedBytes ?? 1;
      const midSave = bytes.length < floor && Date.now() - Number(after.mtimeMs) < MID_SAVE_WINDOW_MS;
      if (midSave) stable = false;
      snapshot = { fd, bytes, stat: after };
    } catch (error) {
      closeQuietly(fd);
      throw error;
    }
    if (stable) return snapshot;
    closeQuietly(fd);
    if (attempt >= STABLE_READ_ATTEMPTS) throw new FileBusyError(file, attempt, Date.now() - started);
    sleepSync(1 + backoff(attempt));
  }
}

/** Splits bytes into lines without their line breaks. */
function lineSet(bytes: Buffer): Set<string> {
  return new Set(bytes.toString('latin1').split(/\r?\n/));
}

/**
 * `current` plus the lines of `displaced` it lacks, in their order: a version that lost a race
 * (written into a file Lore had just replaced) keeps every line, at the cost of order.
 */
function mergeDisplaced(current: Buffer | undefined, displaced: Buffer): Buffer {
  if (!current || current.length === 0) return displaced;
  const have = lineSet(current);
  const text = displaced.toString('latin1');
  const missing = text.split(/(?<=\n)/).filter((line) => line.trim() !== '' && !have.has(line.replace(/\r?\n$/, '')));
  if (missing.length === 0) return current;
  const eol = current.includes('\r\n') ? '\r\n' : '\n';
  const lead = current[current.length - 1] === 0x0a ? '' : eol;
  const tail = missing.map((line) => (line.endsWith('\n') ? line : line + eol)).join('');
  return Buffer.concat([current, Buffer.from(lead + tail, 'latin1')]);
}

/** True when the path still holds the version the snapshot read (or still nothing). */
function stillAsRead(file: string, snapshot: Snapshot): boolean {
  const now = fs.statSync(file, { bigint: true, throwIfNoEntry: false });
  return snapshot.stat ? now !== undefined && sameVersion(now, snapshot.stat) : now === undefined;
}

/**
 * Step 3: puts the temporary file in place, but only over the version the snapshot read (or,
 * for a file that did not exist, only while it still does not). A plain rename keeps the path
 * filled at every instant, so no reader or editor ever finds the file missing.
 */
function swapIn(file: string, tmp: string, snapshot: Snapshot): boolean {
  if (!snapshot.stat) {
    try {
      fs.linkSync(tmp, file); // Fails if someone created the file meanwhile.
      fs.rmSync(tmp, { force: true });
      return true;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') {
        fs.rmSync(tmp, { force: true });
        if (code === 'EEXIST') return false;
        throw error;
      }
    }
    // No hard links on this file system: check, then rename.
    if (fs.existsSync(file)) {
      fs.rmSync(tmp, { force: true });
      return false;
    }
  } else if (!stillAsRead(file, snapshot)) {
    fs.rmSync(tmp, { force: true });
    return false;
  }
  try {
    fs.renameSync(tmp, file);
  } catch (error) {
    fs.rmSync(tmp, { force: true });
    throw error;
  }
  return true;
}

/**
 * Keeps bytes that must still be merged into `file` in a durable hidden file beside it, so they
 * are never only in memory: recoverStaleAsides merges them if the merge below never happens.
 */
function keepDisplaced(file: string, bytes: Buffer): string {
  const tmp = writeTempBeside(file, bytes, true);
  const kept = `${path.join(path.dirname(file), '.' + path.basename(file))}${ASIDE_MARK}${process.pid}${Math.random().toString(36).slice(2, 8)}`;
  fs.renameSync(tmp, kept);
  return kept;
}

/** A replacement that happened; `settle` checks for writes that reached the replaced file late. */
export class GuardedReplace {
  constructor(
    readonly file: string,
    /** The bytes now in the file (undefined when the edit changed nothing). */
    readonly content: Buffer | undefined,
    /** How many times the edit was re-applied because the file changed under it. */
    readonly rebased: number,
    private readonly edit: ByteEdit,
    private readonly options: GuardedReplaceOptions,
    private snapshot: Snapshot,
  ) {}

  get changed(): boolean {
    return this.content !== undefined;
  }

  /**
   * Merges writes that went into the replaced file after the swap (an editor or appender that
   * had opened it before) and releases it. Returns the replacement that holds the final
   * content: this one, or a new one when late lines were merged.
   */
  settle(depth = 0): GuardedReplace {
    const { fd, stat } = this.snapshot;
    this.snapshot = {};
    let late: Buffer | undefined;
    try {
      if (fd !== undefined && stat && this.content !== undefined && !sameVersion(fs.fstatSync(fd, { bigint: true }), stat)) {
        // A writer is still at it (an editor truncates, then writes): read once it has held
        // still for a while, and a file shorter than before (caught between truncate and
        // write) only after waiting longer.
        let last = fs.fstatSync(fd, { bigint: true });
        for (let i = 0, still = 0; i < SETTLE_POLLS && still < 3; i++) {
          sleepSync(SETTLE_POLL_MS);
          const now = fs.fstatSync(fd, { bigint: true });
          still = sameVersion(now, last) && (now.size >= stat.size || i > SETTLE_POLLS / 2) ? still + 1 : 0;
          last = now;
        }
        late = readAll(fd);
      }
    } finally {
      closeQuietly(fd);
    }
    if (late !== undefined) return replaceGuarded(this.file, this.edit, { ...this.options, displaced: [keepDisplaced(this.file, late)] }).settle(depth + 1);
    // An editor holding an older buffer may have saved it over the new file: the edit's lines
    // must still be there (the edit is idempotent, so re-applying it adds only what is missing).
    if (this.content === undefined || depth >= MAX_SETTLE_DEPTH) return this;
    let current: Buffer;
    try {
      current = fs.readFileSync(this.file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return this; // Deleted since: a person's decision.
      throw error;
    }
    // The file as this replacement wrote it: nobody dropped the lines, so there is nothing to
    // re-apply (an edit that does not converge, e.g. text that encodes differently than it reads,
    // would otherwise add its lines again at each depth).
    if (current.equals(this.content)) return this;
    const again = this.edit(current);
    if (again === undefined || again.equals(current)) return this;
    return replaceGuarded(this.file, this.edit, this.options).settle(depth + 1);
  }
}

/**
 * Applies `edit` to the current content of `file` and replaces it, safely against concurrent
 * writers (see the module comment). Call `settle()` on the result once the rest of the work is
 * done (the later, the more late writes it catches), or at once.
 */
export function replaceGuarded(file: string, edit: ByteEdit, options: GuardedReplaceOptions & { displaced?: string[] } = {}): GuardedReplace {
  const durable = options.durable ?? true;
  const started = Date.now();
  const deadline = started + (options.patienceMs ?? PATIENCE_MS);
  // Set-aside versions whose lines must reach the file; removed only once they have.
  const displaced = [...(options.displaced ?? [])];
  let attempt = 0;
  for (; attempt === 0 || Date.now() < deadline; attempt++) {
    const snapshot = readSnapshot(file, options.expectedBytes);
    let base = snapshot.bytes;
    let next: Buffer | undefined;
    let tmp: string;
    try {
      for (const aside of displaced) base = mergeDisplaced(base, fs.readFileSync(aside));
      next = edit(base) ?? (displaced.length ? base : undefined);
      if (next === undefined || (snapshot.bytes !== undefined && next.equals(snapshot.bytes))) {
        for (const aside of displaced) fs.rmSync(aside, { force: true });
        return new GuardedReplace(file, undefined, attempt, edit, options, snapshot);
      }
      if (extendsBytes(next, snapshot.bytes)) {
        // Lore only adds lines at the end: append them in place, which never replaces a
        // version someone else saved (see appendInPlace).
        if (appendInPlace(file, snapshot.stat, next.subarray(snapshot.bytes!.length), durable)) {
          closeQuietly(snapshot.fd);
          for (const aside of displaced) fs.rmSync(aside, { force: true });
          return new GuardedReplace(file, next, attempt, edit, options, {});
        }
        closeQuietly(snapshot.fd);
        sleepSync(backoff(attempt));
        continue;
      }
      // The fsync (milliseconds) waits until a cheap check says the file still holds still,
      // so a file edited every few milliseconds does not make every attempt pay for it.
      tmp = writeTempBeside(file, next, false);
      if (durable && !stillAsRead(file, snapshot)) {
        fs.rmSync(tmp, { force: true });
        closeQuietly(snapshot.fd);
        sleepSync(backoff(attempt));
        continue;
      }
      if (durable) fsyncFile(tmp);
    } catch (error) {
      closeQuietly(snapshot.fd);
      throw error;
    }
    if (durable) crashPoint(`wrote ${path.basename(tmp)}`);
    let swapped: boolean;
    try {
      swapped = swapIn(file, tmp, snapshot);
    } catch (error) {
      closeQuietly(snapshot.fd);
      throw error;
    }
    if (swapped) {
      if (durable) {
        fsyncDirectory(path.dirname(file));
        crashPoint(`replaced ${path.basename(file)}`);
      }
      for (const aside of displaced) fs.rmSync(aside, { force: true });
      return new GuardedReplace(file, next, attempt, edit, options, snapshot);
    }
    closeQuietly(snapshot.fd);
    sleepSync(backoff(attempt));
  }
  throw new FileBusyError(file, attempt, Date.now() - started);
}

/**
 * After a crash (or a FileBusyError) bytes may wait beside their file as `.<name>.lore-prev-…`:
 * merges every line the file lacks (or restores the file when it is missing). Call it holding
 * the store lock.
 */
export function recoverStaleAsides(dir: string): void {
  for (const name of listNames(dir)) {
    const mark = name.lastIndexOf(ASIDE_MARK);
    if (!name.startsWith('.') || mark < 1) continue;
    const aside = path.join(dir, name);
    const file = path.join(dir, name.slice(1, mark));
    if (!fs.existsSync(file)) {
      fs.renameSync(aside, file);
      continue;
    }
    replaceGuarded(file, () => undefined, { displaced: [aside] }).settle();
  }
}

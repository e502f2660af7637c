/**
 * Rewriting a file that a person (or another tool) may be editing at the same moment, by the
 * concurrency contract of docs/design.md. People edit category and note files by hand while Lore
 * writes: editors append (O_APPEND), save by writing a temporary file and renaming it over, or
 * truncate and rewrite in place. Lore never replaces a version it has not read:
 *
 * 1. read a version: a read during which the file changed is retried, and a file caught mid-save
 *    is not a version (smaller than this process last saw it, or not ending in a line break, and
 *    written moments ago: re-read until it holds still);
 * 2. compute the edit on that version;
 * 3. when the edit only adds bytes at the end, append them with O_APPEND, only while the file is
 *    still that version (appendInPlace); otherwise write a complete, verified temporary file and
 *    rename it over the path, only while the path still holds that version (a plain rename: the
 *    path is never empty). A version that changed meanwhile is read again and the edit recomputed,
 *    a bounded number of times; then FileBusyError ("kept changing, nothing was lost");
 * 4. settle: an editor that had opened the replaced file before the rename and saved into it is
 *    waited for; the complete lines it added to the version read are added to the new file (only
 *    added, never a fragment taken as the file). An editor that saves a buffer read before Lore's
 *    write removes Lore's lines: while the file is being edited, Lore watches it until a later save
 *    carries its lines or it holds still, and re-applies the edit (it is idempotent) when they are
 *    gone; a file that never lets them stay ends in FileBusyError, so the write is not reported done.
 *
 * What remains: an editor that renames its save into place in the microseconds between the check
 * and the rename of step 3 has that one save replaced (POSIX has no compare-and-swap rename;
 * Linux's RENAME_EXCHANGE is not reachable from Node), and a save of a buffer read before Lore's
 * write that lands after the file held still for the settle window removes Lore's lines (that is
 * a person's save of an older version, as with any other tool).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { crashPoint, traceReplace } from './crashPoints';
import { appendInPlace, extendsBytes } from './appendInPlace';
import { fsyncDirectory, fsyncFile, writeTempBeside } from './atomicWrite';
import { StoreEntryError } from './storeLinks';
import { sameVersion, sleepSync } from './fileVersion';
import { listNames } from './walkTree';
import { clock } from './clock';
import { openStoreFile } from './readText';

/** An edit of a file's bytes: `current` is undefined when the file does not exist; undefined = no change. */
export type ByteEdit = (current: Buffer | undefined) => Buffer | undefined;

export interface GuardedReplaceOptions {
  /** fsync the new file and its folder (default true). */
  durable?: boolean;
  /** How long to keep re-applying the edit to a file that keeps changing before FileBusyError (default 10 s). */
  patienceMs?: number;
  /**
   * The size the caller last saw (a harvest's plan). A snapshot that is smaller and was modified
   * moments ago is probably an editor's save caught between truncate and write: it is re-read.
   */
  expectedBytes?: number;
}

export class FileBusyError extends Error {
  /** Not an errno: its own message says what happened and what to do. */
  readonly code = 'LORE_FILE_BUSY';
  constructor(
    readonly path: string,
    attempts: number,
    waitedMs: number,
  ) {
    super(
      `${path} kept changing while Lore was updating it (${attempts} attempts in ${(waitedMs / 1000).toFixed(1)} s). Nothing was lost and nothing was reclaimed: run again when the file is not being saved continuously`,
    );
    this.name = 'FileBusyError';
  }
}

/** Marks a file of bytes an older Lore set aside to be merged into its file; recoverStaleAsides merges it. */
const ASIDE_MARK = '.lore-prev-';
const STABLE_READ_ATTEMPTS = 50;
const PATIENCE_MS = 10_000;
/** A replaced file that is still being written is polled this often, this many times at most. */
const SETTLE_POLL_MS = 15;
const SETTLE_POLLS = 120;
/** Re-applications after Lore's lines were saved away, before the write is given up (FileBusyError). */
const MAX_SETTLE_DEPTH = 5;
/** A snapshot that looks mid-save and was modified within this window is re-read. */
const MID_SAVE_WINDOW_MS = 250;
/** A file modified this recently before Lore's write is being edited: its settle watches for stale saves. */
const ACTIVE_EDIT_MS = 2_000;
/** How long a file being edited is watched after Lore's write, when no later save shows Lore's lines kept. */
const SETTLE_QUIET_MS = 400;

interface Snapshot {
  fd?: number;
  bytes?: Buffer;
  stat?: fs.BigIntStats;
}

/**
 * The size of the last version of each file this process read or wrote. A file found smaller
 * moments after a write is an editor's save caught mid-way far more often than a person's
 * deletion; it is not taken as a version until it holds still.
 */
const lastSeenBytes = new Map<string, number>();
/** The version of each file this process last wrote: a file Lore itself just wrote is not being edited. */
const lastWritten = new Map<string, fs.BigIntStats>();

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
 * True when `bytes`, written moments ago, look like a save caught mid-way: smaller than the
 * floor (what the caller or this process last saw), or cut inside a line (editors end a saved
 * file with a line break; one that does not is accepted once it has held still).
 */
function looksMidSave(bytes: Buffer, stat: fs.BigIntStats, floor: number): boolean {
  if (clock().now() - Number(stat.mtimeMs) >= MID_SAVE_WINDOW_MS) return false;
  return bytes.length < floor || (bytes.length > 0 && bytes[bytes.length - 1] !== 0x0a);
}

/**
 * Reads a version of `file`: the read is retried while the file changes under it (size, inode or
 * mtime differ before and after, or the path now names another file) or looks caught mid-save.
 * Returns an empty snapshot when it does not exist; the descriptor stays open for `settle`.
 */
function readSnapshot(file: string, expectedBytes?: number): Snapshot {
  const started = clock().now();
  const floor = Math.max(expectedBytes ?? 0, lastSeenBytes.get(file) ?? 0, 1);
  for (let attempt = 0; ; attempt++) {
    let fd: number;
    try {
      fd = openStoreFile(file);
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
      // Never taken as the version to edit while it may be a fragment: an edit computed on a
      // fragment and put in place would make the fragment the file. A file that never holds
      // still ends in FileBusyError, nothing lost.
      if (stable && looksMidSave(bytes, after, floor)) stable = false;
      snapshot = { fd, bytes, stat: after };
    } catch (error) {
      closeQuietly(fd);
      throw error;
    }
    if (stable) {
      lastSeenBytes.set(file, snapshot.bytes!.length);
      return snapshot;
    }
    closeQuietly(fd);
    if (attempt >= STABLE_READ_ATTEMPTS) throw new FileBusyError(file, attempt, clock().now() - started);
    sleepSync(1 + backoff(attempt));
  }
}

/** The complete lines (each with its line break) of `bytes`; a last line without one is left out. */
function completeLines(bytes: Buffer): string[] {
  const lines = bytes.toString('latin1').split(/(?<=\n)/);
  if (lines.length && !lines[lines.length - 1].endsWith('\n')) lines.pop();
  return lines;
}

function withoutBreak(line: string): string {
  return line.replace(/\r?\n$/, '');
}

/** `current` plus those of `lines` it lacks, at the end, each on its own line. Only ever adds. */
function withLines(current: Buffer | undefined, lines: readonly string[]): Buffer | undefined {
  const have = new Set((current ?? Buffer.alloc(0)).toString('latin1').split(/\r?\n/));
  const missing = lines.filter((line) => !have.has(withoutBreak(line)));
  if (missing.length === 0) return current;
  const base = current ?? Buffer.alloc(0);
  const lead = base.length === 0 || base[base.length - 1] === 0x0a ? '' : base.includes('\r\n') ? '\r\n' : '\n';
  return Buffer.concat([base, Buffer.from(lead + missing.join(''), 'latin1')]);
}

/** The complete non-blank lines of `late` that `base` did not have: what a save added to the version read. */
function addedLines(base: Buffer | undefined, late: Buffer): string[] {
  const had = new Set(base ? base.toString('latin1').split(/\r?\n/) : []);
  return completeLines(late).filter((line) => line.trim() !== '' && !had.has(withoutBreak(line)));
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
  const checkedNs = process.hrtime.bigint();
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
  traceReplace(checkedNs);
  return true;
}

function statIfExists(file: string): fs.BigIntStats | undefined {
  return fs.statSync(file, { bigint: true, throwIfNoEntry: false });
}

/** A replacement that happened; `settle` makes sure it stays (see the module comment, step 4). */
export class GuardedReplace {
  constructor(
    readonly file: string,
    /** The bytes now in the file (undefined when the edit changed nothing). */
    readonly content: Buffer | undefined,
    /** How many times the edit was re-applied because the file changed under it. */
    readonly rebased: number,
    private readonly edit: ByteEdit,
    private readonly options: GuardedReplaceOptions,
    /** The version the edit was computed on; its descriptor is open when the file was renamed over. */
    private snapshot: Snapshot,
    /** The file as Lore's write left it. */
    private readonly written?: fs.BigIntStats,
  ) {}

  /** When the write was done: a settle that gives up says how long it tried. */
  private readonly at = clock().now();

  get changed(): boolean {
    return this.content !== undefined;
  }

  /**
   * Makes sure the write stays: lines an editor saved into the replaced file after the rename are
   * added, and the edit is re-applied when a save of an older buffer removed its lines. Returns
   * the replacement that holds the final content: this one, or a later one. Throws FileBusyError
   * when the file never let the edit stay (nothing of the person's is lost; the write is not done).
   */
  settle(depth = 0): GuardedReplace {
    const { fd, stat, bytes } = this.snapshot;
    this.snapshot = {};
    let late: Buffer | undefined;
    try {
      if (fd !== undefined && stat && this.content !== undefined && !sameVersion(fs.fstatSync(fd, { bigint: true }), stat)) {
        // An editor that opened the file before the rename is still writing into it: read it once
        // it has held still (nobody opens it by its name any more, so its writer finishes).
        // A save smaller than the version read is probably not finished: it is given longer.
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
    if (this.content === undefined) return this;
    const added = late === undefined ? [] : addedLines(bytes, late);
    if (added.length > 0) {
      // Never dropped: past the bound only the lines are added (an append, which no late writer
      // can race), and the edit is left as the file has it.
      const edit = this.edit;
      const keepLate: ByteEdit =
        depth >= MAX_SETTLE_DEPTH ? (current) => withLines(current, added) : (current) => withLines(edit(current) ?? current, added);
      return replaceGuarded(this.file, keepLate, this.options).settle(depth + 1);
    }
    return this.staysWritten(depth);
  }

  /**
   * While the file is being edited, watches it until a save after Lore's write shows the edit
   * kept, or it holds still for the settle window; re-applies the edit when a save removed it.
   */
  private staysWritten(depth: number): GuardedReplace {
    // Edited moments before Lore's write: a save of a buffer read before it may still come.
    const active =
      this.written !== undefined &&
      this.lastModifiedBefore !== undefined &&
      Number(this.written.mtimeMs) - this.lastModifiedBefore < ACTIVE_EDIT_MS;
    const deadline = clock().now() + (active ? SETTLE_QUIET_MS : 0);
    for (;;) {
      const now = statIfExists(this.file);
      if (now === undefined) return this; // Deleted since: a person's decision.
      const current = readSnapshot(this.file);
      closeQuietly(current.fd);
      if (current.bytes === undefined) return this;
      // The file as this replacement wrote it needs nothing re-applied (an edit that does not
      // converge, e.g. text that encodes differently than it reads, would otherwise add its lines
      // again at each depth).
      const asWritten = this.content !== undefined && current.bytes.equals(this.content);
      const again = asWritten ? undefined : this.edit(current.bytes);
      if (again !== undefined && !again.equals(current.bytes)) {
        // A save of a buffer read before Lore's write: the edit's lines are gone. Re-applied (the
        // edit is idempotent, so only what is missing comes back).
        if (depth >= MAX_SETTLE_DEPTH) throw new FileBusyError(this.file, depth + 1, clock().now() - this.at);
        return replaceGuarded(this.file, this.edit, this.options).settle(depth + 1);
      }
      // A later save that kept the edit: the editor read after Lore's write.
      if (!this.written || !sameVersion(current.stat!, this.written)) return this;
      if (clock().now() >= deadline) return this;
      sleepSync(SETTLE_POLL_MS);
    }
  }

  /** When the version the edit was computed on was last modified by someone else (ms since the epoch). */
  lastModifiedBefore?: number;
}

/**
 * Applies `edit` to the current content of `file` and replaces it, safely against concurrent
 * writers (see the module comment). Call `settle()` on the result once the rest of the work is
 * done (the later, the more late writes it catches), or at once.
 */
export function replaceGuarded(file: string, edit: ByteEdit, options: GuardedReplaceOptions = {}): GuardedReplace {
  const durable = options.durable ?? true;
  const started = clock().now();
  const deadline = started + (options.patienceMs ?? PATIENCE_MS);
  const done = (next: Buffer | undefined, attempt: number, snapshot: Snapshot, base: fs.BigIntStats | undefined): GuardedReplace => {
    const written = next === undefined ? undefined : statIfExists(file);
    if (next !== undefined) lastSeenBytes.set(file, next.length);
    // Edited by someone else moments before: the version read is not the one this process wrote last.
    const ownVersion = base !== undefined && lastWritten.has(file) && sameVersion(base, lastWritten.get(file)!);
    if (written) lastWritten.set(file, written);
    const result = new GuardedReplace(file, next, attempt, edit, options, snapshot, written);
    if (base && !ownVersion) result.lastModifiedBefore = Number(base.mtimeMs);
    return result;
  };
  let attempt = 0;
  for (; attempt === 0 || clock().now() < deadline; attempt++) {
    const snapshot = readSnapshot(file, options.expectedBytes);
    const base = snapshot.stat;
    let next: Buffer | undefined;
    let tmp: string;
    try {
      next = edit(snapshot.bytes);
      if (next === undefined || (snapshot.bytes !== undefined && next.equals(snapshot.bytes)))
        return done(undefined, attempt, snapshot, base);
      if (extendsBytes(next, snapshot.bytes)) {
        // Lore only adds lines at the end: append them in place, which never replaces a
        // version someone else saved (see appendInPlace).
        closeQuietly(snapshot.fd);
        if (appendInPlace(file, snapshot.stat, next.subarray(snapshot.bytes!.length), durable))
          return done(next, attempt, { bytes: snapshot.bytes }, base);
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
      return done(next, attempt, snapshot, base);
    }
    closeQuietly(snapshot.fd);
    sleepSync(backoff(attempt));
  }
  throw new FileBusyError(file, attempt, clock().now() - started);
}

/**
 * Bytes an older Lore set aside beside their file (`.<name>.lore-prev-…`) before a crash: their
 * complete lines the file lacks are added to it (or the file is restored when it is missing),
 * then the aside is removed. Only ever adds. Call it holding the store lock.
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
    const lines = completeLines(fs.readFileSync(aside)).filter((line) => line.trim() !== '');
    replaceGuarded(file, (current) => withLines(current, lines)).settle();
    fs.rmSync(aside, { force: true });
  }
}

/**
 * Replacing a file that a person (or another tool) may be editing at the same moment. People
 * edit category and note files by hand while a harvest runs: editors append (O_APPEND), save by
 * writing a temporary file and renaming it over, or truncate and rewrite in place. Lore must
 * never replace a version it has not read, so every replacement is an edit re-applied to what
 * is really there:
 *
 * 1. read a stable snapshot (a read during which the file changed is retried) and keep it open;
 * 2. apply the edit and write the result to a complete, verified temporary file;
 * 3. swap: move the current file aside by rename (this takes exactly the version that is there
 *    at that instant), check it is the version read in step 1, then hard-link the new file into
 *    place (which fails if anyone created the path meanwhile). A version that changed is put
 *    back and the edit re-applied to it;
 * 4. settle: writes that still reach the old file through a descriptor opened before the swap
 *    are detected later (`settle()`), and their lines are merged into the new file.
 *
 * The edits Lore makes (append lines, add notes) are idempotent, so re-applying one on top of a
 * newer version never duplicates a line. A file that never holds still fails with
 * FileBusyError: nothing is lost, the caller gives up before anything is reclaimed.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { crashPoint } from '../util/crashPoints';
import { decodeLossless, encodeLossless } from '../util/losslessText';
import { fsyncDirectory, writeTempBeside } from './atomicWrite';

/** An edit of a file's bytes: `current` is undefined when the file does not exist; undefined = no change. */
export type ByteEdit = (current: Buffer | undefined) => Buffer | undefined;

export interface GuardedReplaceOptions {
  /** fsync the new file and its folder (default true). */
  durable?: boolean;
  /** Swap attempts before FileBusyError (default 40). */
  attempts?: number;
  /**
   * The size the caller last saw. A snapshot that is smaller and was modified moments ago is
   * probably an editor's save caught between truncate and write: it is re-read after a pause.
   */
  expectedBytes?: number;
}

export class FileBusyError extends Error {
  readonly code = 'EBUSY';
  constructor(readonly path: string, attempts: number) {
    super(`${path} kept changing while Lore was updating it (${attempts} attempts). Nothing was lost and nothing was reclaimed: run again when the file is not being saved continuously`);
    this.name = 'FileBusyError';
  }
}

/** The name a file is moved to during a swap; recoverStaleAsides finds it after a crash. */
const ASIDE_MARK = '.lore-prev-';
const STABLE_READ_ATTEMPTS = 50;
/** A snapshot smaller than expected and modified within this window is re-read. */
const MID_SAVE_WINDOW_MS = 250;

interface Snapshot {
  fd?: number;
  bytes?: Buffer;
  stat?: fs.BigIntStats;
}

/** Same inode, size and modification time: the content has not been written since. */
function sameVersion(a: fs.BigIntStats, b: fs.BigIntStats): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeNs === b.mtimeNs;
}

export function sleepSync(ms: number): void {
  if (ms > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
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

function notAFile(file: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${file} is a folder, not a file: Lore keeps knowledge in that file; move the folder away and run again`), { code: 'EISDIR', path: file });
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
    let stable = false;
    let snapshot: Snapshot = {};
    try {
      const before = fs.fstatSync(fd, { bigint: true });
      if (!before.isFile()) throw notAFile(file);
      const bytes = readAll(fd);
      const after = fs.fstatSync(fd, { bigint: true });
      const atPath = fs.statSync(file, { bigint: true, throwIfNoEntry: false });
      stable = sameVersion(before, after) && after.size === BigInt(bytes.length) && atPath !== undefined && sameVersion(atPath, after);
      const midSave = expectedBytes !== undefined && bytes.length < expectedBytes && Date.now() - Number(after.mtimeMs) < MID_SAVE_WINDOW_MS;
      if (stable && midSave && Date.now() - started < 4 * MID_SAVE_WINDOW_MS) stable = false;
      snapshot = { fd, bytes, stat: after };
    } catch (error) {
      closeQuietly(fd);
      throw error;
    }
    if (stable) return snapshot;
    closeQuietly(fd);
    if (attempt >= STABLE_READ_ATTEMPTS) throw new FileBusyError(file, attempt);
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
export function mergeDisplaced(current: Buffer | undefined, displaced: Buffer): Buffer {
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

type SwapResult = { ok: true; aside?: string } | { ok: false; displaced?: Buffer };

function isLinkUnsupported(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'ENOSYS' || code === 'EMLINK';
}

/** Puts a set-aside version back; when someone created the path meanwhile, returns its bytes to merge. */
function restoreAside(aside: string, file: string): Buffer | undefined {
  try {
    fs.linkSync(aside, file);
    fs.rmSync(aside, { force: true });
    return undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST' && !isLinkUnsupported(error)) throw error;
  }
  if (!fs.existsSync(file)) {
    fs.renameSync(aside, file);
    return undefined;
  }
  const displaced = fs.readFileSync(aside);
  fs.rmSync(aside, { force: true });
  return displaced;
}

/** Step 3: swaps the temporary file in, but only over the version the snapshot read. */
function swapIn(file: string, tmp: string, snapshot: Snapshot): SwapResult {
  const placeNew = (): boolean => {
    try {
      fs.linkSync(tmp, file);
      fs.rmSync(tmp, { force: true });
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      if (!isLinkUnsupported(error)) throw error;
    }
    // No hard links on this file system: a rename is the next best (it cannot detect a newcomer).
    fs.renameSync(tmp, file);
    return true;
  };
  if (!snapshot.stat) {
    if (placeNew()) return { ok: true };
    fs.rmSync(tmp, { force: true });
    return { ok: false };
  }
  const aside = `${path.join(path.dirname(file), '.' + path.basename(file))}${ASIDE_MARK}${process.pid}${Math.random().toString(36).slice(2, 8)}`;
  try {
    fs.renameSync(file, aside);
  } catch (error) {
    fs.rmSync(tmp, { force: true });
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ok: false };
    throw error;
  }
  const moved = fs.statSync(aside, { bigint: true });
  if (!sameVersion(moved, snapshot.stat)) {
    fs.rmSync(tmp, { force: true });
    return { ok: false, displaced: restoreAside(aside, file) };
  }
  let placed: boolean;
  try {
    placed = placeNew();
  } catch (error) {
    restoreAside(aside, file);
    fs.rmSync(tmp, { force: true });
    throw error;
  }
  if (!placed) {
    // Someone created the file while it was aside: keep theirs, merge ours (the read version) into it.
    const displaced = fs.readFileSync(aside);
    fs.rmSync(aside, { force: true });
    fs.rmSync(tmp, { force: true });
    return { ok: false, displaced };
  }
  return { ok: true, aside };
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
    private aside: string | undefined,
  ) {}

  get changed(): boolean {
    return this.content !== undefined;
  }

  /**
   * Merges writes that went into the replaced file after the swap (an editor or appender that
   * had opened it before) and releases it. Returns the replacement that holds the final
   * content: this one, or a new one when late lines were merged.
   */
  settle(): GuardedReplace {
    const { fd, stat } = this.snapshot;
    this.snapshot = {};
    let late: Buffer | undefined;
    try {
      if (fd !== undefined && stat && this.content !== undefined) {
        const now = fs.fstatSync(fd, { bigint: true });
        if (!sameVersion(now, stat)) late = readAll(fd);
      }
    } finally {
      closeQuietly(fd);
    }
    if (late === undefined) {
      this.removeAside();
      return this;
    }
    const again = replaceGuarded(this.file, this.edit, { ...this.options, displaced: late });
    this.removeAside();
    return again.settle();
  }

  private removeAside(): void {
    if (this.aside) fs.rmSync(this.aside, { force: true });
    this.aside = undefined;
  }
}

/**
 * Applies `edit` to the current content of `file` and replaces it, safely against concurrent
 * writers (see the module comment). Call `settle()` on the result once the rest of the work is
 * done (the later, the more late writes it catches), or at once.
 */
export function replaceGuarded(file: string, edit: ByteEdit, options: GuardedReplaceOptions & { displaced?: Buffer } = {}): GuardedReplace {
  const durable = options.durable ?? true;
  const attempts = options.attempts ?? 40;
  let displaced = options.displaced;
  for (let attempt = 0; attempt < attempts; attempt++) {
    const snapshot = readSnapshot(file, options.expectedBytes);
    const base = displaced ? mergeDisplaced(snapshot.bytes, displaced) : snapshot.bytes;
    let next: Buffer | undefined;
    let tmp: string;
    try {
      next = edit(base) ?? (displaced ? base : undefined);
      if (next === undefined || (snapshot.bytes !== undefined && next.equals(snapshot.bytes))) {
        return new GuardedReplace(file, undefined, attempt, edit, options, snapshot, undefined);
      }
      tmp = writeTempBeside(file, next, durable);
    } catch (error) {
      closeQuietly(snapshot.fd);
      throw error;
    }
    if (durable) crashPoint(`wrote ${path.basename(tmp)}`);
    let swap: SwapResult;
    try {
      swap = swapIn(file, tmp, snapshot);
    } catch (error) {
      closeQuietly(snapshot.fd);
      throw error;
    }
    if (swap.ok) {
      if (durable) {
        fsyncDirectory(path.dirname(file));
        crashPoint(`replaced ${path.basename(file)}`);
      }
      return new GuardedReplace(file, next, attempt, edit, options, snapshot, swap.aside);
    }
    closeQuietly(snapshot.fd);
    if (swap.displaced) displaced = displaced ? mergeDisplaced(swap.displaced, displaced) : swap.displaced;
    sleepSync(backoff(attempt));
  }
  throw new FileBusyError(file, attempts);
}

/**
 * After a crash in the middle of a swap, a file may sit aside (`.<name>.lore-prev-…`) with its
 * own path missing or already replaced. Restores the first kind and merges any line the second
 * lacks. Call it holding the store lock.
 */
export function recoverStaleAsides(dir: string): void {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const mark = name.lastIndexOf(ASIDE_MARK);
    if (!name.startsWith('.') || mark < 1) continue;
    const aside = path.join(dir, name);
    const file = path.join(dir, name.slice(1, mark));
    if (!fs.existsSync(file)) {
      fs.renameSync(aside, file);
      continue;
    }
    const kept = fs.readFileSync(aside);
    replaceGuarded(file, () => undefined, { displaced: kept }).settle();
    fs.rmSync(aside, { force: true });
  }
}

/** An edit of a text file; `text` is undefined when the file does not exist; undefined = no change. */
export type TextEdit = (text: string | undefined) => string | undefined;

/**
 * replaceGuarded for text that must round-trip byte for byte (the user's category and note
 * files): decoded and encoded losslessly, so invalid UTF-8 a person wrote stays as it was.
 */
export function replaceTextGuarded(file: string, edit: TextEdit, options: GuardedReplaceOptions = {}): GuardedReplace {
  return replaceGuarded(
    file,
    (bytes) => {
      const next = edit(bytes === undefined ? undefined : decodeLossless(bytes));
      return next === undefined ? undefined : encodeLossless(next);
    },
    options,
  );
}

/** Reads a file as lossless text (see losslessText), or undefined when it does not exist. */
export function readTextLossless(file: string): string | undefined {
  try {
    return decodeLossless(fs.readFileSync(file));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

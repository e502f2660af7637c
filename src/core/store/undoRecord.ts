/**
 * The undo record of the last apply: what the store held before it, so that "Undo Last Harvest"
 * can put it back. One level: the next apply replaces it.
 *
 * It lives in the store's private `.undo/` folder (which ignores itself for git, so stores made
 * before it existed keep it out of commits too) and holds only bytes the store or its inbox held
 * already: copies of the files an apply rewrites, and the inbox files a `delete` reclaim would
 * have unlinked (the apply moves them here instead; they go for good with the next apply).
 *
 * Crash safety: the record (state `begun`) is durable before the apply changes anything, and
 * says `applied` with the hash of every file as the apply left it once the apply is done. An
 * apply interrupted after `begun` keeps the earlier copies when it is run again (the first
 * "before" wins), so its undo still restores the store as it was before the interrupted run.
 * Undo marks the record `undoing` before it restores anything; an apply refuses to start over
 * such a record, since clearing it would lose inbox files not yet moved back.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { UndoRecord } from './undoRecordSchema';
import { redactName } from '../model/safety/redact';
import { crashPoint } from '../base/crashPoints';
import { sha256Hash } from '../base/lazyCrypto';
import { describeSchemaIssue } from '../base/schemaIssue';
import { fsyncDirectory, fsyncFile, writeFileAtomic } from '../base/atomicWrite';
import { isInside, resolveInStore, storeRelative, type StorePaths } from './storePaths';
import { boundedFileName } from '../base/fileNames';
import { mkdirNoFollow, removeNoFollow, renameNoFollow } from '../base/storeLinks';
import { lazy } from '../base/lazy';
import { readStoreFile } from '../base/readText';

const undoRecordSchemaModule = lazy(() => require('./undoRecordSchema') as typeof import('./undoRecordSchema'));

/** The folder under the store root. */
export const UNDO_DIR = '.undo';
const RECORD = 'record.json';
const BEFORE_DIR = 'before';
const KEPT_DIR = 'inbox';

export type { UndoFile, UndoRecord } from './undoRecordSchema';

/** What an apply is about to do, as far as undo must know it. */
export interface PlannedApply {
  /** Store-relative files it may rewrite (knowledge, notes, review.md, digest.md, ledger.json). */
  files: string[];
  /** Store-relative hooks queue entries the harvest may settle after the apply. */
  queued?: string[];
  /** Transcripts it writes: store-relative path and text. */
  transcripts: Array<{ file: string; text: string }>;
  /** Inbox files it reclaims. */
  reclaims: Array<{ path: string; sha256: string; action: 'delete' | 'archive'; archiveTo?: string }>;
}

/** Thrown when an apply would start while an undo is half done. */
export class UndoInProgressError extends Error {
  constructor() {
    super(
      'an undo of the last harvest was interrupted; run "lore undo" (or "Lore: Undo Last Harvest") again to finish it before applying another harvest',
    );
    this.name = 'UndoInProgressError';
  }
}

export function undoDir(paths: StorePaths): string {
  return path.join(paths.root, UNDO_DIR);
}

/** The record file itself. */
export function undoRecordFile(paths: StorePaths): string {
  return path.join(undoDir(paths), RECORD);
}

/** sha256 of a file's bytes, null when it does not exist. */
export function fileSha(file: string): string | null {
  let bytes: Buffer;
  try {
    bytes = readStoreFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  return sha256Hash().update(bytes).digest('hex');
}

/** The copy of a file's "before" bytes (index in `files`), named after it so errors say which file it is. */
export function beforeCopy(paths: StorePaths, index: number, file: string): string {
  return path.join(undoDir(paths), BEFORE_DIR, boundedFileName(`${index}-${path.basename(file)}`));
}

/** The absolute path of a kept reclaim, checked to stay inside `.undo/`. */
export function keptPath(paths: StorePaths, kept: string): string {
  const full = path.resolve(undoDir(paths), kept);
  if (!isInside(path.join(undoDir(paths), KEPT_DIR), full))
    throw new Error(`the undo record names a kept file outside ${UNDO_DIR}/${KEPT_DIR}/: ${kept}`);
  return full;
}

/**
 * The record, or undefined when there is none. A record that does not parse is reported as an
 * error: guessing what it meant could restore the wrong bytes.
 */
export function readUndoRecord(paths: StorePaths): UndoRecord | undefined {
  let text: string;
  try {
    text = readStoreFile(path.join(undoDir(paths), RECORD), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  // The schema (zod) loads on first use: the extension host imports this module at activation.
  const { undoRecordSchema } = undoRecordSchemaModule();
  let parsed: ReturnType<typeof undoRecordSchema.safeParse>;
  try {
    parsed = undoRecordSchema.safeParse(JSON.parse(text));
  } catch (error) {
    throw new Error(`${path.join(undoDir(paths), RECORD)} is not valid JSON (${(error as Error).message})`, { cause: error });
  }
  if (!parsed.success) throw new Error(`${path.join(undoDir(paths), RECORD)} is not an undo record: ${describeSchemaIssue(parsed.error)}`);
  const record = parsed.data;
  // Data from disk: every path it names must stay where an apply writes.
  for (const f of record.files) resolveInStore(paths, f.file);
  for (const t of record.transcripts)
    if (!isInside(paths.transcripts, resolveInStore(paths, t.file)))
      throw new Error(`the undo record names a transcript outside transcripts/: ${t.file}`);
  for (const r of record.reclaims) {
    if (!isInside(paths.inbox, resolveInStore(paths, r.from))) throw new Error(`the undo record names a reclaim outside inbox/: ${r.from}`);
    if (r.kept) keptPath(paths, r.kept);
    if (r.archivedTo && !isInside(paths.archive, resolveInStore(paths, r.archivedTo)))
      throw new Error(`the undo record names an archive outside archive/: ${r.archivedTo}`);
  }
  return record;
}

/**
 * True when the last apply began and did not finish (killed after its record): the next apply,
 * even one with nothing left to change, finishes its record so that it can be undone.
 */
export function hasUnfinishedApply(paths: StorePaths): boolean {
  try {
    return readUndoRecord(paths)?.state === 'begun';
  } catch {
    return false; // An unreadable record is reported by undo, and replaced by the next apply that changes something.
  }
}

export function writeUndoRecord(paths: StorePaths, record: UndoRecord): void {
  writeFileAtomic(path.join(undoDir(paths), RECORD), JSON.stringify(record, null, 1) + '\n');
}

/** Removes the record first (so a crash leaves no half record), then the rest of `.undo/`. */
export function clearUndo(paths: StorePaths): void {
  removeNoFollow(path.join(undoDir(paths), RECORD), { force: true });
  removeNoFollow(undoDir(paths), { recursive: true, force: true });
}

/**
 * The store-relative name a reclaimed inbox file is recorded under, and put back under by undo:
 * its own, with any secret the name held redacted (its bytes come back unchanged).
 */
function reclaimedName(paths: StorePaths, file: string): string {
  return redactName(storeRelative(paths, file));
}

/**
 * Called by an apply, under the store lock, before it changes anything: replaces the previous
 * apply's record (one level) with one for this apply, durable before this returns. Over the
 * record of an interrupted apply, the copies it made are kept and only new files are added.
 * `keepPrevious` (an apply that changes nothing) leaves the previous record as it is.
 */
export function beginUndoRecord(
  paths: StorePaths,
  planned: PlannedApply,
  options: { keepPrevious?: boolean; now?: Date } = {},
): UndoRecord | undefined {
  let previous: UndoRecord | undefined;
  try {
    previous = readUndoRecord(paths);
  } catch {
    previous = undefined; // An unreadable record only costs the undo of an apply being replaced anyway.
  }
  if (previous?.state === 'undoing') throw new UndoInProgressError();
  // An interrupted apply's record is finished by the run that completes it, even one with nothing left to do.
  if (options.keepPrevious && previous?.state !== 'begun') return undefined;
  const record: UndoRecord =
    previous?.state === 'begun'
      ? previous
      : { version: 1, state: 'begun', at: (options.now ?? new Date()).toISOString(), files: [], transcripts: [], reclaims: [] };
  if (record !== previous) clearUndo(paths);
  const dir = undoDir(paths);
  mkdirNoFollow(dir);
  if (!fs.existsSync(path.join(dir, '.gitignore')))
    writeFileAtomic(path.join(dir, '.gitignore'), '# Lore: the private undo area of the last harvest\n*\n', { durable: false });

  // The copies are made durable together (each file, then their folder once) before the
  // record that names them: an fsync per copy as it is written would wait for each alone.
  const copies: string[] = [];
  const queued = new Set(planned.queued ?? []);
  for (const file of [...planned.files, ...queued]) {
    if (record.files.some((f) => f.file === file)) continue;
    const full = resolveInStore(paths, file);
    const index = record.files.length;
    const bytes = readIfExists(full);
    if (bytes) {
      copies.push(beforeCopy(paths, index, file));
      writeFileAtomic(copies[copies.length - 1], bytes, { durable: false });
    }
    record.files.push({
      file,
      before: bytes ? sha256Hash().update(bytes).digest('hex') : null,
      ...(queued.has(file) ? { restoreIfMissing: true } : {}),
    });
  }
  for (const copy of copies) fsyncFile(copy);
  if (copies.length) fsyncDirectory(path.dirname(copies[0]));
  for (const t of planned.transcripts) {
    if (record.transcripts.some((r) => r.file === t.file) || fs.existsSync(resolveInStore(paths, t.file))) continue;
    record.transcripts.push({ file: t.file, sha256: sha256Hash().update(Buffer.from(t.text, 'utf8')).digest('hex') });
  }
  for (const r of planned.reclaims) {
    const from = reclaimedName(paths, r.path);
    if (record.reclaims.some((k) => k.from === from || k.from === storeRelative(paths, r.path))) continue;
    record.reclaims.push(
      r.action === 'delete'
        ? { from, kept: `${KEPT_DIR}/${boundedFileName(`${r.sha256.slice(0, 16)}-${record.reclaims.length}-${path.basename(from)}`)}` }
        : { from, archivedTo: storeRelative(paths, r.archiveTo!) },
    );
  }
  writeUndoRecord(paths, record);
  crashPoint('undo record begun');
  return record;
}

/**
 * What a `delete` reclaim does instead of unlinking: moves the inbox file into `.undo/`, where it
 * stays until the next apply. Throws ENOENT like an unlink when the file is already gone.
 */
export function keepReclaimed(paths: StorePaths, record: UndoRecord | undefined, file: string): void {
  // A record begun by an older Lore names the file as it was (not redacted): it still counts.
  const names = [reclaimedName(paths, file), storeRelative(paths, file)];
  const entry = record?.reclaims.find((r) => names.includes(r.from) && r.kept);
  if (!entry) {
    removeNoFollow(file); // Not planned as a reclaim (cannot happen through applyPlan): behave as before.
    return;
  }
  const kept = keptPath(paths, entry.kept!);
  renameNoFollow(file, kept);
}

/** Called when the apply is done: records how it left each file, so undo can tell a later edit. */
export function finishUndoRecord(paths: StorePaths, record: UndoRecord): void {
  record.files = record.files.map((f) => ({ ...f, after: fileSha(resolveInStore(paths, f.file)) }));
  record.state = 'applied';
  writeUndoRecord(paths, record);
}

function readIfExists(file: string): Buffer | undefined {
  try {
    return readStoreFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Per-file notes: resolving the file a note is about, finding a file's notes (healing the key
 * when the inode changed), and moving notes whose file is gone to facts.md as `path: note`.
 * Lookups and the heal of deleted files go through the note index (noteIndex.ts, the rule in
 * noteLocator.ts): the language server passes its live one, every other caller gets the store's
 * persisted one (noteIndexCache.ts). Only the explicit whole-store heal reads every note file.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CATEGORY_FILES } from '../model/categories';
import { appendItems } from '../model/categoryFile';
import { orphanNoteLine } from '../model/itemLines';
import { parseProvenance, stripProvenance, toIsoDate } from '../model/provenance';
import { fsyncDirectory } from '../base/atomicWrite';
import { readTextIfExists, readTextLossless } from '../base/readText';
import { replaceTextGuarded } from '../base/storeText';
import { fileIdOf, identifyFile, noteFileNameFor, type FileIdentity } from '../base/fileIdentity';
import { indexWorkspaceFiles, type WorkspaceFile } from '../base/workspaceFiles';
import { addNotes, isNoteFileName, parseNoteFile, renderNoteFile, type NoteFile, type NoteFileMeta } from '../model/noteFile';
import type { NoteIndex } from './noteIndex';
import { openNoteIndex, recordOwnWrites } from './noteIndexCache';
import { locateNotes } from './noteLocator';
import { isInside, workspaceRelative, type StorePaths } from './storePaths';
import { listNames } from '../base/walkTree';

// Callers import the notes vocabulary from here; the helper itself lives with the store layout.
export { workspaceRelative };

export type NoteTarget =
  { kind: 'file'; absolute: string; relative: string; identity: FileIdentity } | { kind: 'orphan'; path: string; reason: string };

/**
 * Resolves a path mentioned in a conversation to a file of this workspace. Relative paths
 * resolve against the workspace; absolute paths under the conversation's recorded cwd are
 * re-based onto the workspace (the conversation may come from another machine or clone).
 * Anything outside the workspace, inside the store, or missing is an orphan.
 */
export function resolveNoteTarget(paths: StorePaths, mentioned: string, conversationCwd?: string): NoteTarget {
  const raw = mentioned.trim().replace(/^file:\/\//, '');
  if (!raw || raw.includes('\0')) return { kind: 'orphan', path: mentioned, reason: 'empty path' };
  let absolute = path.isAbsolute(raw) ? path.resolve(raw) : path.resolve(paths.workspace, raw);
  if (path.isAbsolute(raw) && conversationCwd && !isInside(paths.workspace, absolute) && isInside(conversationCwd, absolute)) {
    absolute = path.resolve(paths.workspace, path.relative(conversationCwd, absolute));
  }
  if (!isInside(paths.workspace, absolute)) return { kind: 'orphan', path: raw, reason: 'outside the workspace' };
  if (isInside(paths.root, absolute)) return { kind: 'orphan', path: raw, reason: 'inside the knowledge store' };
  // A symlink could point out of the workspace; judge where it really leads.
  let real: string;
  try {
    real = fs.realpathSync(absolute);
  } catch {
    return { kind: 'orphan', path: raw, reason: 'no such file' };
  }
  if (!isInside(fs.realpathSync(paths.workspace), real)) return { kind: 'orphan', path: raw, reason: 'outside the workspace' };
  const identity = identifyFile(absolute);
  if (!identity) return { kind: 'orphan', path: raw, reason: 'not a regular file' };
  return { kind: 'file', absolute, relative: workspaceRelative(paths, absolute), identity };
}

export function metaFor(relative: string, identity: FileIdentity): NoteFileMeta {
  return { path: relative, fileId: identity.id, size: identity.size, fingerprint: identity.fingerprint };
}

/** Every note file of the store with its parsed content. */
export function listNoteFiles(paths: StorePaths): Array<{ file: string; note: NoteFile }> {
  return listNames(paths.files)
    .filter(isNoteFileName)
    .sort()
    .map((name) => {
      const file = path.join(paths.files, name);
      return { file, note: parseNoteFile(fs.readFileSync(file, 'utf8')) };
    });
}

/**
 * True when a note file keyed by `absolute`'s inode really is about that file: the recorded path
 * or the recorded content agrees. Deleting a file and creating another usually reuses the inode
 * number, and the new file must not inherit the old one's notes.
 */
function belongsTo(paths: StorePaths, note: NoteFile, absolute: string): boolean {
  if (!note.meta.path) return true; // A hand-made note file without meta: nothing to check against.
  if (note.meta.path === workspaceRelative(paths, absolute)) return true;
  return note.meta.fingerprint !== '' && identifyFile(absolute)?.fingerprint === note.meta.fingerprint;
}

/**
 * Clears the key `noteFile` for `absolute`: when it holds the notes of another file (a deleted
 * file whose inode number `absolute` now has), they go their own way (path, content,
 * facts.md). Call it holding the store lock, before writing `absolute`'s notes under that key.
 */
function evictForeignNotes(paths: StorePaths, noteFile: string, absolute: string, today = new Date()): boolean {
  const text = readTextIfExists(noteFile);
  if (text === undefined) return false;
  const note = parseNoteFile(text);
  if (belongsTo(paths, note, absolute)) return false;
  healOne(paths, noteFile, note, undefined, today, absolute);
  return true;
}

/**
 * The one re-key rule (core heal, the CLI, MCP and the language server): moves the note file
 * `from` to the key of `fileId`, recording `relative` as its path, and merges it into notes
 * already at that key. The recorded size and fingerprint are kept: they say which content the
 * notes describe, so a checkout that brought other content still shows as "changed since"
 * whichever process healed the key. A note without them records the file's current ones. A key
 * held by another file's notes (a reused inode number) is cleared first.
 */
export function rekeyNotes(paths: StorePaths, from: string, relative: string, fileId: string, today = new Date()): string {
  const absolute = path.resolve(paths.workspace, relative);
  const note = parseNoteFile(readTextLossless(from) ?? '');
  const current = note.meta.fingerprint ? undefined : identifyFile(absolute);
  const meta: NoteFileMeta = current ? metaFor(relative, current) : { ...note.meta, path: relative, fileId };
  meta.fileId = fileId;
  const target = path.join(paths.files, noteFileNameFor(fileId));
  if (target !== from) evictForeignNotes(paths, target, absolute, today);
  const lines = note.notes.map((n) => n.raw);
  replaceTextGuarded(target, (existing) =>
    existing === undefined || target === from
      ? renderNoteFile(meta, existing === undefined ? note.body : parseNoteFile(existing).body)
      : addNotes(existing, meta, lines),
  ).settle();
  if (target !== from) {
    fs.rmSync(from, { force: true });
    fsyncDirectory(paths.files);
  }
  return target;
}

export interface FoundNotes {
  file: string;
  note: NoteFile;
  /** How the notes were found: by inode, or healed by path or by content. */
  via: 'inode' | 'path' | 'fingerprint';
}

export interface FindNotesOptions {
  /** Re-key a note file found by path or content (default true). */
  heal?: boolean;
  /** The note index to look in (the server's live one); default: the store's persisted index. */
  index?: NoteIndex;
}

/**
 * Finds the notes of a file through the note index (noteLocator's rule: by device:inode, else
 * by recorded path, else by content fingerprint), reading only the note file it finds. A note
 * file found by path or content, or recording another path, is re-keyed so the next lookup is
 * direct.
 */
export function findNotesForFile(paths: StorePaths, absolute: string, options: FindNotesOptions = {}): FoundNotes | undefined {
  const index = options.index ?? openNoteIndex(paths);
  const located = locateVerified(paths, index, absolute);
  if (!located) return undefined;
  const { entry, relative, via } = located;
  if (!located.needsRepair || !(options.heal ?? true)) {
    const text = readTextIfExists(entry.file);
    return text === undefined ? undefined : { file: entry.file, note: parseNoteFile(text), via };
  }
  const file = rekeyNotes(paths, entry.file, relative, fileIdOf(located.stat));
  index.refreshSync([entry.name, path.basename(file)]);
  return { file, note: parseNoteFile(fs.readFileSync(file, 'utf8')), via };
}

/** The note file of an existing workspace file by the one rule, verified against the file's content when it must be. */
function locateVerified(paths: StorePaths, index: NoteIndex, absolute: string): ReturnType<typeof locateNotes> {
  return locateNotes(paths, index, absolute, { fingerprint: () => identifyFile(absolute)?.fingerprint, verify: true });
}

/**
 * The note file of an existing workspace file and its text, as findNotesForFile without healing
 * reads it, unparsed: for callers that make something of the text and keep it (the hook's block
 * cache), so an unchanged note file is never parsed again.
 */
export function noteTextOf(paths: StorePaths, absolute: string, index: NoteIndex): { file: string; text: string } | undefined {
  const located = locateVerified(paths, index, absolute);
  const text = located && readTextIfExists(located.entry.file);
  return located && text !== undefined ? { file: located.entry.file, text } : undefined;
}

/** A file's note file as read, without healing. */
export interface ReadNotes {
  /** Absolute path of the note file. */
  file: string;
  note: NoteFile;
  /** Its text, for callers that extract documents with lines. */
  text: string;
}

/**
 * The notes of a workspace file, read-only (recall and MCP: reading must not write): located
 * by the one rule while the file exists, else by the path its note file records (a file that is
 * gone keeps its notes until a heal moves them). `absolute` must lie inside the workspace.
 */
export function readNotesOf(paths: StorePaths, absolute: string, index: NoteIndex = openNoteIndex(paths)): ReadNotes | undefined {
  if (!isInside(paths.workspace, absolute)) return undefined;
  const located = locateVerified(paths, index, absolute);
  const relative = workspaceRelative(paths, absolute);
  const entry =
    located?.entry ??
    (fs.existsSync(absolute)
      ? undefined
      : index
          .withRecordedPath(relative)
          .map((e) => index.fresh(e.name))
          .find((e) => e?.meta.path === relative));
  const text = entry && readTextIfExists(entry.file);
  return entry && text !== undefined ? { file: entry.file, note: parseNoteFile(text), text } : undefined;
}

/**
 * Adds notes to a file of the workspace (creating its note file). Without a live index, the
 * store's persisted one is told what was written, so the next process need not re-list files/.
 */
export function addNotesToFile(
  paths: StorePaths,
  target: Extract<NoteTarget, { kind: 'file' }>,
  lines: string[],
  index?: NoteIndex,
): string {
  const persisted = index ? undefined : openNoteIndex(paths);
  const found = findNotesForFile(paths, target.absolute, { index: index ?? persisted });
  const file = found?.file ?? path.join(paths.files, noteFileNameFor(target.identity.id));
  // A re-key or an eviction moved other note files too: the next process re-lists for those.
  const movedOthers = found ? found.via !== 'inode' : evictForeignNotes(paths, file, target.absolute);
  replaceTextGuarded(file, (text) => addNotes(text, metaFor(target.relative, target.identity), lines)).settle();
  if (persisted && !movedOthers) recordOwnWrites(paths, persisted, [path.basename(file)]);
  return file;
}

export interface HealReport {
  /** Note files re-keyed to a new inode (path unchanged or re-found by content). */
  healed: Array<{ from: string; to: string; path: string }>;
  /** Note files whose file is gone; their notes moved to facts.md. */
  orphaned: Array<{ file: string; path: string; notes: number }>;
}

/**
 * Checks every note file: re-keys the ones whose file got a new inode, and moves the notes of
 * files that no longer exist to facts.md as `path: note`. Facts are written before the note
 * file is removed, so a crash in between duplicates nothing (lines are de-duplicated) and
 * loses nothing.
 */
export function healNotes(paths: StorePaths, today = new Date()): HealReport {
  const report: HealReport = { healed: [], orphaned: [] };
  const workspace: { index?: Map<string, WorkspaceFile> } = {};
  for (const { file, note } of listNoteFiles(paths)) {
    if (!fs.existsSync(file)) continue; // Already moved by an earlier heal of this run.
    healOne(paths, file, note, report, today, undefined, workspace);
  }
  return report;
}

/**
 * Heals the notes of files just deleted (absolute paths of files or folders, as VS Code reports
 * them): a note file recording a deleted path is re-keyed when the path holds a file again, else
 * its notes move to facts.md as `path: note`, facts first. Costs what those note files cost:
 * the index names them, and the workspace is not walked (a move arrives as a rename, which
 * re-keys at once). Returns the names of the note files it touched in `touched`.
 */
export function healDeletedFiles(
  paths: StorePaths,
  deleted: string[],
  index: NoteIndex,
  today = new Date(),
): HealReport & { touched: string[] } {
  const report: HealReport = { healed: [], orphaned: [] };
  const names = new Set<string>();
  for (const absolute of deleted) {
    const relative = workspaceRelative(paths, path.resolve(absolute));
    if (relative === '' || relative.startsWith('..')) continue;
    const atPath = index.withRecordedPath(relative);
    // Only a path without notes of its own may have been a folder (a one-shot index then loads whole).
    for (const e of atPath.length > 0 ? atPath : index.underFolder(relative)) names.add(e.name);
  }
  for (const name of [...names].sort()) {
    const entry = index.fresh(name);
    const text = entry && readTextIfExists(entry.file);
    if (!entry || text === undefined) continue;
    const note = parseNoteFile(text);
    healOne(paths, entry.file, note, report, today, undefined, { relocate: false });
  }
  const touched = [...report.healed.flatMap((h) => [h.from, h.to]), ...report.orphaned.map((o) => o.file)];
  index.refreshSync(touched);
  return { ...report, touched };
}

/**
 * Heals one note file: re-keys it when its file is at the recorded path under a new inode or
 * was moved (same inode and content, or same content), else moves its notes to facts.md.
 * `notAt` names a file the notes are known not to belong to (a reused inode).
 */
function healOne(
  paths: StorePaths,
  file: string,
  note: NoteFile,
  report: HealReport = { healed: [], orphaned: [] },
  today = new Date(),
  notAt?: string,
  workspace: { index?: Map<string, WorkspaceFile>; relocate?: boolean } = {},
): void {
  if (!note.meta.path) return; // A hand-made note file without meta: leave it alone.
  const absolute = path.resolve(paths.workspace, note.meta.path);
  const identity = absolute === notAt ? undefined : identifyFile(absolute);
  if (identity) {
    if (identity.id !== note.meta.fileId || path.basename(file) !== identity.noteFileName) {
      const to = rekeyNotes(paths, file, note.meta.path, identity.id, today);
      report.healed.push({ from: path.basename(file), to: path.basename(to), path: note.meta.path });
    }
    return;
  }
  // The recorded path is gone: the file may have been moved (same inode and content) or moved
  // and rewritten (same content). Walk the workspace once to look for it.
  if (workspace.relocate !== false) workspace.index ??= indexWorkspaceFiles(paths.workspace);
  const moved = workspace.index && relocate(workspace.index, note, notAt);
  if (moved) {
    const relative = workspaceRelative(paths, moved);
    const to = rekeyNotes(paths, file, relative, identifyFile(moved, false)!.id, today);
    report.healed.push({ from: path.basename(file), to: path.basename(to), path: relative });
    return;
  }
  const factsFile = path.join(paths.root, CATEGORY_FILES.facts.file);
  const lines = note.notes.map((item) => {
    const provenance = parseProvenance(item.raw) ?? { source: 'manual', date: toIsoDate(today) };
    return orphanNoteLine(note.meta.path, stripProvenance(item.text), provenance);
  });
  if (lines.length > 0) replaceTextGuarded(factsFile, (text) => appendItems(text, CATEGORY_FILES.facts.title, lines)).settle();
  fs.rmSync(file, { force: true });
  fsyncDirectory(paths.files);
  report.orphaned.push({ file: path.basename(file), path: note.meta.path, notes: lines.length });
}

/**
 * Finds a moved file by its inode when its content is still the recorded one (an inode number
 * alone may have been reused by another file), else by size and content fingerprint.
 */
function relocate(index: Map<string, WorkspaceFile>, note: NoteFile, notAt?: string): string | undefined {
  if (!note.meta.fingerprint || note.meta.size < 0) return undefined;
  const sameContent = (candidate: WorkspaceFile) =>
    candidate.path !== notAt && candidate.size === note.meta.size && identifyFile(candidate.path)?.fingerprint === note.meta.fingerprint;
  const byInode = index.get(note.meta.fileId);
  if (byInode && sameContent(byInode)) return byInode.path;
  for (const candidate of index.values()) if (sameContent(candidate)) return candidate.path;
  return undefined;
}

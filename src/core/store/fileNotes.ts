/**
 * Per-file notes: resolving the file a note is about, finding a file's notes, naming a new note
 * file, following a moved file, and moving notes whose file is gone to facts.md as `path: note`.
 * Lookups and the heal of deleted files go through the note index (noteIndex.ts, the rule in
 * noteLocator.ts): the language server passes its live one, every other caller gets the store's
 * persisted one (noteIndexCache.ts). Only the explicit whole-store heal reads every note file.
 *
 * A note file's name is its portable id (model/noteFile.ts) and never changes: finding notes
 * writes nothing (a clone's first lookups only teach the local index each file's device:inode),
 * and a moved file's new path is recorded when Lore writes its notes or a person's rename is seen.
 */
import * as fs from 'node:fs';
import { removeNoFollow } from '../base/storeLinks';
import * as path from 'node:path';
import { CATEGORY_FILES } from '../model/categories';
import { appendItems } from '../model/categoryFile';
import { orphanNoteLine } from '../model/itemLines';
import { parseProvenance, stripProvenance, toIsoDate } from '../model/provenance';
import { fsyncDirectory } from '../base/atomicWrite';
import { readStoreFile, readTextIfExists } from '../base/readText';
import { replaceTextGuarded } from '../base/storeText';
import { identifyFile, type FileIdentity } from '../base/fileIdentity';
import { indexWorkspaceFiles, type WorkspaceFile } from '../base/workspaceFiles';
import {
  addNotes,
  isNoteFileName,
  noteFileNameOf,
  noteIdForPath,
  noteIdOfName,
  parseNoteFile,
  randomNoteId,
  renderNoteFile,
  type NoteFile,
  type NoteFileMeta,
} from '../model/noteFile';
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

/** The meta Lore writes for a note file: its id (from its name), the file's path and current content. */
export function metaFor(noteFile: string, relative: string, identity: FileIdentity): NoteFileMeta {
  return { path: relative, id: noteIdOfName(path.basename(noteFile)), size: identity.size, fingerprint: identity.fingerprint };
}

/** Every note file of the store with its parsed content. */
export function listNoteFiles(paths: StorePaths): Array<{ file: string; note: NoteFile }> {
  return listNames(paths.files)
    .filter(isNoteFileName)
    .sort()
    .map((name) => {
      const file = path.join(paths.files, name);
      return { file, note: parseNoteFile(readStoreFile(file, 'utf8')) };
    });
}

/**
 * The note file the first note of `relative` goes to: named by the path's id, so two people who
 * note the same file on their own machines write the same file and git merges one; a fresh
 * random id when that name already holds the notes of another path (a file renamed away keeps
 * its note file's name, and a new file at its old path must not inherit its notes).
 */
export function newNoteFile(paths: StorePaths, relative: string): string {
  const free = (id: string) => {
    const text = readTextIfExists(path.join(paths.files, noteFileNameOf(id)));
    if (text === undefined) return true;
    const recorded = parseNoteFile(text).meta.path;
    return recorded === relative || recorded === '';
  };
  let id = noteIdForPath(relative);
  while (!free(id)) id = randomNoteId(relative);
  return path.join(paths.files, noteFileNameOf(id));
}

/**
 * Records that the notes in `noteFile` are about `relative` now (a moved file), keeping the
 * recorded size and fingerprint: they say which content the notes describe. The note file keeps
 * its name. A note without them records the file's current ones.
 */
export function recordNotePath(paths: StorePaths, noteFile: string, relative: string): boolean {
  const absolute = path.resolve(paths.workspace, relative);
  return replaceTextGuarded(noteFile, (text) => {
    if (text === undefined) return undefined;
    const note = parseNoteFile(text);
    const current = note.meta.fingerprint ? undefined : identifyFile(absolute);
    const meta: NoteFileMeta = current
      ? metaFor(noteFile, relative, current)
      : { ...note.meta, path: relative, id: noteIdOfName(path.basename(noteFile)) };
    return note.meta.path === relative && note.meta.id === meta.id ? undefined : renderNoteFile(meta, note.body);
  }).settle().changed;
}

export interface FoundNotes {
  file: string;
  note: NoteFile;
  /** How the notes were found: by this machine's device:inode, by recorded path or by content. */
  via: 'inode' | 'path' | 'fingerprint';
}

export interface FindNotesOptions {
  /** The note index to look in (the server's live one); default: the store's persisted index. */
  index?: NoteIndex;
}

/**
 * Finds the notes of a file through the note index (noteLocator's rule: by device:inode, else
 * by recorded path, else by content fingerprint), reading only the note file it finds. Writes
 * no note file: a hit by path or content only teaches the index this machine's device:inode.
 */
export function findNotesForFile(paths: StorePaths, absolute: string, options: FindNotesOptions = {}): FoundNotes | undefined {
  const index = options.index ?? openNoteIndex(paths);
  const located = locateVerified(paths, index, absolute);
  if (!located) return undefined;
  const text = readTextIfExists(located.entry.file);
  return text === undefined ? undefined : { file: located.entry.file, note: parseNoteFile(text), via: located.via };
}

/** The note file of an existing workspace file by the one rule, verified against the file's content when it must be. */
function locateVerified(paths: StorePaths, index: NoteIndex, absolute: string): ReturnType<typeof locateNotes> {
  return locateNotes(paths, index, absolute, { fingerprint: () => identifyFile(absolute)?.fingerprint, verify: true });
}

/**
 * The note file of an existing workspace file and its text, as findNotesForFile reads it,
 * unparsed: for callers that make something of the text and keep it (the hook's block
 * cache), so an unchanged note file is never parsed again.
 */
export function noteTextOf(paths: StorePaths, absolute: string, index: NoteIndex): { file: string; text: string } | undefined {
  const located = locateVerified(paths, index, absolute);
  const text = located && readTextIfExists(located.entry.file);
  return located && text !== undefined ? { file: located.entry.file, text } : undefined;
}

/** A file's note file as read. */
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
 * Adds notes to a file of the workspace (creating its note file, named by newNoteFile). The
 * note file records the file's path and content as they are now. Without a live index, the
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
  const file = found?.file ?? newNoteFile(paths, target.relative);
  replaceTextGuarded(file, (text) => addNotes(text, metaFor(file, target.relative, target.identity), lines)).settle();
  if (persisted) recordOwnWrites(paths, persisted, [path.basename(file)]);
  return file;
}

export interface HealReport {
  /** Note files whose file was moved: the path they record now. */
  healed: Array<{ file: string; from: string; path: string }>;
  /** Note files whose file is gone; their notes moved to facts.md. */
  orphaned: Array<{ file: string; path: string; notes: number }>;
}

/**
 * Checks every note file (`lore notes --heal`, a person's request): one whose file was moved on
 * this machine (found by device:inode with the recorded content, or by content) records its new
 * path; the notes of files that no longer exist move to facts.md as `path: note`. Facts are
 * written before the note file is removed, so a crash in between duplicates nothing (lines are
 * de-duplicated) and loses nothing.
 */
export function healNotes(paths: StorePaths, today = new Date()): HealReport {
  const report: HealReport = { healed: [], orphaned: [] };
  const workspace: { index?: Map<string, WorkspaceFile> } = {};
  const index = openNoteIndex(paths);
  for (const { file, note } of listNoteFiles(paths)) {
    const localId = index.fresh(path.basename(file))?.localId ?? '';
    healOne(paths, file, note, localId, report, today, workspace);
  }
  if (report.healed.length > 0 || report.orphaned.length > 0) index.refreshSync();
  return report;
}

/**
 * Heals the notes of files just deleted in the editor (absolute paths of files or folders, as
 * VS Code reports them): a note file recording a deleted path is left alone when the path holds a
 * file again, else its notes move to facts.md as `path: note`, facts first. Costs what those note
 * files cost: the index names them, and the workspace is not walked (a move arrives as a rename).
 * Returns the names of the note files it touched in `touched`.
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
    healOne(paths, entry.file, parseNoteFile(text), entry.localId, report, today, { relocate: false });
  }
  const touched = [...report.healed.map((h) => h.file), ...report.orphaned.map((o) => o.file)];
  index.refreshSync(touched);
  return { ...report, touched };
}

/**
 * Heals one note file: nothing while its file is at the recorded path; the new path when the
 * file was moved (same device:inode and content, or same content); else its notes go to facts.md.
 */
function healOne(
  paths: StorePaths,
  file: string,
  note: NoteFile,
  localId: string,
  report: HealReport,
  today: Date,
  workspace: { index?: Map<string, WorkspaceFile>; relocate?: boolean },
): void {
  if (!note.meta.path) return; // A hand-made note file without meta: leave it alone.
  if (identifyFile(path.resolve(paths.workspace, note.meta.path), false)) return;
  // The recorded path is gone: the file may have been moved (same inode and content) or moved
  // and rewritten (same content). Walk the workspace once to look for it.
  if (workspace.relocate !== false) workspace.index ??= indexWorkspaceFiles(paths.workspace);
  const moved = workspace.index && relocate(workspace.index, note, localId);
  if (moved) {
    const relative = workspaceRelative(paths, moved);
    recordNotePath(paths, file, relative);
    report.healed.push({ file: path.basename(file), from: note.meta.path, path: relative });
    return;
  }
  const factsFile = path.join(paths.root, CATEGORY_FILES.facts.file);
  const lines = note.notes.map((item) => {
    const provenance = parseProvenance(item.raw) ?? { source: 'manual', date: toIsoDate(today) };
    return orphanNoteLine(note.meta.path, stripProvenance(item.text), provenance);
  });
  if (lines.length > 0) replaceTextGuarded(factsFile, (text) => appendItems(text, CATEGORY_FILES.facts.title, lines)).settle();
  removeNoFollow(file, { force: true });
  fsyncDirectory(paths.files);
  report.orphaned.push({ file: path.basename(file), path: note.meta.path, notes: lines.length });
}

/**
 * Finds a moved file by the device:inode this machine knew it by, when its content is still the
 * recorded one (an inode number alone may have been reused by another file), else by size and
 * content fingerprint.
 */
function relocate(index: Map<string, WorkspaceFile>, note: NoteFile, localId: string): string | undefined {
  if (!note.meta.fingerprint || note.meta.size < 0) return undefined;
  const sameContent = (candidate: WorkspaceFile) =>
    candidate.size === note.meta.size && identifyFile(candidate.path)?.fingerprint === note.meta.fingerprint;
  const byInode = localId ? index.get(localId) : undefined;
  if (byInode && sameContent(byInode)) return byInode.path;
  for (const candidate of index.values()) if (sameContent(candidate)) return candidate.path;
  return undefined;
}

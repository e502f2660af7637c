/**
 * Per-file notes: resolving the file a note is about, finding a file's notes (healing the key
 * when the inode changed), and moving notes whose file is gone to facts.md as `path: note`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CATEGORY_FILES } from '../knowledge/categories';
import { appendItems } from '../knowledge/categoryFile';
import { orphanNoteLine } from '../knowledge/itemLines';
import { parseProvenance, stripProvenance, toIsoDate } from '../knowledge/provenance';
import { fsyncDirectory, readTextIfExists, writeFileAtomic } from './atomicWrite';
import { identifyFile, noteFileNameFor, type FileIdentity } from './fileIdentity';
import { indexWorkspaceFiles, type WorkspaceFile } from './workspaceFiles';
import { addNotes, parseNoteFile, renderNoteFile, type NoteFile, type NoteFileMeta } from './noteFile';
import { isInside, type StorePaths } from './storePaths';

export type NoteTarget =
  | { kind: 'file'; absolute: string; relative: string; identity: FileIdentity }
  | { kind: 'orphan'; path: string; reason: string };

/** Workspace-relative path with forward slashes. */
export function workspaceRelative(paths: StorePaths, absolute: string): string {
  return path.relative(paths.workspace, absolute).split(path.sep).join('/');
}

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
  let names: string[];
  try {
    names = fs.readdirSync(paths.files).filter((n) => n.endsWith('.md') && !n.startsWith('.'));
  } catch {
    return [];
  }
  return names.sort().map((name) => {
    const file = path.join(paths.files, name);
    return { file, note: parseNoteFile(fs.readFileSync(file, 'utf8')) };
  });
}

/** Moves a note file to the key of its file's current identity, merging with notes already there. */
function rekey(paths: StorePaths, from: string, note: NoteFile, relative: string, identity: FileIdentity): string {
  const target = path.join(paths.files, identity.noteFileName);
  const meta = metaFor(relative, identity);
  const lines = note.notes.map((n) => n.raw);
  const existing = target === from ? undefined : readTextIfExists(target);
  const text = existing === undefined ? renderNoteFile(meta, note.body) : addNotes(existing, meta, lines);
  writeFileAtomic(target, text);
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

/**
 * Finds the notes of a file. By device:inode first; when the inode changed, by the recorded
 * path, then by content fingerprint, re-keying the note file so the next lookup is direct.
 */
export function findNotesForFile(paths: StorePaths, absolute: string, options: { heal?: boolean } = {}): FoundNotes | undefined {
  const heal = options.heal ?? true;
  const quick = identifyFile(absolute, false);
  if (!quick) return undefined;
  const direct = path.join(paths.files, quick.noteFileName);
  const directText = readTextIfExists(direct);
  if (directText !== undefined) return { file: direct, note: parseNoteFile(directText), via: 'inode' };

  const relative = workspaceRelative(paths, absolute);
  const candidates = listNoteFiles(paths);
  let match = candidates.find((c) => c.note.meta.path === relative);
  let via: FoundNotes['via'] = 'path';
  if (!match) {
    const identity = identifyFile(absolute);
    match = candidates.find((c) => c.note.meta.fingerprint && c.note.meta.fingerprint === identity?.fingerprint && c.note.meta.path !== relative && !pathStillHolds(paths, c.note));
    via = 'fingerprint';
  }
  if (!match) return undefined;
  if (!heal) return { ...match, via };
  const identity = identifyFile(absolute)!;
  const file = rekey(paths, match.file, match.note, relative, identity);
  return { file, note: parseNoteFile(fs.readFileSync(file, 'utf8')), via };
}

/** True when the note's recorded path still exists and carries the note's inode. */
function pathStillHolds(paths: StorePaths, note: NoteFile): boolean {
  if (!note.meta.path) return false;
  const identity = identifyFile(path.resolve(paths.workspace, note.meta.path), false);
  return identity?.id === note.meta.fileId;
}

/** Adds notes to a file of the workspace (creating its note file). */
export function addNotesToFile(paths: StorePaths, target: Extract<NoteTarget, { kind: 'file' }>, lines: string[]): string {
  const found = findNotesForFile(paths, target.absolute);
  const file = found?.file ?? path.join(paths.files, noteFileNameFor(target.identity.id));
  const text = addNotes(readTextIfExists(file), metaFor(target.relative, target.identity), lines);
  writeFileAtomic(file, text);
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
  let workspaceIndex: Map<string, WorkspaceFile> | undefined;
  for (const { file, note } of listNoteFiles(paths)) {
    if (!note.meta.path) continue; // A hand-made note file without meta: leave it alone.
    const absolute = path.resolve(paths.workspace, note.meta.path);
    const identity = identifyFile(absolute);
    if (identity) {
      if (identity.id !== note.meta.fileId || path.basename(file) !== identity.noteFileName) {
        const to = rekey(paths, file, note, note.meta.path, identity);
        report.healed.push({ from: path.basename(file), to: path.basename(to), path: note.meta.path });
      }
      continue;
    }
    // The recorded path is gone: the file may have been moved (same inode) or moved and
    // rewritten (same content). Walk the workspace once to look for it.
    workspaceIndex ??= indexWorkspaceFiles(paths.workspace);
    const moved = relocate(workspaceIndex, note);
    if (moved) {
      const relative = workspaceRelative(paths, moved);
      const to = rekey(paths, file, note, relative, identifyFile(moved)!);
      report.healed.push({ from: path.basename(file), to: path.basename(to), path: relative });
      continue;
    }
    const factsFile = path.join(paths.root, CATEGORY_FILES.facts.file);
    const lines = note.notes.map((item) => {
      const provenance = parseProvenance(item.raw) ?? { source: 'manual', date: toIsoDate(today) };
      return orphanNoteLine(note.meta.path, stripProvenance(item.text), provenance);
    });
    if (lines.length > 0) writeFileAtomic(factsFile, appendItems(readTextIfExists(factsFile), CATEGORY_FILES.facts.title, lines));
    fs.rmSync(file, { force: true });
    fsyncDirectory(paths.files);
    report.orphaned.push({ file: path.basename(file), path: note.meta.path, notes: lines.length });
  }
  return report;
}

/** Finds a moved file by its inode, else by size and content fingerprint. */
function relocate(index: Map<string, WorkspaceFile>, note: NoteFile): string | undefined {
  const byInode = index.get(note.meta.fileId);
  if (byInode) return byInode.path;
  if (!note.meta.fingerprint || note.meta.size < 0) return undefined;
  for (const candidate of index.values()) {
    if (candidate.size === note.meta.size && identifyFile(candidate.path)?.fingerprint === note.meta.fingerprint) return candidate.path;
  }
  return undefined;
}

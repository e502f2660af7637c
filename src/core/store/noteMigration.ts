/**
 * The one-time move of a store's note files from an older Lore's names (`files/<dev>-<ino>.md`,
 * with the machine's `file_id` in the frontmatter) to portable ids (model/noteFile.ts), so a
 * clone on another machine no longer renames every note file. A preview lists each rename; the
 * apply renames within files/ under the store lock.
 *
 * Crash-safe and idempotent: a note file is first rewritten in place with its new frontmatter,
 * then renamed to its new name (never over another file); when that name already holds the
 * same path's notes (two people's note files for one file, or a run interrupted after a copy),
 * the notes are added there (lines already present are skipped) before the old file goes. At
 * every point each note is in at least one note file, and a second run finishes what is left.
 */
import * as fs from 'node:fs';
import { removeNoFollow, renameNoFollow } from '../base/storeLinks';
import * as path from 'node:path';
import { fsyncDirectory } from '../base/atomicWrite';
import { crashPoint } from '../base/crashPoints';
import { readStoreFile, readTextIfExists } from '../base/readText';
import { replaceTextGuarded } from '../base/storeText';
import { addNotes, isLegacyNoteName, noteIdOfName, parseNoteFile, renderNoteFile } from '../model/noteFile';
import { listNoteFiles, newNoteFile } from './fileNotes';
import type { StorePaths } from './storePaths';

export interface NoteRename {
  /** The note file's name now. */
  from: string;
  /** Its name after the migration (a name already holding this path's notes: they are combined). */
  to: string;
  /** The workspace-relative path its notes are about. */
  path: string;
}

/**
 * The note files to migrate: every one with an older Lore's name, or whose frontmatter does not
 * carry its own name as `id` (a `file_id` instead). Hand-made note files without a path are left
 * alone. Reads only. A path's notes go to the note file that already has a portable name for
 * that path, else to newNoteFile's; a random fallback id can differ between preview and apply.
 */
export function planNoteMigration(paths: StorePaths): NoteRename[] {
  return migrate(paths, false);
}

/** Renames what planNoteMigration lists; call it holding the store lock. Returns what was done. */
export function applyNoteMigration(paths: StorePaths): NoteRename[] {
  return migrate(paths, true);
}

function migrate(paths: StorePaths, apply: boolean): NoteRename[] {
  const listed = listNoteFiles(paths).filter(({ note }) => note.meta.path !== '');
  // Where each path's notes live under a portable name already (and, as the run goes, will live).
  const portable = new Map<string, string>();
  for (const { file, note } of listed) if (!isLegacyNoteName(path.basename(file))) portable.set(note.meta.path, file);
  const done: NoteRename[] = [];
  for (const { file, note } of listed) {
    const name = path.basename(file);
    if (!isLegacyNoteName(name) && note.meta.id === noteIdOfName(name)) continue;
    const target = isLegacyNoteName(name) ? (portable.get(note.meta.path) ?? newNoteFile(paths, note.meta.path)) : file;
    portable.set(note.meta.path, target);
    if (apply) moveNoteFile(paths, file, target);
    done.push({ from: name, to: path.basename(target), path: note.meta.path });
  }
  return done;
}

/**
 * Moves one note file to its portable name: combined into the target when that exists (lines
 * already there are skipped), else rewritten in place with the new id and renamed.
 */
function moveNoteFile(paths: StorePaths, from: string, target: string): void {
  const id = noteIdOfName(path.basename(target));
  if (target !== from && fs.existsSync(target)) {
    const lines = parseNoteFile(readStoreFile(from, 'utf8')).notes.map((n) => n.raw);
    replaceTextGuarded(target, (existing) =>
      existing === undefined ? undefined : addNotes(existing, { ...parseNoteFile(existing).meta, id }, lines),
    ).settle();
    crashPoint('note migration: combined');
    removeNoFollow(from, { force: true });
  } else {
    // The new frontmatter first (under the old name), then the rename: never a copy, never a loss.
    replaceTextGuarded(from, (text) => {
      if (text === undefined) return undefined;
      const note = parseNoteFile(text);
      return renderNoteFile({ ...note.meta, id }, note.body);
    }).settle();
    crashPoint('note migration: frontmatter');
    if (target !== from && readTextIfExists(target) === undefined) renameNoFollow(from, target);
  }
  fsyncDirectory(paths.files);
  crashPoint('note migration: renamed');
}

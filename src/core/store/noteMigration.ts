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
import * as path from 'node:path';
import { fsyncDirectory } from '../base/atomicWrite';
import { crashPoint } from '../base/crashPoints';
import { readTextIfExists } from '../base/readText';
import { replaceTextGuarded } from '../base/storeText';
import { addNotes, isLegacyNoteName, noteFileNameOf, noteIdOfName, parseNoteFile, renderNoteFile } from '../model/noteFile';
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
 * alone. Reads only. A name that turns out taken by another file's notes gets a fresh id at apply,
 * so `to` can differ there.
 */
export function planNoteMigration(paths: StorePaths): NoteRename[] {
  const planned: NoteRename[] = [];
  for (const { file, note } of listNoteFiles(paths)) {
    const name = path.basename(file);
    if (!note.meta.path) continue;
    if (!isLegacyNoteName(name) && note.meta.id === noteIdOfName(name)) continue;
    const to = isLegacyNoteName(name) ? path.basename(newNoteFile(paths, note.meta.path)) : name;
    planned.push({ from: name, to, path: note.meta.path });
  }
  return planned;
}

/** Renames what planNoteMigration lists; call it holding the store lock. Returns what was done. */
export function applyNoteMigration(paths: StorePaths): NoteRename[] {
  const done: NoteRename[] = [];
  for (const step of planNoteMigration(paths)) {
    const from = path.join(paths.files, step.from);
    const target = isLegacyNoteName(step.from) ? newNoteFile(paths, step.path) : from;
    const to = path.basename(target);
    if (fs.existsSync(target) && target !== from) {
      // That name already holds this path's notes: add ours there, then drop the old file.
      const note = parseNoteFile(fs.readFileSync(from, 'utf8'));
      const lines = note.notes.map((n) => n.raw);
      replaceTextGuarded(target, (existing) =>
        existing === undefined ? undefined : addNotes(existing, { ...parseNoteFile(existing).meta, id: noteIdOfName(to) }, lines),
      ).settle();
      crashPoint('note migration: combined');
      fs.rmSync(from, { force: true });
    } else {
      // The new frontmatter first (under the old name), then the rename: never a copy, never a loss.
      replaceTextGuarded(from, (text) => {
        if (text === undefined) return undefined;
        const note = parseNoteFile(text);
        return renderNoteFile({ ...note.meta, id: noteIdOfName(to) }, note.body);
      }).settle();
      crashPoint('note migration: frontmatter');
      if (target !== from && readTextIfExists(target) === undefined) fs.renameSync(from, target);
    }
    fsyncDirectory(paths.files);
    crashPoint('note migration: renamed');
    done.push({ from: step.from, to: noteFileNameOf(noteIdOfName(to)), path: step.path });
  }
  return done;
}

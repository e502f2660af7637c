/**
 * Reads the store's part of a context: the digest (only when digest.md exists, so deleting it
 * turns the knowledge block off) with the person's own layer after it (personalLayer.ts), and the notes of the files in scope. Items held for review
 * (they read as instructions to an agent) are left out of both, also when digest.md predates the
 * flags or was edited by hand.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { agentItemFilter, withoutHeldItems } from '../../store/heldItems';
import { findNotesForFile, workspaceRelative } from '../../store/fileNotes';
import type { NoteIndex } from '../../store/noteIndex';
import { openNoteIndex } from '../../store/noteIndexCache';
import { withPersonalDigest } from '../../store/personalLayer';
import { isInside, type StorePaths } from '../../store/storePaths';
import { readDigestText } from '../../store/digestSwitch';
import type { ContextInput, FileNotesInput } from '../promptCache/contextLayers';

/** What to load besides the digest. */
export interface LoadContextOptions {
  /** Files in scope: absolute, or relative to the workspace. */
  files?: readonly string[];
  /** The user's message for this turn. */
  message?: string;
  /**
   * Save the note index's shards in the store's `.index/` when it had to be rebuilt (default: yes,
   * as `lore` does). The VS Code extension passes false: the language server writes the store.
   */
  persistIndex?: boolean;
}

/** The store's inputs of a context, ready to spread into buildContext's input. */
export interface LoadedContextInputs extends Pick<ContextInput, 'digest' | 'fileNotes' | 'activeFiles' | 'message'> {
  /** Files in scope that do not exist (as given). */
  missingFiles: string[];
}

/** A path for the context: workspace-relative with forward slashes, absolute when outside it. */
export function displayPath(paths: StorePaths, absolute: string): string {
  return isInside(paths.workspace, absolute) ? workspaceRelative(paths, absolute) : absolute.split(path.sep).join('/');
}

/**
 * Loads the digest and the notes of `files`. A file without notes still appears among the active
 * files; a missing file is reported, not thrown.
 */
export function loadContextInputs(paths: StorePaths, options: LoadContextOptions = {}): LoadedContextInputs {
  const keep = agentItemFilter(paths);
  const onDisk = readDigestText(paths);
  // The person's own knowledge (the personal layer) follows the shared digest; it is never in digest.md.
  const digest = withPersonalDigest(paths, onDisk === undefined ? undefined : withoutHeldItems(onDisk, keep));
  const fileNotes: FileNotesInput[] = [];
  const activeFiles: string[] = [];
  const missingFiles: string[] = [];
  let noteIndex: NoteIndex | undefined; // Opened once, and only when a file is given.
  for (const given of options.files ?? []) {
    const absolute = path.resolve(paths.workspace, given);
    if (!fs.existsSync(absolute)) {
      missingFiles.push(given);
      continue;
    }
    const shown = displayPath(paths, absolute);
    activeFiles.push(shown);
    const found = findNotesForFile(paths, absolute, {
      index: (noteIndex ??= openNoteIndex(paths, { persist: options.persistIndex ?? true })),
    });
    const notes = found?.note.notes.map((n) => n.text).filter(keep) ?? [];
    if (notes.length) fileNotes.push({ path: shown, notes });
  }
  return { digest, fileNotes, activeFiles, message: options.message, missingFiles };
}

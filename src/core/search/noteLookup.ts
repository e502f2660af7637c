/**
 * Read-only lookup of a file's notes for recall and the MCP server. By device:inode first (the
 * note file's name); when that misses (a file without notes, one that is gone, or whose inode
 * changed), by the recorded path through the search index, instead of parsing every note file
 * of the store as the healing lookup in fileNotes.ts does. Nothing is re-keyed here: reading
 * must not write.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { identifyFile } from '../store/fileIdentity';
import { workspaceRelative } from '../store/fileNotes';
import { parseNoteFile, type NoteFile } from '../store/noteFile';
import { isInside, type StorePaths } from '../store/storePaths';
import type { SearchIndex } from './searchIndex';

export interface NoteLookup {
  /** Absolute path of the note file. */
  file: string;
  note: NoteFile;
  /** Its text, for callers that extract documents with lines. */
  text: string;
}

function read(file: string): { text: string; note: NoteFile } | undefined {
  try {
    const text = fs.readFileSync(file, 'utf8');
    return { text, note: parseNoteFile(text) };
  } catch {
    return undefined;
  }
}

/**
 * The note file of a workspace file, or undefined. `absolute` must lie inside the workspace
 * (callers check, and refuse the rest).
 */
export async function lookupNotes(paths: StorePaths, absolute: string, index: SearchIndex): Promise<NoteLookup | undefined> {
  if (!isInside(paths.workspace, absolute)) return undefined;
  const identity = identifyFile(absolute, false);
  if (identity) {
    const direct = path.join(paths.files, identity.noteFileName);
    const found = read(direct);
    if (found) return { file: direct, ...found };
  }
  const rel = workspaceRelative(paths, absolute);
  for (const candidate of await index.noteFilesFor(rel)) {
    const file = path.join(paths.root, candidate);
    const found = read(file);
    if (found && found.note.meta.path === rel) return { file, ...found };
  }
  return undefined;
}

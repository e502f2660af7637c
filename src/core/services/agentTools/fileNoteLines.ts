/**
 * A file's note lines as search with a path and the lore://notes resource hand them out (read-only:
 * no note file changes). Agents' writes (remember, change_item) are memoryTools.ts on top of
 * core/knowledge/agentWrites.
 */
import { renderItemLine } from '../../model/itemLines';
import { readNotesOf, workspaceRelative } from '../../store/fileNotes';
import type { StorePaths } from '../../store/storePaths';

/**
 * The notes of a workspace file (read-only), also for a file that is gone: one line
 * per note, a note wrapped over several lines joined, so its text is whole and its id is the one
 * search and the memory tools give it (listItemId).
 */
export async function readFileNotes(
  paths: StorePaths,
  absolute: string,
): Promise<{ path: string; file: string; lines: string[] } | undefined> {
  const found = readNotesOf(paths, absolute);
  if (!found) return undefined;
  return {
    path: found.note.meta.path || workspaceRelative(paths, absolute),
    file: found.file,
    lines: found.note.notes.map((n) => renderItemLine(n.text)),
  };
}

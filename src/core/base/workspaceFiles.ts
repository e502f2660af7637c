/**
 * A one-time walk of the workspace that maps device:inode → path, used only when a note's
 * recorded path is gone (the file was renamed or moved outside the editor) to re-find it
 * before declaring it orphaned. Skips VCS folders, dependencies and the store itself.
 */
import * as fs from 'node:fs';
import { walkTree } from './walkTree';
import { fileIdOf } from './fileIdentity';

const SKIP_DIRS = new Set([
  '.git',
  '.hg',
  '.svn',
  'node_modules',
  '.lore',
  '.node24',
  '.vscode-test',
  'dist',
  'out',
  'target',
  '__pycache__',
  '.venv',
]);

export interface WorkspaceFile {
  path: string;
  size: number;
}

/** Maps every regular file's device:inode to its path (up to `limit` files). */
export function indexWorkspaceFiles(workspace: string, limit = 200_000): Map<string, WorkspaceFile> {
  const byId = new Map<string, WorkspaceFile>();
  // Unreadable folders are simply not searched; the walk stops entering folders at the limit.
  walkTree(workspace, {
    enter: (entry) => !SKIP_DIRS.has(entry.name) && byId.size < limit,
    file: (entry, full) => {
      if (!entry.isFile() || byId.size >= limit) return;
      try {
        const stat = fs.statSync(full, { bigint: true });
        byId.set(fileIdOf(stat), { path: full, size: Number(stat.size) });
      } catch {
        // Vanished between readdir and stat.
      }
    },
  });
  return byId;
}

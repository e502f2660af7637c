/**
 * A one-time walk of the workspace that maps device:inode → path, used only when a note's
 * recorded path is gone (the file was renamed or moved outside the editor) to re-find it
 * before declaring it orphaned. Skips VCS folders, dependencies and the store itself.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileIdOf } from './fileIdentity';

const SKIP_DIRS = new Set(['.git', '.hg', '.svn', 'node_modules', '.lore', '.node24', '.vscode-test', 'dist', 'out', 'target', '__pycache__', '.venv']);

export interface WorkspaceFile {
  path: string;
  size: number;
}

/** Maps every regular file's device:inode to its path (up to `limit` files). */
export function indexWorkspaceFiles(workspace: string, limit = 200_000): Map<string, WorkspaceFile> {
  const byId = new Map<string, WorkspaceFile>();
  const stack = [workspace];
  while (stack.length > 0 && byId.size < limit) {
    const dir = stack.pop()!;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      continue; // Unreadable folders are simply not searched.
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name)) stack.push(full);
      } else if (entry.isFile()) {
        try {
          const stat = fs.statSync(full, { bigint: true });
          byId.set(fileIdOf(stat), { path: full, size: Number(stat.size) });
        } catch {
          // Vanished between readdir and stat.
        }
      }
    }
  }
  return byId;
}

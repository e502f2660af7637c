/**
 * The one directory walk: depth-first, folder symlinks never followed (no loops), unreadable
 * folders reported or skipped. Callers decide which folders to enter and what a file is; paths
 * are built by concatenation because a store scan walks thousands of entries and path.join per
 * entry showed in its profile.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface TreeVisitor {
  /** Called for every entry that is not a folder (files, symlinks, others: check `entry`). */
  file(entry: fs.Dirent, full: string, depth: number): void;
  /** Whether to descend into a folder; every folder when absent. */
  enter?(entry: fs.Dirent, full: string, depth: number): boolean;
  /** A folder that could not be listed; skipped silently when absent. */
  unreadable?(dir: string, error: Error): void;
  /** Deepest folder level entered below the root (the root is 0); unlimited when absent. */
  maxDepth?: number;
  /** Visit entries in name order (stable output); directory order when absent. */
  sorted?: boolean;
}

export function walkTree(root: string, visitor: TreeVisitor): void {
  walk(root, 0, visitor);
}

function walk(dir: string, depth: number, visitor: TreeVisitor): void {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    visitor.unreadable?.(dir, error as Error);
    return;
  }
  if (visitor.sorted) entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const full = dir + path.sep + entry.name;
    if (entry.isDirectory()) {
      if (visitor.maxDepth !== undefined && depth >= visitor.maxDepth) continue;
      if (visitor.enter?.(entry, full, depth + 1) ?? true) walk(full, depth + 1, visitor);
    } else {
      visitor.file(entry, full, depth);
    }
  }
}

/** The names in a folder, or none when it cannot be listed (missing, not a folder, no permission). */
export function listNames(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

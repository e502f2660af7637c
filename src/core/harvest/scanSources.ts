/**
 * Finding conversation files: each `--from` path is a file or a folder walked recursively
 * (default: the store's inbox). Folder symlinks are not followed (no loops); unreadable
 * entries are reported, not fatal. Inside a store only the inbox is read.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isInside, type StorePaths } from '../store/storePaths';

/** File name endings that can hold a conversation. */
export const CONVERSATION_EXTENSIONS = ['.md', '.markdown', '.txt', '.jsonl', '.json'];

export interface SourceFile {
  path: string;
  /** True for files in the store's own inbox: the only ones a harvest may reclaim. */
  inInbox: boolean;
}

export interface ScanResult {
  files: SourceFile[];
  problems: Array<{ path: string; message: string }>;
}

function isConversationFile(name: string): boolean {
  const lower = name.toLowerCase();
  return CONVERSATION_EXTENSIONS.some((ext) => lower.endsWith(ext)) && !name.startsWith('.~');
}

/** Lists conversation files under the given sources, sorted, without duplicates. */
export function scanSources(paths: StorePaths, sources: string[]): ScanResult {
  const result: ScanResult = { files: [], problems: [] };
  const seen = new Set<string>();
  const add = (file: string) => {
    const abs = path.resolve(file);
    if (seen.has(abs)) return;
    seen.add(abs);
    result.files.push({ path: abs, inInbox: isInside(paths.inbox, abs) });
  };
  const walk = (dir: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      result.problems.push({ path: dir, message: (error as Error).message });
      return;
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        // Never read the store's own files (category files, archive, caches) as conversations.
        if (isInside(paths.root, full) && !isInside(paths.inbox, full) && !isInside(full, paths.inbox)) continue;
        if (entry.name === '.git' || entry.name === 'node_modules') continue;
        walk(full);
      } else if ((entry.isFile() || entry.isSymbolicLink()) && isConversationFile(entry.name)) {
        if (isInside(paths.root, full) && !isInside(paths.inbox, full)) continue;
        if (entry.isSymbolicLink()) {
          try {
            if (!fs.statSync(full).isFile()) continue;
          } catch {
            continue; // A dangling link.
          }
        }
        add(full);
      }
    }
  };
  for (const source of sources) {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(source);
    } catch (error) {
      // A missing default inbox just means nothing to do; a missing --from is a problem.
      if (path.resolve(source) !== paths.inbox) result.problems.push({ path: source, message: (error as Error).message });
      continue;
    }
    if (stat.isDirectory()) walk(path.resolve(source));
    else if (stat.isFile()) add(source);
    else result.problems.push({ path: source, message: 'not a file or folder' });
  }
  return result;
}

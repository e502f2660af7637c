/**
 * Finding conversation files: each `--from` path is a file or a folder walked recursively
 * (default: the store's inbox). Folder symlinks are not followed (no loops); unreadable
 * entries are reported, not fatal. Inside a store only the inbox is read.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isClaudeCodeLegacySubagentFile, isClaudeCodeSessionSideFolder } from '../../model/claudeCodeLayout';
import { isInside, type StorePaths } from '../../store/storePaths';
import {
  assembledSourceAt,
  isStoreFileName,
  storeFileSessions,
  storeFolderSessions,
  type AssembledEntry,
  type AssembledSource,
} from '../conversations/assembledSources';
import { walkTree } from '../../base/walkTree';
import { isConversationFileName } from '../../model/conversation';

export interface SourceFile {
  path: string;
  /** True for files in the store's own inbox: the only ones a harvest may reclaim. */
  inInbox: boolean;
  /** Set for a session of a tool's store (assembledSources.ts): how to read it. Never in the inbox. */
  assembled?: AssembledSource;
}

export interface ScanResult {
  files: SourceFile[];
  problems: Array<{ path: string; message: string }>;
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
  const addSessions = (store: string, list: () => AssembledEntry[] | undefined): boolean => {
    let sessions: AssembledEntry[] | undefined;
    try {
      sessions = list();
    } catch (error) {
      result.problems.push({ path: store, message: (error as Error).message });
      return true;
    }
    if (!sessions) return false;
    for (const session of sessions) {
      if (seen.has(session.path)) continue;
      seen.add(session.path);
      result.files.push({ path: session.path, inInbox: false, assembled: session.assembled });
    }
    return true;
  };
  /** Folder listings, taken only when a file is named like an old subagent transcript. */
  const listings = new Map<string, string[]>();
  const siblings = (dir: string) => () => {
    let names = listings.get(dir);
    if (!names) {
      try {
        names = fs.readdirSync(dir);
      } catch {
        names = []; // Listed a moment ago by the walk; if it vanished, the file is offered as usual.
      }
      listings.set(dir, names);
    }
    return names;
  };
  const walk = (dir: string) =>
    walkTree(dir, {
      sorted: true,
      unreadable: (where, error) => result.problems.push({ path: where, message: error.message }),
      // Never read the store's own files (category files, archive, caches) as conversations,
      // nor a Claude Code session's subagent transcripts and tool outputs (part of the session).
      enter: (entry, full) =>
        entry.name !== '.git' &&
        entry.name !== 'node_modules' &&
        !(isInside(paths.root, full) && !isInside(paths.inbox, full) && !isInside(full, paths.inbox)) &&
        !isClaudeCodeSessionSideFolder(full) &&
        // A tool's store is read as its sessions, not as the files it is made of.
        !addSessions(full, () => storeFolderSessions(full, { named: true })),
      file: (entry, full) => {
        if (!(entry.isFile() || entry.isSymbolicLink()) || !(isConversationFileName(entry.name) || isStoreFileName(entry.name))) return;
        if (isInside(paths.root, full) && !isInside(paths.inbox, full)) return;
        if (addSessions(full, () => storeFileSessions(full))) return;
        if (isClaudeCodeLegacySubagentFile(full, siblings(path.dirname(full)))) return;
        if (entry.isSymbolicLink()) {
          try {
            if (!fs.statSync(full).isFile()) return;
          } catch {
            return; // A dangling link.
          }
        }
        add(full);
      },
    });
  for (const source of sources) {
    // One session of a tool's database, `<db>#<session id>` (as discovery lists it): no file has that name.
    const named = source.includes('#') ? assembledSourceAt(source) : undefined;
    if (named && fs.existsSync(named.root)) {
      addSessions(named.root, () => [{ path: `${named.root}#${named.id}`, assembled: named }]);
      continue;
    }
    let stat: fs.Stats;
    try {
      stat = fs.statSync(source);
    } catch (error) {
      // A missing default inbox just means nothing to do; a missing --from is a problem.
      if (path.resolve(source) !== paths.inbox) result.problems.push({ path: source, message: (error as Error).message });
      continue;
    }
    const abs = path.resolve(source);
    if (stat.isDirectory()) {
      if (!addSessions(abs, () => storeFolderSessions(abs))) walk(abs);
    } else if (stat.isFile()) {
      if (!addSessions(abs, () => storeFileSessions(abs))) add(source);
    } else result.problems.push({ path: source, message: 'not a file or folder' });
  }
  return result;
}

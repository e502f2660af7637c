/**
 * Where other agents keep this workspace's conversations. These locations are read, never
 * written: a harvest only ever reclaims files in the store's own inbox.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { walkTree } from '../util/walkTree';

export interface AgentSourceOptions {
  claudeCode?: boolean;
  codex?: boolean;
  aider?: boolean;
  home?: string;
}

/** Claude Code's folder for a project: the absolute path with every non-alphanumeric character as `-`. */
export function claudeCodeProjectDir(workspace: string, home = os.homedir()): string {
  return path.join(home, '.claude', 'projects', path.resolve(workspace).replace(/[^A-Za-z0-9]/g, '-'));
}

/** The first line of a file (up to 64 KB), without reading the rest. */
function firstLine(file: string): string {
  const fd = fs.openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(64 * 1024);
    const read = fs.readSync(fd, buffer, 0, buffer.length, 0);
    const text = buffer.subarray(0, read).toString('utf8');
    const end = text.indexOf('\n');
    return end >= 0 ? text.slice(0, end) : text;
  } finally {
    fs.closeSync(fd);
  }
}

/** Codex rollout files (~/.codex/sessions/**.jsonl) whose session_meta names this workspace as cwd. */
export function codexSessionsFor(workspace: string, home = os.homedir()): string[] {
  const root = path.join(home, '.codex', 'sessions');
  const wanted = path.resolve(workspace);
  const found: string[] = [];
  walkTree(root, {
    file: (entry, full) => {
      if (!entry.isFile() || !entry.name.endsWith('.jsonl')) return;
      try {
        const record = JSON.parse(firstLine(full)) as { payload?: { cwd?: string }; cwd?: string };
        const cwd = record.payload?.cwd ?? record.cwd;
        if (cwd && path.resolve(cwd) === wanted) found.push(full);
      } catch {
        // Not a rollout we can read: ignore it.
      }
    },
  });
  return found.sort();
}

/** The opted-in agent locations for a workspace that exist on this machine. */
export function agentSources(workspace: string, options: AgentSourceOptions): string[] {
  const home = options.home ?? os.homedir();
  const sources: string[] = [];
  if (options.claudeCode) {
    const dir = claudeCodeProjectDir(workspace, home);
    if (fs.existsSync(dir)) sources.push(dir);
  }
  if (options.codex) sources.push(...codexSessionsFor(workspace, home));
  if (options.aider) {
    const history = path.join(workspace, '.aider.chat.history.md');
    if (fs.existsSync(history)) sources.push(history);
  }
  return sources;
}

/**
 * The files an agent's tool calls touched, per session, so that the topics' glob triggers see
 * them (§4: "globs against files the message or tool calls name"). `lore hook` records them on
 * PostToolUse (and PreToolUse, when a tool is configured so) and UserPromptSubmit matches the
 * glob triggers against them beside the files the prompt names.
 *
 * This runs on every tool call, so it does only what a few milliseconds allow: no SQLite, no
 * index, no zod, no stat of the files (a path is kept by its name alone; nothing is read). One
 * small JSON file per session in `<store>/.cache/tool-files/`, named by a hash of the session id,
 * holding the newest MAX_RECENT workspace-relative paths, redacted. Paths outside the workspace
 * or inside the store are dropped: globs are workspace-relative and the store is Lore's own.
 *
 * Which fields of a tool input name paths is in hookInput.ts (toolInputPaths).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { redactSecrets } from '../../model/safety/redact';
import { writeFileAtomic } from '../../base/atomicWrite';
import { isInside, workspaceRelative, type StorePaths } from '../../store/storePaths';
import { pruneSessionFiles, sessionFile } from './sessionFiles';
import { isToolPath } from './hookInput';
import { mkdirNoFollow } from '../../base/storeLinks';
import { readStoreFile } from '../../base/readText';

/** Files kept per session, newest first. */
export const MAX_RECENT_TOOL_FILES = 20;
/** Session files kept at most; the oldest go when a new session starts recording. */
const MAX_SESSIONS = 100;

function dir(paths: StorePaths): string {
  return path.join(paths.cache, 'tool-files');
}

function sessionFileOf(paths: StorePaths, sessionId: string): string {
  return sessionFile(dir(paths), sessionId, '.json');
}

/**
 * A named path as the glob triggers see it: workspace-relative with forward slashes, redacted;
 * undefined outside the workspace or inside the store. Relative names resolve against the
 * agent's folder. Lexical only: the file is never touched.
 */
function asWorkspacePath(paths: StorePaths, cwd: string, given: string): string | undefined {
  const absolute = path.resolve(cwd, given);
  if (!isInside(paths.workspace, absolute) || isInside(paths.root, absolute) || absolute === path.resolve(paths.workspace))
    return undefined;
  return redactSecrets(workspaceRelative(paths, absolute));
}

/** The session's recent tool files, newest first (none when unrecorded or unreadable). */
export function recentToolFiles(paths: StorePaths, sessionId: string): string[] {
  if (!sessionId) return [];
  try {
    const raw = JSON.parse(readStoreFile(sessionFileOf(paths, sessionId), 'utf8')) as unknown;
    if (!Array.isArray(raw)) return [];
    return raw.filter(isToolPath).slice(0, MAX_RECENT_TOOL_FILES);
  } catch {
    return [];
  }
}

/**
 * Records the files a tool call named for the session (newest first, deduplicated, at most
 * MAX_RECENT_TOOL_FILES). Returns what was added; nothing is written when nothing new is named.
 */
export function recordToolFiles(paths: StorePaths, sessionId: string, cwd: string, given: readonly string[]): string[] {
  if (!sessionId) return [];
  const named = [...new Set(given.map((g) => asWorkspacePath(paths, cwd, g)).filter((p): p is string => p !== undefined))];
  if (!named.length) return [];
  const file = sessionFileOf(paths, sessionId);
  const before = recentToolFiles(paths, sessionId);
  const after = [...named, ...before.filter((p) => !named.includes(p))].slice(0, MAX_RECENT_TOOL_FILES);
  // The same files in the same order (the agent reading one file again and again): no write.
  if (after.length === before.length && after.every((p, i) => p === before[i])) return [];
  if (!before.length && !fs.existsSync(file)) pruneSessionFiles(dir(paths), '.json', MAX_SESSIONS);
  mkdirNoFollow(dir(paths));
  // A cache, rebuilt by the next tool call: not worth an fsync on every one. Two calls racing may
  // lose one entry, never corrupt the file (the rename is atomic).
  writeFileAtomic(file, JSON.stringify(after) + '\n', { durable: false });
  return named;
}

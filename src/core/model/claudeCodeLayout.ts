/**
 * Where Claude Code keeps a session's side files in a project folder
 * (`~/.claude/projects/<project>/`): next to `<session>.jsonl` sits a `<session>/` folder whose
 * `subagents/` hold subagent transcripts (`agent-<id>.jsonl` plus `agent-<id>.meta.json`), part of
 * the parent session's work and not conversations of their own, and whose `tool-results/` hold
 * large tool outputs as `.txt`. A scan of a project folder must offer only the sessions.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Folders inside a session folder that never hold a conversation of their own. */
const SESSION_SIDE_FOLDERS = new Set(['subagents', 'tool-results']);
/** Claude Code names sessions (and so their side folders) by a UUID. */
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether `folder` is a session's `subagents/` or `tool-results/` folder: its parent is named like
 * a session, or a `<parent>.jsonl` session file sits beside the parent. Another project's folder
 * that happens to be called `subagents` is still scanned.
 */
export function isClaudeCodeSessionSideFolder(folder: string): boolean {
  if (!SESSION_SIDE_FOLDERS.has(path.basename(folder))) return false;
  const session = path.dirname(folder);
  return SESSION_ID.test(path.basename(session)) || fs.existsSync(`${session}.jsonl`);
}

/** Before subagents got their own folder, their transcripts sat beside the sessions. */
const LEGACY_SUBAGENT_FILE = /^agent-[0-9a-f]{6,}\.jsonl$/i;

/**
 * Whether `file` is an older Claude Code's subagent transcript (`<project>/agent-<id>.jsonl`):
 * so named, with a session file in the same folder. `siblings` lists that folder's entry names.
 */
export function isClaudeCodeLegacySubagentFile(file: string, siblings: () => readonly string[]): boolean {
  return (
    LEGACY_SUBAGENT_FILE.test(path.basename(file)) &&
    siblings().some((name) => name.endsWith('.jsonl') && SESSION_ID.test(name.slice(0, -'.jsonl'.length)))
  );
}

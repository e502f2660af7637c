/**
 * A session's title read cheaply, for listings of sessions that are not imported whole (sessions
 * a harvest already proved, files in the inbox). A session log can be hundreds of MB; its title
 * is near its start (Claude Code's summary records, the first prompt) or appended later (a
 * renamed Claude Code session's custom title, a Codex thread name), so the start and the end are
 * read, never the middle. Codex also keeps the names people give threads in
 * `$CODEX_HOME/session_index.jsonl` (`{id, thread_name, updated_at}`, the last line for an id wins).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { conversationTitle, titleLine } from '../conversations/conversationTitle';
import { importConversation } from '../conversations/detect';
import { HEAD_BYTES, readHead, readLines } from './fileHead';

/** Of a larger log, the end read too: where titles given later are appended. */
const TAIL_BYTES = 32 * 1024;
/** Of Codex's index of thread names, the end read (one short line per rename). */
const INDEX_TAIL_BYTES = 1024 * 1024;
/** The thread id a Codex rollout's name ends with (`rollout-2026-04-22T11-15-05-<uuid>.jsonl`). */
const ROLLOUT_ID = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i;

/** The text a title is read from: the whole file when small, else its whole first lines and (for JSON Lines) its whole last lines. */
function titleText(file: string): string | undefined {
  let size: number;
  try {
    size = fs.statSync(file).size;
  } catch {
    return undefined;
  }
  if (size <= HEAD_BYTES + TAIL_BYTES) return readHead(file, HEAD_BYTES + TAIL_BYTES);
  const head = readHead(file, HEAD_BYTES) ?? '';
  const lines = head.slice(0, head.lastIndexOf('\n') + 1);
  if (!file.toLowerCase().endsWith('.jsonl')) return lines || head;
  return lines + (readLines(file, { maxBytes: TAIL_BYTES })?.text ?? '');
}

/** The title of the conversation in `file` (conversationTitle.ts), read from its start and end; undefined when none is found. */
export function sessionTitle(file: string): string | undefined {
  const text = titleText(file);
  if (!text) return undefined;
  try {
    return conversationTitle(importConversation(file, text));
  } catch {
    return undefined; // A title is a nicety: the listing names the file instead.
  }
}

/** The names people gave Codex threads, by thread id, from `session_index.jsonl` in Codex's home. */
export function codexThreadNames(codexHome: string): Map<string, string> {
  const names = new Map<string, string>();
  const text = readLines(path.join(codexHome, 'session_index.jsonl'), { maxBytes: INDEX_TAIL_BYTES })?.text ?? '';
  for (const line of text.split('\n')) {
    try {
      const entry = JSON.parse(line) as { id?: unknown; thread_name?: unknown };
      if (typeof entry.id === 'string' && typeof entry.thread_name === 'string' && entry.thread_name.trim() !== '')
        names.set(entry.id.toLowerCase(), entry.thread_name.trim());
    } catch {
      // A line cut by the bounded read, or not JSON: not a name.
    }
  }
  return names;
}

/** The name a Codex rollout's thread was given, from `names` (codexThreadNames). */
export function codexThreadName(file: string, names: ReadonlyMap<string, string>): string | undefined {
  const id = ROLLOUT_ID.exec(path.basename(file))?.[1];
  return id === undefined ? undefined : titleLine(names.get(id.toLowerCase()));
}

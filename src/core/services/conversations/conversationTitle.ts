/**
 * A conversation's name as its person knows it, for every list that shows conversations (the
 * Ledger and Inbox views, the import picker, `lore sources`, the dry run): the title its tool
 * recorded (Claude Code's custom or generated title or summary record, Codex's thread name,
 * Gemini CLI's summary, …; each importer reads its own), else the first thing the person asked.
 * File names (`01131ba6-….jsonl`, `rollout-2026-04-22T11-15-05-….jsonl`) are Lore's and the
 * tools' plumbing and stay in tooltips and --json.
 *
 * The title is conversation text: untrusted data. It is cut to one line with secrets redacted
 * here, and whoever shows it in markdown (a hover) escapes it.
 */
import type { Conversation } from '../../model/conversation';
import { cutToLine } from '../../model/format';

/** How many characters of a title a list shows. */
export const TITLE_CHARS = 60;

/** A slash command alone (`/clear`, `/model`) or a shell escape (`! ls`): what the person did, not what the conversation is about. */
const BARE_COMMAND = /^(?:\/[\w:-]+|!\s.*)$/s;
/**
 * What the Codex IDE extension and desktop app put before the person's words: the open files and
 * attachments, then `## My request for Codex:` and the request itself.
 */
const CODEX_REQUEST = '## My request for Codex:';

/** The words of a user turn a title may use: the Codex IDE request without its context; nothing for a bare command. */
function promptText(text: string): string {
  const request = text.lastIndexOf(CODEX_REQUEST);
  const words = (request >= 0 ? text.slice(request + CODEX_REQUEST.length) : text).trim();
  return BARE_COMMAND.test(words) ? '' : words;
}

/** A name as a list shows it: one line, at most TITLE_CHARS, secrets redacted; undefined when blank. */
export function titleLine(text: string | undefined): string | undefined {
  return (text && cutToLine(text, TITLE_CHARS)) || undefined;
}

/** The conversation's title (titleLine), or undefined when it has neither a recorded title nor a prompt. */
export function conversationTitle(conv: Conversation): string | undefined {
  // A stored transcript's heading is its id when the conversation had no title: no name.
  const recorded = conv.title?.trim() === conv.id ? undefined : conv.title?.trim();
  return titleLine(recorded || conv.turns.map((turn) => (turn.role === 'user' ? promptText(turn.text) : '')).find((words) => words !== ''));
}

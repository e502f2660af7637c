/**
 * The normalized shape every importer produces. Importers keep the conversational content
 * (what the user asked, what the agent answered, one-line summaries of tool use) and drop the
 * rest (thinking, raw tool output, snapshots, unknown records).
 */

/** Formats Lore can read. `plain` is the fallback for any .md/.txt file. */
export type ConversationFormat =
  | 'lore-transcript'
  | 'claude-code'
  | 'codex'
  | 'aider'
  | 'specstory'
  | 'copilot-chat'
  | 'gemini-cli'
  | 'cline'
  | 'continue'
  | 'copilot-cli'
  | 'cursor'
  | 'windsurf'
  | 'opencode'
  | 'plain';

export type TurnRole = 'user' | 'assistant' | 'system';

export interface Turn {
  role: TurnRole;
  /** Conversational text (markdown). May be empty when the turn only used tools. */
  text: string;
  /** ISO 8601 timestamp when the source carries one. */
  at?: string;
  /** One-line summaries of tool calls made in this turn, e.g. `[tool:Bash] npm test → exit 1`. */
  tools?: string[];
}

export interface Conversation {
  /**
   * Identity used in provenance: the session id for formats that carry one, else the file stem.
   * Always safe for `[from: ID, date]` (no `,` `[` `]` or newlines).
   */
  id: string;
  format: ConversationFormat;
  /**
   * The format the conversation was first imported from, when it differs from `format`: a Lore
   * transcript rendered from a Claude Code session records `source: claude-code`, and keeping it
   * here lets a re-rendered transcript say the same (render ∘ parse is stable).
   */
  sourceFormat?: ConversationFormat;
  /** Absolute path of the source file. */
  sourcePath: string;
  title?: string;
  /** ISO timestamp of the first turn or the session start, when known. */
  startedAt?: string;
  /**
   * ISO timestamp of the last turn, when a stored transcript (transcripts/) recorded it: its
   * headings keep only HH:MM, so the exact end is read back from its frontmatter.
   */
  endedAt?: string;
  /** Working directory recorded by the agent (Claude Code, Codex), used to resolve relative paths. */
  cwd?: string;
  model?: string;
  turns: Turn[];
  /**
   * Records that were recognised but skipped, or unknown, counted by kind (for diagnostics). The
   * kinds `malformed` (not JSON, or missing what the format requires) and `unknown` /
   * `unknown:<type>` count records that are not this format's at all: detection uses them to
   * check that a file really is the format it looked like.
   */
  skipped?: Record<string, number>;
  /**
   * Set when no importer could read the file as a conversation: why, in words for the harvest
   * report ("detected as Claude Code JSONL, but 0 of 120 lines were Claude Code records"). The
   * conversation then has no turns; the harvest keeps the file and never distills or reclaims it.
   */
  unrecognized?: string;
}

/** An importer recognises one format and turns its text into a Conversation. */
export interface Importer {
  format: ConversationFormat;
  /** The format's name in messages, e.g. `Claude Code JSONL`. */
  label: string;
  /**
   * True for formats with one JSON record per line. Detection then also requires that most
   * non-blank lines are records of this format, not only the first few KB.
   */
  jsonl?: boolean;
  /**
   * How sure this importer is that the file is its format, from 0 (no) to 0.95 (a file name or
   * marker only this format has; a higher score counts as 0.95), judged from the file name and
   * the first few KB of text. Detection picks the highest score.
   */
  detect(fileName: string, head: string): number;
  /** Parses the whole text. Must not throw on unknown or malformed records: skip them. */
  parse(text: string, sourcePath: string): Conversation;
}

/** File name endings that can hold a conversation. */
const CONVERSATION_EXTENSIONS = ['.md', '.markdown', '.txt', '.jsonl', '.json'];

/**
 * Whether a file name can be a conversation: a conversation extension, and not an editor's lock
 * or backup (`.~lock.x.md#`, Emacs' `.#x.md`). Hidden names are otherwise welcome: Aider keeps
 * its history in `.aider.chat.history.md`. (Lore's own temp and aside files end in `.tmp` and
 * `.lore-prev-<stamp>`, never in a conversation extension.) The harvest and the search index
 * both ask this, so what is harvested is what is searchable.
 */
export function isConversationFileName(name: string): boolean {
  if (name.startsWith('.~') || name.startsWith('.#')) return false;
  const lower = name.toLowerCase();
  return CONVERSATION_EXTENSIONS.some((ext) => lower.endsWith(ext));
}

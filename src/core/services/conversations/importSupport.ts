/**
 * Small helpers shared by the importers: defensive access to untyped JSON, text clean-up, one-line
 * summaries and skip counting. Importers read files written by other tools, so nothing here trusts
 * its input's shape.
 */
import { cutRedacted, redactSecrets } from '../../model/safety/redact';
import type { Conversation, Turn } from '../../model/conversation';

/** A parsed JSON object (not an array, not null). */
export type JsonObject = Record<string, unknown>;

/** Default length of a one-line tool summary. */
const ONE_LINE_MAX = 120;

/** True for a plain JSON object. */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value when it is a non-empty string, else undefined. */
export function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The value when it is an array, else an empty array. */
export function arr(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** The value when it is an object, else undefined. */
export function obj(value: unknown): JsonObject | undefined {
  return isObject(value) ? value : undefined;
}

/** Removes NUL characters (they break downstream text tools) and normalises line ends to `\n`. */
export function cleanText(text: string): string {
  // Most files have neither: a search for one character is several times cheaper than a replace
  // that finds nothing, and this runs on every byte of every conversation a dry run measures.
  const nul = text.includes('\u0000');
  const cr = text.includes('\r');
  if (!nul && !cr) return text;
  const clean = nul ? text.replace(/\u0000/g, '') : text;
  return cr ? clean.replace(/\r\n?/g, '\n') : clean;
}

/**
 * Collapses whitespace (newlines included) and cuts to `max` characters with an ellipsis. Secrets
 * are redacted first, on the whole text: a tool call's command line often holds a token, and a
 * cut through it would keep its front half where no rule recognises it.
 */
export function oneLine(text: string, max = ONE_LINE_MAX): string {
  const flat = redactSecrets(text).replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${cutRedacted(flat, Math.max(0, max - 1)).trimEnd()}…`;
}

/** Drops leading blank lines and trailing whitespace, keeping the first line's indentation. */
export function trimBlankLines(text: string): string {
  // The first line holding a character that is not whitespace (`\S` is what trim() removes),
  // found without splitting the text into lines.
  const first = text.search(/\S/);
  if (first < 0) return '';
  return text.slice(text.lastIndexOf('\n', first) + 1).trimEnd();
}

/** Adds one to a skip counter. */
export function countSkip(skipped: Record<string, number>, kind: string): void {
  skipped[kind] = (skipped[kind] ?? 0) + 1;
}

/** Converts an epoch-milliseconds number or a date string to ISO 8601, else undefined. */
export function toIso(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) {
    const d = new Date(value);
    return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
  }
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/**
 * Splits JSONL and parses each line, handing objects to `onRecord`. A malformed line or a line
 * that is not a JSON object is counted in `skipped.malformed` and never aborts the import.
 */
export function forEachJsonLine(text: string, skipped: Record<string, number>, onRecord: (record: JsonObject) => void): void {
  // Line by line, without an array of every line of a file of hundreds of megabytes first.
  for (let start = 0; start <= text.length;) {
    const newline = text.indexOf('\n', start);
    const end = newline < 0 ? text.length : newline;
    const trimmed = text.slice(start, end).trim();
    start = end + 1;
    if (trimmed === '') continue;
    let record: unknown;
    try {
      record = JSON.parse(trimmed);
    } catch {
      countSkip(skipped, 'malformed');
      continue;
    }
    if (!isObject(record)) {
      countSkip(skipped, 'malformed');
      continue;
    }
    onRecord(record);
  }
}

/**
 * Like forEachJsonLine, but also reads the same records saved as one JSON array (hooks that copy
 * a session log for reading, such as `.claude/logs/chat.json`, pretty-print it that way). An
 * array is read only when its first element is the format's record (`isRecord`): other tools'
 * arrays share keys, and the line-share check cannot tell a pretty-printed array apart.
 */
export function forEachJsonRecord(
  text: string,
  skipped: Record<string, number>,
  isRecord: (record: JsonObject) => boolean,
  onRecord: (record: JsonObject) => void,
): void {
  const start = text.trimStart();
  if (start.startsWith('[')) {
    let records: unknown;
    try {
      records = JSON.parse(start);
    } catch {
      records = undefined; // Not one array: JSON Lines whose first record is an array, or broken.
    }
    if (Array.isArray(records) && isObject(records[0]) && isRecord(records[0])) {
      for (const record of records) {
        if (isObject(record)) onRecord(record);
        else countSkip(skipped, 'malformed');
      }
      return;
    }
  }
  forEachJsonLine(text, skipped, onRecord);
}

/** Appends a tool line to a turn. */
export function addTool(turn: Turn, line: string): void {
  (turn.tools ??= []).push(line);
}

/**
 * The turn a speaker's next tool call goes in, so that a transcript reads in the order things
 * happened. §2.1 prints a turn's tool lines before its text; a call made after the agent wrote
 * something ("I'll add 4 ADRs", then the writes) would read as if it came first. Such a call
 * opens a new turn of the same speaker right after `turn`, pushed onto `turns` (where `turn` is
 * last), at `at` or else `turn`'s time; a turn with no text yet takes the call itself.
 */
export function turnForTool(turns: Turn[], turn: Turn, at?: string): Turn {
  if (turn.text.trim() === '') return turn;
  const next: Turn = { role: turn.role, text: '' };
  const when = at ?? turn.at;
  if (when !== undefined) next.at = when;
  turns.push(next);
  return next;
}

/** Adds a tool line in the order it happened (see turnForTool); returns the turn it went in. */
export function addToolInOrder(turns: Turn[], turn: Turn, line: string, at?: string): Turn {
  const target = turnForTool(turns, turn, at);
  addTool(target, line);
  return target;
}

/**
 * Removes `<tag>…</tag>` blocks with indexOf rather than a regex, so a missing close tag in a huge
 * text cannot cause backtracking; an unclosed block is cut to the end of the text.
 */
export function removeTagBlocks(text: string, tag: string): string {
  const open = `<${tag}>`;
  const close = `</${tag}>`;
  let out = '';
  let from = 0;
  for (;;) {
    const start = text.indexOf(open, from);
    if (start < 0) break;
    out += text.slice(from, start);
    const end = text.indexOf(close, start + open.length);
    if (end < 0) return out;
    from = end + close.length;
  }
  return out + text.slice(from);
}

/** The text between the first `<tag>` and its `</tag>`, or undefined. */
export function tagContent(text: string, tag: string): string | undefined {
  const open = `<${tag}>`;
  const start = text.indexOf(open);
  if (start < 0) return undefined;
  const end = text.indexOf(`</${tag}>`, start + open.length);
  return end < 0 ? undefined : text.slice(start + open.length, end);
}

/** A conversation with the given identity and no turns yet. */
export function emptyConversation(id: string, format: Conversation['format'], sourcePath: string): Conversation {
  return { id, format, sourcePath, turns: [] };
}

/** Drops turns that ended up with neither text nor tools, and the skip map when it is empty. */
export function finishConversation(conv: Conversation, skipped: Record<string, number>): Conversation {
  for (const t of conv.turns) {
    if (t.at === undefined) delete t.at;
    // JSON escapes (\u0000) can bring NULs back after cleanText ran on the raw file.
    if (t.text.includes('\u0000')) t.text = t.text.replace(/\u0000/g, '');
    if (t.tools) t.tools = t.tools.map((line) => line.replace(/\u0000/g, '')).filter((line) => line.trim() !== '');
    if (t.tools && t.tools.length === 0) delete t.tools;
  }
  conv.turns = conv.turns.filter((t) => t.text.trim() !== '' || (t.tools?.length ?? 0) > 0);
  // A conversation began at its first stamped turn when its format has no start of its own; the
  // file's mtime (the harvest's last resort) is when it was last written, often days later.
  conv.startedAt ??= conv.turns.find((t) => t.at !== undefined)?.at;
  // `x ??= maybe()` leaves explicit undefined keys behind; callers should see absent fields.
  for (const key of ['title', 'startedAt', 'cwd', 'model', 'sourceFormat'] as const) if (conv[key] === undefined) delete conv[key];
  if (Object.keys(skipped).length > 0) conv.skipped = skipped;
  return conv;
}

/**
 * A whole-file JSON format's document, when the text parses and `accept` takes it; otherwise
 * undefined, counted once as `malformed` (detection then knows the file is not this format).
 */
export function parseJsonDocument<T>(
  rawText: string,
  skipped: Record<string, number>,
  accept: (value: unknown) => value is T,
): T | undefined {
  try {
    const data: unknown = JSON.parse(cleanText(rawText));
    if (accept(data)) return data;
  } catch {
    // Counted below, like a document of the wrong shape.
  }
  countSkip(skipped, 'malformed');
  return undefined;
}

/**
 * Checks that back detection by parsing: that a file taken for a format really is that format
 * (its import has turns and, for JSONL formats, most lines are that format's records), and that
 * a file nobody recognised is prose rather than JSON before it is read as plain text. Detection
 * scores only look at the first few KB, and a JSON file from another tool can share their keys.
 */
import type { Conversation, Importer } from '../../model/conversation';

/** Share of a JSONL file's non-blank lines that must be records of the detected format. */
const MIN_RECORD_SHARE = 0.5;
/** Share of sampled lines that must look like JSON for a file that does not parse whole. */
const JSON_LINE_SHARE = 0.8;
/** Lines sampled to decide that a text is JSON Lines or cut-short JSON. */
const JSON_SAMPLE_LINES = 50;
const JSON_SAMPLE_CHARS = 16 * 1024;
/** A line of pretty-printed JSON: `"key": …`, a lone bracket, or an array element. */
const PRETTY_JSON_LINE = /^\s*(?:"(?:[^"\\]|\\.)*"\s*(?::.*|,)?|[[\]{}],?|[\]}]+,?|-?\d[\d.eE+-]*,?|true,?|false,?|null,?)\s*$/;

/** Why an import does not hold as the importer's format. */
export interface FormatProblem {
  reason: string;
  /** True when the file is not this format at all; false when it is, but holds no turns. */
  foreign: boolean;
}

/** Undefined when the import holds as the importer's format, else why not. */
export function formatProblem(importer: Importer, conv: Conversation, text: string): FormatProblem | undefined {
  if (importer.jsonl) {
    const lines = countNonBlankLines(text);
    const own = Math.max(0, lines - foreignRecords(conv.skipped));
    if (lines > 0 && own < lines * MIN_RECORD_SHARE) {
      return { reason: `detected as ${importer.label}, but ${own} of ${lines} lines were ${importer.label} records`, foreign: true };
    }
  }
  if (conv.turns.length === 0) {
    // A JSON format whose text does not even parse is some other JSON, or something else.
    const foreign = !importer.jsonl && conv.skipped?.malformed !== undefined;
    const reason = foreign
      ? `detected as ${importer.label}, but it is not valid ${importer.label}`
      : `read as ${importer.label}, but it holds no conversation turns`;
    return { reason, foreign };
  }
  return undefined;
}

/** Records an importer counted as not its format's: `malformed`, `unknown` and `unknown:<type>` skips. */
function foreignRecords(skipped: Record<string, number> | undefined): number {
  let n = 0;
  for (const [kind, count] of Object.entries(skipped ?? {})) {
    if (kind === 'malformed' || kind === 'unknown' || kind.startsWith('unknown:')) n += count;
  }
  return n;
}

/** Lines with something other than whitespace, counted the way the JSONL importers split them. */
export function countNonBlankLines(text: string): number {
  let n = 0;
  for (let start = 0; start <= text.length;) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    // trim() stops at the first non-blank character from each end, so a huge line costs little.
    if (text.slice(start, end).trim() !== '') n++;
    start = end + 1;
  }
  return n;
}

/**
 * True for JSON or JSON Lines, whole or cut short: data, whose text must never be sent to a model
 * as if it were a conversation someone wrote.
 */
export function looksLikeJson(text: string): boolean {
  const start = text.replace(/^\ufeff/, '').trimStart();
  if (!start.startsWith('{') && !start.startsWith('[')) return false;
  try {
    JSON.parse(start);
    return true;
  } catch {
    // JSON Lines, or JSON cut short: judged from its first lines.
  }
  const sample = start.slice(0, JSON_SAMPLE_CHARS).split('\n');
  // A sample cut mid-line ends with a partial line that proves nothing.
  if (start.length > JSON_SAMPLE_CHARS) sample.pop();
  const lines = sample.filter((l) => l.trim() !== '').slice(0, JSON_SAMPLE_LINES);
  if (lines.length === 0) return false;
  const jsonish = lines.filter((l) => PRETTY_JSON_LINE.test(l) || parsesAsJson(l)).length;
  return jsonish >= lines.length * JSON_LINE_SHARE;
}

function parsesAsJson(line: string): boolean {
  const t = line.trim();
  if (!t.startsWith('{') && !t.startsWith('[')) return false;
  try {
    JSON.parse(t);
    return true;
  } catch {
    return false;
  }
}

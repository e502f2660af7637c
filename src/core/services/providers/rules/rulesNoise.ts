/**
 * What the rules extractor must never keep, whatever rule would take it. On real sessions most
 * of what an offline extractor wrongly kept came from text nobody in the conversation wrote as
 * knowledge: a spec or a document pasted into a prompt (its checklists became "open tasks", its
 * links and setup steps "decisions"), and tool output, logs and compiler warnings quoted in prose
 * (a cargo warning became a "fact"). These tests are shapes, not words, so they hold in any
 * project; when in doubt they call a line noise, since no item is better than a wrong one.
 */

import type { Transcript } from './rulesTranscript';

/** A turn this long (prose characters) is a document whatever its shape. */
const DOCUMENT_CHARS = 4000;
/** A turn this long with headings or many list items is a pasted spec or document. */
const STRUCTURED_DOCUMENT_CHARS = 800;
const DOCUMENT_HEADINGS = 2;
const DOCUMENT_LIST_ITEMS = 6;
/** A turn this many times longer than the person's typical turn (and this long) was pasted. */
const OUTLIER_FACTOR = 5;
const OUTLIER_MIN_CHARS = 800;
/** This many log or output lines make a turn pasted output. */
const OUTPUT_LINES = 4;
/** A statement needs this many words to say anything. */
const MIN_WORDS = 2;

const HEADING = /^\s{0,3}#{1,6}\s/;
const LIST_ITEM = /^\s*(?:[-*+]|\d{1,3}[.)])\s/;

/**
 * Lines that are program output, not a person or an agent speaking: compiler diagnostics,
 * stack frames, test runner and package manager output, log records, shell prompts.
 */
const OUTPUT_LINE: readonly RegExp[] = [
  /^(?:warning|error|note|help)(?:\[[\w-]+\])?:\s/,
  /^\s*-->\s+\S+:\d+/,
  /^\s*at\s+(?:\S+\s+)?\(?(?:\/|[A-Za-z]:\\|file:|node:|<anonymous>)\S*:\d+/,
  /^\s*at\s+\S+\s+\(\S+:\d+:\d+\)/,
  /^Traceback \(most recent call last\)/,
  /^\s*File "[^"]+", line \d+/,
  /^(?:[A-Z]\w*)?(?:Error|Exception):\s/,
  /^npm (?:ERR!|WARN\b|error\b|warn\b)/,
  /^(?:yarn|pnpm) (?:error|warn)\b/i,
  /\berror TS\d{3,5}\b/,
  // Cargo's progress lines; "Running the same suite (…) works" is prose, so the shapes are strict.
  /^\s*(?:Compiling|Checking|Downloaded|Fresh|Documenting)\s+\S+\s+v\d/,
  /^\s*(?:Finished|Running)\s+(?:`|\S*target\b|unittests\b|tests\/|\[)/,
  /^\s*Downloading\s+(?:\d+\s+)?crates?\b/,
  /^\s*\[?\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2})?/,
  /^\s*\[?(?:INFO|DEBUG|WARN|WARNING|ERROR|TRACE|FATAL)\]?[\s:]/,
  /^\s*(?:PASS|FAIL|ok|FAILED|ERROR)\s+\S+\.(?:ts|js|py|rs|go)\b/,
  /^\s*(?:✓|✗|✔|✘|×)\s/,
  /^\s*\d+\s+(?:passing|failing|pending|passed|failed)\b/,
  /^\s*(?:\$|>>>|PS [A-Z]:\\[^>]*>)\s+\S/,
  /^\s*(?:test result|running \d+ tests?)\b/i,
  /\b(?:exit(?:ed)? (?:with )?(?:code|status) \d+)\b/i,
];

/** A list item that is a step of a script or a setup guide, not knowledge: "Run `npm i`", "cd app". */
const SCRIPT_STEP =
  /^(?:run|execute|type|enter|open|navigate to|go to|visit|click|press|install|download|clone|copy|paste)\b\s*(?:[`$]|https?:|the\s+(?:command|following))|^`[^`]+`\s*$/i;
/** A list item that starts with a shell command, as written in lower case: `cd app`, `npm i x`. */
const COMMAND_STEP =
  /^(?:cd|npm|npx|yarn|pnpm|bun|git|pip3?|uv|cargo|go|curl|wget|docker|make|sudo|brew|apt|apt-get|python3?|node|export|source|chmod|mkdir|rm|cp|mv)\s+[-\w./~$"']/;
const URL = /\bhttps?:\/\/\S+|\bwww\.\S+/gi;
/** A markdown link whose target has no scheme, or the file: scheme: a place on the writer's disk. */
const LOCAL_LINK = /\[([^\]\n]+)\]\((?!(?!file:)[a-z][\w+.-]*:\/\/|mailto:)[^)\s]*\)/gi;

/**
 * User turns that are a pasted document or pasted output: long and structured like a spec,
 * much longer than what the person typed elsewhere, or mostly output lines. Only in a
 * conversation (one with agent turns): a file of notes on its own is a person's own words.
 */
export function pastedTurns(transcript: Transcript): Set<number> {
  const pasted = new Set<number>();
  if (!transcript.turns.some((turn) => turn.role === 'agent')) return pasted;
  const users = transcript.turns.map((turn, t) => ({ turn, t })).filter(({ turn }) => turn.role === 'user');
  const sizes = users.map(({ turn }) => proseOf(turn.lines).length);
  for (const [u, { turn, t }] of users.entries()) {
    const lines = turn.lines.filter((line) => line.trim());
    const chars = sizes[u];
    const headings = lines.filter((line) => HEADING.test(line)).length;
    const items = lines.filter((line) => LIST_ITEM.test(line)).length;
    const others = sizes.filter((_, o) => o !== u);
    const typical = others.length >= 2 ? median(others) : undefined;
    if (
      chars >= DOCUMENT_CHARS ||
      (chars >= STRUCTURED_DOCUMENT_CHARS && (headings >= DOCUMENT_HEADINGS || items >= DOCUMENT_LIST_ITEMS)) ||
      (typical !== undefined && chars >= OUTLIER_MIN_CHARS && chars >= OUTLIER_FACTOR * typical) ||
      lines.filter(isOutputLine).length >= OUTPUT_LINES
    )
      pasted.add(t);
  }
  return pasted;
}

/** Whether a line is program output (a diagnostic, a stack frame, a log record, a prompt). */
export function isOutputLine(line: string): boolean {
  return OUTPUT_LINE.some((pattern) => pattern.test(line));
}

/** Whether a list item is a script or setup step rather than knowledge. */
export function isScriptStep(text: string): boolean {
  const step = text.replace(/^\*\*|\*\*$/g, '').trim();
  return SCRIPT_STEP.test(step) || COMMAND_STEP.test(step);
}

/**
 * Whether a statement about to be kept is noise: output, a bare link or path, a script step,
 * or too short to say anything once links and code are set aside. What a person marked
 * (`Decision: mine`) is only refused when it is output or holds no words at all.
 */
export function isNoiseStatement(text: string, marked = false): boolean {
  const plain = text.replace(URL, '').replace(/`[^`]*`/g, '');
  // An empty code span is a local path the transcript left out: what is left says nothing usable.
  if (isOutputLine(text) || !/\p{L}{2,}/u.test(plain) || /(?<!`)``(?!`)/.test(text)) return true;
  if (marked) return false;
  const words = text
    .replace(URL, ' ')
    .replace(/`[^`]*`/g, ' code ')
    .match(/[\p{L}\p{N}]{2,}/gu);
  return isScriptStep(text) || (words?.length ?? 0) < MIN_WORDS;
}

/** "on this system", "on your machine": what one computer held or ran that day, not the project. */
const MACHINE_STATE = /\bon (?:this|your|my|the user's) (?:system|machine|computer|laptop|mac|pc|box)\b/i;

/** Whether a statement describes the state of one machine rather than the project. */
export function isMachineState(text: string): boolean {
  return MACHINE_STATE.test(text);
}

/** Markdown links to local files (`[a.ts](/home/me/app/a.ts#L3)`) reduced to their text; web links stay. */
export function withoutLocalLinks(text: string): string {
  return text.replace(LOCAL_LINK, '$1');
}

function proseOf(lines: string[]): string {
  return lines
    .filter((line) => line.trim())
    .join('\n')
    .trim();
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * Reads the markdown transcript format (the importers' renderTranscript output) into turns of
 * prose lines, for the rules extractor. Code, quotes (tool lines), Aider edit blocks and
 * frontmatter are blanked, not removed,
 * so line positions survive and a blank still ends a list.
 */

/** Who spoke a turn; `preamble` is the text before the first turn heading (title, notes). */
export type TranscriptRole = 'user' | 'agent' | 'system' | 'preamble';

/** One turn of a transcript. */
export interface TranscriptTurn {
  role: TranscriptRole;
  /** The heading line as written, e.g. `## 18:45 — user`; absent for the preamble and plain text. */
  heading?: string;
  /** The turn's lines; lines in code fences and `>` quotes are replaced by ''. */
  lines: string[];
  /** The turn's tool lines (`> [tool:Bash] npm test → exit 1`), in order: what the agent ran, never its output. */
  tools: ToolCall[];
}

/** One tool call of a turn, read from its `> [tool:…]` line. */
export interface ToolCall {
  /** Index of its (blanked) line in the turn's lines. */
  index: number;
  /** The tool's name: `Bash`, `exec_command`, `edit` … */
  name: string;
  /** What it was called with (a command, a path), without the failure mark. */
  input: string;
  /** The importer marked it failed (`→ error`, `→ exit N`). */
  failed: boolean;
  /** The line as written, for a summary that keeps it. */
  raw: string;
}

/** A transcript split into turns. */
export interface Transcript {
  /** The first `# ` heading before the first turn, if any. */
  title?: string;
  /** False for plain text with no turn heading, which is read as a single user turn. */
  hasHeadings: boolean;
  turns: TranscriptTurn[];
}

/** The turn heading of the transcript contract. */
export const TURN_HEADING = /^## (?:(\d{2}:\d{2}) — )?(user|agent|system)\b.*$/;
const FENCE_OPEN = /^\s{0,3}(`{3,}|~{3,})/;
const QUOTE = /^\s{0,3}>/;
/** A tool line of the transcript contract, with the importers' failure marks. */
const TOOL_LINE = /^\s{0,3}> \[tool:([\w.-]+)\]\s*(.*?)(\s+→ (?:error|exit \d+))?\s*$/;
/** Aider's edit blocks: file content being replaced, shown unfenced when a fence went astray. */
const EDIT_BLOCK_OPEN = /^<{7} SEARCH\s*$/;
const EDIT_BLOCK_CLOSE = /^>{7} REPLACE\s*$/;
/** How far down a frontmatter block may close; beyond that a leading `---` is a rule. */
const FRONTMATTER_MAX_LINES = 60;

/** Splits a transcript (or a plain text file) into turns. */
export function readTranscript(content: string): Transcript {
  const lines = stripFrontmatter(content.replace(/\r\n?/g, '\n').split('\n'));
  const hasHeadings = lines.some((line) => TURN_HEADING.test(line));
  const turns: TranscriptTurn[] = [];
  let current: TranscriptTurn = { role: hasHeadings ? 'preamble' : 'user', lines: [], tools: [] };
  let title: string | undefined;
  let fence: string | undefined;
  let editBlock = false;
  for (const line of lines) {
    const heading = TURN_HEADING.exec(line);
    if (heading) {
      turns.push(current);
      current = { role: heading[2] as TranscriptRole, heading: line.trimEnd(), lines: [], tools: [] };
      // A fence left open by a truncated message must not swallow the following turns.
      fence = undefined;
      editBlock = false;
      continue;
    }
    if (editBlock || EDIT_BLOCK_OPEN.test(line)) {
      // File content is not what anyone said, even where a fence around it was left open or closed early.
      editBlock = !EDIT_BLOCK_CLOSE.test(line);
      current.lines.push('');
      continue;
    }
    if (fence !== undefined) {
      if (closesFence(line, fence)) fence = undefined;
      current.lines.push('');
      continue;
    }
    const open = FENCE_OPEN.exec(line);
    if (open) {
      fence = open[1];
      current.lines.push('');
      continue;
    }
    if (QUOTE.test(line)) {
      const tool = TOOL_LINE.exec(line);
      if (tool)
        current.tools.push({ index: current.lines.length, name: tool[1], input: tool[2], failed: tool[3] !== undefined, raw: line.trim() });
      current.lines.push('');
      continue;
    }
    if (current.role === 'preamble' && title === undefined && /^# \S/.test(line)) title = line.slice(2).trim();
    current.lines.push(line.trimEnd());
  }
  turns.push(current);
  return { title, hasHeadings, turns: turns.filter((turn) => turn.heading !== undefined || turn.lines.some((l) => l.trim())) };
}

function closesFence(line: string, fence: string): boolean {
  const trimmed = line.trim();
  return trimmed.length >= fence.length && trimmed[0] === fence[0] && /^(`+|~+)$/.test(trimmed);
}

function stripFrontmatter(lines: string[]): string[] {
  if (lines[0]?.trim() !== '---') return lines;
  const end = lines.findIndex((line, index) => index > 0 && line.trim() === '---');
  if (end < 0 || end > FRONTMATTER_MAX_LINES) return lines;
  // Keep the count of lines the same so positions stay meaningful for callers that care.
  return [...lines.slice(0, end + 1).map(() => ''), ...lines.slice(end + 1)];
}

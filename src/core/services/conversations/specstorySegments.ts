/**
 * The tool output older (Cursor) SpecStory exports keep inline in an answer, between `---` lines,
 * recognised so that each becomes one tool line, as every other importer writes a tool call:
 *
 * - a read: `Read file: src/a.ts`;
 * - a terminal run: a shell fence with the command, then a fence with its output;
 * - an edit: only ```diff fences, the change the editor applied (often several kilobytes);
 * - a rule fetch: `### Rule: <name>`, its description, then the rule's whole text in a
 *   ```markdown fence, which the export closes at the end of the text's last line
 *   (`…rather than implementing code.```), not on a line of its own. One session fetched a 16 KB
 *   rule 35 times.
 *
 * What the tool printed (file bodies, command output, diffs) is never what anyone said; the
 * transcript keeps that it happened, which is what makes a 1.2 MB export fit a few model calls.
 */
import { toolLine } from './toolSummary';

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const SHELL_FENCE = /^```(?:bash|sh|shell|zsh|console|powershell|ps1|cmd)\s*$/;
const READ_FILE = /^Read file: (.+)$/;
/** The first line of a rule fetch. */
export const RULE_HEADING = /^### Rule: (\S.*)$/;

/** The tool line for one `---`-delimited segment of an answer, or undefined when it is prose. */
export function toolSegment(text: string): string | undefined {
  const read = READ_FILE.exec(text);
  if (read && !text.includes('\n')) return toolLine('read', read[1]);
  return terminalRun(text) ?? editDiff(text);
}

/** `[tool:terminal] cmd` for a segment that is only a shell fence (and its output fence). */
function terminalRun(text: string): string | undefined {
  const lines = text.split('\n');
  if (!SHELL_FENCE.test(lines[0])) return undefined;
  const close = lines.indexOf('```', 1);
  if (close < 0) return undefined;
  // Anything after the command other than one output fence means this is prose with an example.
  // The output is fenced with bare ``` lines and not escaped: it may hold fences of its own (a
  // commit message's example), so only its first and last lines are checked.
  const rest = lines.slice(close + 1).filter((l) => l.trim() !== '');
  if (rest.length > 0 && (rest.length < 2 || rest[0].trim() !== '```' || rest[rest.length - 1].trim() !== '```')) return undefined;
  const command = lines.slice(1, close).find((l) => l.trim() !== '') ?? '';
  return toolLine('terminal', command);
}

/** `[tool:edit] 12 lines changed` for a segment made only of ```diff fences. */
function editDiff(text: string): string | undefined {
  if (!text.startsWith('```diff')) return undefined;
  let fence: string | undefined;
  let changed = 0;
  for (const line of text.split('\n')) {
    if (fence) {
      const trimmed = line.trim();
      if (trimmed.startsWith(fence) && trimmed.replace(/[`~]/g, '') === '') fence = undefined;
      else if (/^[+-]/.test(line)) changed++;
      continue;
    }
    if (line.trim() === '') continue;
    const open = FENCE.exec(line);
    // Prose between the fences, or a fence of another language: the agent showing a change.
    if (!open || open[2].trim() !== 'diff') return undefined;
    fence = open[1];
  }
  return toolLine('edit', `${changed} line${changed === 1 ? '' : 's'} changed`);
}

/**
 * Follows a rule fetch from its `### Rule:` line to the fence that ends the rule's text: a line
 * ending in ``` right before the answer's next `---` or next fetch. The rule's own code blocks
 * are not followed: rules indent and nest fences in ways no two renderers agree on, and what
 * matters is only where the text ends.
 */
export class RuleFetch {
  private opened = false;

  constructor(readonly name: string) {}

  /** The tool line the fetch becomes. */
  get tool(): string {
    return toolLine('rule', this.name);
  }

  /**
   * Where `lines[i]` stands: inside the fetch, its last line, or already after it (a `---` before
   * the rule's text began: a fetch that printed nothing), for the caller to read as usual.
   */
  place(lines: readonly string[], i: number): 'inside' | 'last' | 'after' {
    const line = lines[i];
    if (!this.opened) {
      if (line.trim() === '---') return 'after';
      if (FENCE.test(line)) this.opened = true;
      return 'inside';
    }
    return /```\s*$/.test(line) && endFollows(lines, i) ? 'last' : 'inside';
  }
}

/** True when the next non-blank line after `i` is `---`, another rule fetch, or there is none. */
function endFollows(lines: readonly string[], i: number): boolean {
  let j = i + 1;
  while (j < lines.length && lines[j].trim() === '') j++;
  return j >= lines.length || lines[j].trim() === '---' || RULE_HEADING.test(lines[j]);
}

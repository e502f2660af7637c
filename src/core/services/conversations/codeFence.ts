/**
 * Fenced code blocks in markdown exports: a line inside ``` or ~~~ fences is code, never a turn
 * marker or an action line, even when it looks like one.
 */
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** Follows the fences of a markdown text, one line at a time, in order. */
export class CodeFences {
  private open: string | undefined;

  /** True when `line` opens, closes or sits inside a fenced block. */
  isCode(line: string): boolean {
    if (this.open) {
      const trimmed = line.trim();
      if (trimmed.startsWith(this.open) && trimmed.replace(/[`~]/g, '') === '') this.open = undefined;
      return true;
    }
    const start = FENCE.exec(line);
    if (start) this.open = start[1];
    return start !== null;
  }
}

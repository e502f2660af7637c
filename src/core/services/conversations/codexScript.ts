/**
 * The tool calls inside a Codex script. In code mode Codex gives the model one freeform `exec`
 * tool (`code_mode` in early builds) whose input is a JavaScript program calling the real tools,
 * `const r = await tools.exec_command({cmd: "npm test", workdir: "…", yield_time_ms: 30000});
 * text(r.output);`; its older `js_repl` tool does the same with `await codex.tool("exec_command",
 * {…})`. A transcript shows the calls, not the program around them, which was close to half of a
 * real rollout's prompt. Arguments are read only where they are literals (strings, arrays of
 * strings, nested objects); anything computed is left out, and the call is still named. Written
 * from openai/codex (codex-rs/core/src/tools/code_mode, js_repl; read in 2026-12).
 */
import type { JsonObject } from './importSupport';

/** One tool call a script makes: its name and its literal argument, when it has one. */
export interface ScriptCall {
  name: string;
  /** A string argument (apply_patch's patch), an object's literal fields, or undefined. */
  input: string | JsonObject | undefined;
}

/** Freeform Codex tools whose input is such a script. */
export const SCRIPT_TOOLS = new Set(['exec', 'code_mode', 'js_repl']);

const IDENTIFIER = /[A-Za-z_$][\w$]*/y;
const SPACE = /(?:\s|\/\/[^\n]*|\/\*[\s\S]*?\*\/)*/y;

/** The calls a script makes to other tools, in the order they are written. */
export function scriptCalls(source: string): ScriptCall[] {
  const calls: ScriptCall[] = [];
  const r = new Reader(source);
  while (r.at < source.length) {
    const c = source[r.at];
    if (c === '"' || c === "'" || c === '`') {
      r.value(); // a string is skipped whole: text inside it is not code
    } else if (c === '/' && (source[r.at + 1] === '/' || source[r.at + 1] === '*')) {
      r.space();
    } else if (/[A-Za-z_$]/.test(c) && (r.at === 0 || !/[\w$.]/.test(source[r.at - 1]))) {
      const call = r.toolCall();
      if (call) calls.push(call);
    } else {
      r.at++;
    }
  }
  return calls;
}

/** A cursor over the script, reading just enough JavaScript for literal arguments. */
class Reader {
  at = 0;
  constructor(private readonly src: string) {}

  space(): void {
    SPACE.lastIndex = this.at;
    SPACE.exec(this.src);
    this.at = SPACE.lastIndex;
  }

  identifier(): string | undefined {
    IDENTIFIER.lastIndex = this.at;
    const m = IDENTIFIER.exec(this.src);
    if (!m) return undefined;
    this.at = IDENTIFIER.lastIndex;
    return m[0];
  }

  eat(text: string): boolean {
    this.space();
    if (!this.src.startsWith(text, this.at)) return false;
    this.at += text.length;
    return true;
  }

  /** `tools.name(arg)` or `codex.tool("name", arg)` at the cursor; otherwise moves past the identifier. */
  toolCall(): ScriptCall | undefined {
    const head = this.identifier();
    if (head === 'tools' && this.eat('.')) {
      this.space();
      const name = this.identifier();
      if (name && this.eat('(')) return { name, input: this.argument() };
    } else if (head === 'codex' && this.eat('.') && this.identifier() === 'tool' && this.eat('(')) {
      this.space();
      const name = this.value();
      if (typeof name === 'string' && name !== '') return { name, input: this.eat(',') ? this.argument() : undefined };
    }
    return undefined;
  }

  argument(): ScriptCall['input'] {
    const value = this.value();
    return typeof value === 'string' || (typeof value === 'object' && !Array.isArray(value)) ? value : undefined;
  }

  /** A literal value; for anything else, skips to the end of the expression and gives undefined. */
  value(): string | string[] | JsonObject | undefined {
    this.space();
    const c = this.src[this.at];
    if (c === '"' || c === "'" || c === '`') return this.string(c);
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    this.skipExpression();
    return undefined;
  }

  /** A quoted string; a template with `${…}` in it is no literal. */
  private string(quote: string): string | undefined {
    let out = '';
    let literal = true;
    for (this.at++; this.at < this.src.length; this.at++) {
      const c = this.src[this.at];
      if (c === quote) {
        this.at++;
        return literal ? out : undefined;
      }
      if (c === '\\') {
        const next = this.src[++this.at] ?? '';
        out += next === 'n' ? '\n' : next === 't' ? '\t' : next === 'r' ? '' : next;
      } else {
        if (quote === '`' && c === '$' && this.src[this.at + 1] === '{') literal = false;
        out += c;
      }
    }
    return undefined;
  }

  private object(): JsonObject {
    const out: JsonObject = {};
    this.at++;
    while (!this.eat('}')) {
      if (this.at >= this.src.length) return out;
      const from = this.at;
      this.space();
      const c = this.src[this.at];
      const key = c === '"' || c === "'" ? this.string(c) : this.identifier();
      if (key === undefined) {
        this.skipExpression(); // a spread, a computed key
      } else if (this.eat(':')) {
        const value = this.value();
        if (value !== undefined) out[key] = value;
      }
      if (!this.eat(',') && this.at === from) this.at++; // a stray `)` or `]`: never stand still
    }
    return out;
  }

  private array(): string[] | undefined {
    const out: string[] = [];
    let literal = true;
    this.at++;
    while (!this.eat(']')) {
      if (this.at >= this.src.length) return undefined;
      const from = this.at;
      const value = this.value();
      if (typeof value === 'string') out.push(value);
      else literal = false;
      if (!this.eat(',') && this.at === from) this.at++;
    }
    return literal ? out : undefined;
  }

  /** Moves to the `,` or closing bracket that ends the expression at the cursor. */
  private skipExpression(): void {
    let depth = 0;
    while (this.at < this.src.length) {
      const c = this.src[this.at];
      if (c === '"' || c === "'" || c === '`') {
        this.string(c);
        continue;
      }
      if (c === '(' || c === '[' || c === '{') depth++;
      else if (c === ')' || c === ']' || c === '}') {
        if (depth === 0) return;
        depth--;
      } else if (c === ',' && depth === 0) return;
      this.at++;
    }
  }
}

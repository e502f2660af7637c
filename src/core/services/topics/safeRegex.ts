/**
 * Regular expressions from topic files are untrusted input: anyone who can write `.lore/topics/`
 * (a cloned repository, a merged branch) chooses them, and they run on every prompt inside the
 * agent's hook. JavaScript's default engine backtracks and cannot be interrupted, so:
 *
 * 1. V8 is told, once per process, to switch a regex to its linear-time engine when a match
 *    backtracks excessively (`--enable-experimental-regexp-engine-on-excessive-backtracks`): a
 *    pattern runs on the fast backtracking engine as usual, and `(a+)+b` on a hostile input
 *    finishes in about a millisecond instead of never. Only regexes that backtrack pathologically
 *    are affected, and their results do not change. The fallback exists only for patterns the
 *    linear engine can run, so patterns with backreferences or lookaheads are refused (checked by
 *    compiling them with the `l` flag), and since that engine has no case-insensitive mode, a
 *    topic pattern matches lower-cased input with its literal letters lower-cased (escapes such
 *    as `\S` stay as written) instead of using the `i` flag.
 * 2. Where those flags are unavailable, the shapes that backtrack exponentially are refused
 *    instead (a repeated group that repeats inside, backreferences).
 * 3. Either way a pattern sees at most MAX_MATCH_INPUT_CHARS characters (the start of a prompt,
 *    the end of a reply) and is at most MAX_PATTERN_CHARS long, and a run slower than
 *    SLOW_PATTERN_MS disables the pattern for the rest of the process (reported), so one bad
 *    pattern costs one slow run, never one per prompt.
 */
import { lazy } from '../../base/lazy';

const v8Module = lazy(() => require('node:v8') as typeof import('node:v8'));

let linearEngine: boolean | undefined;

/** Whether V8's linear-time engine (and the fallback to it) is available; set up once per process. */
export function hasLinearEngine(): boolean {
  if (linearEngine !== undefined) return linearEngine;
  try {
    const v8 = v8Module();
    v8.setFlagsFromString('--enable-experimental-regexp-engine');
    v8.setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');
    // eslint-disable-next-line no-invalid-regexp -- V8's linear-time flag, enabled just above
    new RegExp('a', 'l');
    linearEngine = true;
  } catch {
    linearEngine = false;
  }
  return linearEngine;
}

/** The pattern with its literal letters lower-cased; what follows a backslash is kept as written. */
function lowerLiterals(source: string): string {
  let out = '';
  for (let i = 0; i < source.length; i++) {
    if (source[i] === '\\') {
      out += source.slice(i, i + 2);
      i++;
    } else out += source[i].toLowerCase();
  }
  return out;
}

/**
 * Compiles a topic pattern. With the linear engine: checked against it (so the fallback can take
 * over), then compiled for the ordinary engine. @throws SyntaxError when it cannot be compiled.
 */
function compile(source: string): { regex: RegExp; lowerInput: boolean } {
  if (!hasLinearEngine()) return { regex: new RegExp(source, 'i'), lowerInput: false };
  const lowered = lowerLiterals(source);
  // eslint-disable-next-line no-invalid-regexp -- V8's linear-time flag (see hasLinearEngine)
  new RegExp(lowered, 'l');
  return { regex: new RegExp(lowered), lowerInput: true };
}

/** Longest pattern accepted from a topic file. */
export const MAX_PATTERN_CHARS = 500;
/** Characters of a message (or reply) a pattern runs on at most. */
export const MAX_MATCH_INPUT_CHARS = 8192;
/** A single run slower than this disables the pattern. */
export const SLOW_PATTERN_MS = 25;

/** Why a pattern is refused, or undefined when it is accepted. */
export function patternProblem(source: string): string | undefined {
  if (source.length > MAX_PATTERN_CHARS) return `pattern longer than ${MAX_PATTERN_CHARS} characters`;
  try {
    new RegExp(source, 'i');
  } catch (error) {
    return `invalid regular expression: ${(error as Error).message}`;
  }
  if (!hasLinearEngine()) return backtrackingRisk(source);
  try {
    compile(source);
  } catch {
    return 'backreferences and lookaheads are not supported (topic patterns run on a linear-time engine)';
  }
  return undefined;
}

/** True at `i` when a quantifier starts there (`*`, `+`, `?` after an atom, `{n,}` / `{n,m}`). */
function quantifierAt(source: string, i: number): boolean {
  const c = source[i];
  if (c === '*' || c === '+') return true;
  if (c !== '{') return false;
  const braces = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i, i + 24));
  if (!braces) return false;
  const max = braces[2] === undefined ? Number(braces[1]) : braces[3] === '' ? Infinity : Number(braces[3]);
  return max > 1;
}

/**
 * Finds nested quantifiers and backreferences by one scan over the pattern, skipping escapes
 * and character classes. A `?` after a group is harmless (at most one repetition), so only
 * `*`, `+` and `{n,}` count as repeating.
 */
function backtrackingRisk(source: string): string | undefined {
  // One entry per open group: whether something inside it repeats.
  const stack: boolean[] = [];
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      const next = source[i + 1] ?? '';
      if (!inClass && (/[1-9]/.test(next) || next === 'k')) return 'backreferences are not allowed (they can backtrack exponentially)';
      i++;
      if (!inClass && stack.length && quantifierAt(source, i + 1)) stack[stack.length - 1] = true;
      continue;
    }
    if (inClass) {
      if (c === ']') {
        inClass = false;
        if (stack.length && quantifierAt(source, i + 1)) stack[stack.length - 1] = true;
      }
      continue;
    }
    if (c === '[') {
      inClass = true;
      continue;
    }
    if (c === '(') {
      stack.push(false);
      continue;
    }
    if (c === ')') {
      const repeatsInside = stack.pop() ?? false;
      if (quantifierAt(source, i + 1)) {
        if (repeatsInside)
          return `nested quantifier near position ${i + 1} (a repeated group that repeats inside can backtrack exponentially)`;
        if (stack.length) stack[stack.length - 1] = true;
      } else if (repeatsInside && stack.length) {
        stack[stack.length - 1] = true;
      }
      continue;
    }
    if (stack.length && quantifierAt(source, i)) stack[stack.length - 1] = true;
  }
  return undefined;
}

/** The last input bounded and lower-cased: every pattern of every topic runs on the same message. */
let lastInput: { text: string; from: 'start' | 'end'; lower: boolean; bounded: string } | undefined;

function boundedInput(text: string, from: 'start' | 'end', lower: boolean): string {
  if (lastInput && lastInput.text === text && lastInput.from === from && lastInput.lower === lower) return lastInput.bounded;
  const cut =
    text.length <= MAX_MATCH_INPUT_CHARS
      ? text
      : from === 'start'
        ? text.slice(0, MAX_MATCH_INPUT_CHARS)
        : text.slice(-MAX_MATCH_INPUT_CHARS);
  const bounded = lower ? cut.toLowerCase() : cut;
  lastInput = { text, from, lower, bounded };
  return bounded;
}

/** A checked pattern with its time box. */
export class GuardedPattern {
  private readonly regex: RegExp;
  private readonly lowerInput: boolean;
  /** Set once a run was slower than SLOW_PATTERN_MS; the pattern then never runs again. */
  slowMs: number | undefined;

  /** @throws Error when patternProblem refuses the source. */
  constructor(readonly source: string) {
    const problem = patternProblem(source);
    if (problem) throw new Error(problem);
    ({ regex: this.regex, lowerInput: this.lowerInput } = compile(source));
  }

  /**
   * The first match in the bounded text (its start for input, its end for output), or
   * undefined. A disabled pattern never matches.
   */
  match(text: string, from: 'start' | 'end' = 'start'): string | undefined {
    if (this.slowMs !== undefined) return undefined;
    const bounded = boundedInput(text, from, this.lowerInput);
    const started = performance.now();
    const found = this.regex.exec(bounded);
    const took = performance.now() - started;
    if (took > SLOW_PATTERN_MS) {
      this.slowMs = took;
      return undefined;
    }
    return found ? found[0] : undefined;
  }
}

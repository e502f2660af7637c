/**
 * One-line summaries of an agent's tool calls (`[tool:Bash] npm test`, `[tool:Read] src/a.ts`).
 * A transcript keeps what the agent did, never the call's full JSON or its output: that is what
 * makes a rendered transcript a fraction of the raw session's size.
 */
import { arr, isObject, obj, oneLine, str } from './importSupport';

/** Input fields worth showing, in order of preference, for tools this module does not know. */
const GENERIC_FIELDS = ['command', 'cmd', 'file_path', 'path', 'notebook_path', 'url', 'query', 'pattern', 'description', 'prompt', 'name'];

/** `[tool:<name>] <summary>`, with the name reduced to characters the transcript syntax accepts. */
export function toolLine(name: string, summary: string | undefined): string {
  const safe = name.replace(/[^\w.-]+/g, '_').replace(/^[^A-Za-z]+/, '') || 'unknown';
  const detail = summary === undefined ? '' : oneLine(summary);
  return detail === '' ? `[tool:${safe}]` : `[tool:${safe}] ${detail}`;
}

/** Summarises a Claude Code (or similar) tool_use block from its name and input object. */
export function summarizeToolUse(name: string, input: unknown): string {
  const i = obj(input) ?? {};
  return toolLine(name, describe(name, i));
}

function describe(name: string, i: Record<string, unknown>): string | undefined {
  switch (name) {
    case 'Bash':
      return str(i.command) ?? str(i.description);
    case 'Read':
    case 'Write':
    case 'Edit':
    case 'MultiEdit':
    case 'NotebookRead':
    case 'NotebookEdit':
      return str(i.file_path) ?? str(i.notebook_path) ?? str(i.path);
    case 'Glob':
    case 'Grep':
      return withPath(str(i.pattern), str(i.path));
    case 'Task':
    case 'Agent': {
      const kind = str(i.subagent_type);
      const what = str(i.description) ?? str(i.prompt);
      return kind && what ? `${what} (${kind})` : (what ?? kind);
    }
    case 'TodoWrite': {
      const todos = arr(i.todos);
      return `${todos.length} item${todos.length === 1 ? '' : 's'}`;
    }
    case 'AskUserQuestion': {
      const first = arr(i.questions).find(isObject);
      return first ? str(first.question) : undefined;
    }
    case 'ExitPlanMode':
      return str(i.plan);
    case 'WebFetch':
      return str(i.url);
    case 'WebSearch':
      return str(i.query);
    default:
      return genericSummary(i);
  }
}

function withPath(what: string | undefined, where: string | undefined): string | undefined {
  return what && where ? `${what} in ${where}` : (what ?? where);
}

/** The first short, meaningful string field of an input object. */
export function genericSummary(input: Record<string, unknown>): string | undefined {
  for (const field of GENERIC_FIELDS) {
    const value = input[field];
    if (typeof value === 'string' && value.trim() !== '') return value;
    if (Array.isArray(value) && value.every((v) => typeof v === 'string') && value.length > 0) return shellCommand(value as string[]);
  }
  for (const value of Object.values(input)) {
    if (typeof value === 'string' && value.trim() !== '' && value.length <= 400) return value;
  }
  return undefined;
}

/** A command given as an argv array, unwrapped from `bash -lc "<script>"`. */
export function shellCommand(argv: string[]): string {
  if (argv.length >= 3 && /(^|\/)(ba|z)?sh$/.test(argv[0]) && /^-\w*c$/.test(argv[1])) return argv.slice(2).join(' ');
  return argv.join(' ');
}

/** The files an `apply_patch` patch touches (`*** Update File: a.ts`), comma-separated. */
export function patchFiles(patch: string): string | undefined {
  const files: string[] = [];
  for (const line of patch.split('\n')) {
    const m = /^\*\*\* (?:Add|Update|Delete) File: (.+)$/.exec(line.trim());
    if (m && !files.includes(m[1])) files.push(m[1]);
  }
  return files.length > 0 ? files.join(', ') : undefined;
}

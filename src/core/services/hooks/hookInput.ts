/**
 * The JSON agent hooks hand Lore on stdin, checked by hand rather than with zod: it is read
 * before every prompt, and loading zod would cost more than building the answer (the same
 * reason the note index's state file is checked by hand).
 *
 * The input, as documented by each tool:
 * - Claude Code (https://code.claude.com/docs/en/hooks, "Hook input"): every event carries
 *   `session_id`, `transcript_path`, `cwd`, `permission_mode` and `hook_event_name`; SessionEnd adds
 *   `reason`, PreCompact `trigger` and `custom_instructions`, Stop `stop_hook_active`,
 *   UserPromptSubmit `prompt`, SessionStart `source` (startup, resume, clear, compact).
 * - VS Code agent hooks (https://code.visualstudio.com/docs/agents/reference/hooks-reference,
 *   common input fields): `timestamp`, `cwd`, `sessionId`, `hookEventName` and `transcript_path`
 *   (the transcript's format is not a stable API there); UserPromptSubmit adds `prompt`,
 *   SessionStart `source`.
 * - PreToolUse / PostToolUse (both tools): `tool_name`, `tool_input`, `tool_use_id` (and
 *   PostToolUse `tool_response`). The paths in `tool_input`: Claude Code's `file_path` (Read,
 *   Write, Edit, MultiEdit), `notebook_path` (NotebookEdit) and `path` (Glob, Grep); VS Code's
 *   `files` (editFiles, a list) and its built-in tools' `filePath`.
 * Both spellings of the session id and event name are read; unknown fields are ignored. The
 * context events (SessionStart, UserPromptSubmit) need no session id: Lore only reads for them.
 */
import { wellFormed } from '../../base/wellFormedText';
import { CONTEXT_EVENTS, TOOL_EVENTS } from './hookEvents';

/** Paths and ids longer than this are not what a tool sends. */
const MAX_FIELD_CHARS = 4096;
/** A prompt may be long (a pasted log); only its start is searched, so a longer one is cut, not refused. */
const MAX_PROMPT_CHARS = 64 * 1024;

/** A hook's input, one spelling. */
export interface HookInput {
  event: string;
  /** '' for a context event sent without one. */
  sessionId: string;
  transcriptPath?: string;
  cwd: string;
  /** UserPromptSubmit: what the user typed (at most MAX_PROMPT_CHARS of it). */
  prompt?: string;
  /** PreToolUse / PostToolUse: the paths the tool input names, as given. */
  toolFiles?: string[];
  /**
   * SessionStart: why the session (re)starts (Claude Code's and VS Code's `source`: startup,
   * resume, clear, compact); after clear or compact the context given before is gone.
   */
  source?: string;
}

/** The field as a string of 1..MAX_FIELD_CHARS characters, undefined when absent, or a problem. */
function field(data: Record<string, unknown>, name: string, nullable = false): string | undefined | { problem: string } {
  const value = data[name];
  if (value === undefined || (nullable && value === null)) return undefined;
  if (typeof value !== 'string') return { problem: `stdin: ${name}: expected a string` };
  if (value.length === 0 || value.length > MAX_FIELD_CHARS)
    return { problem: `stdin: ${name}: expected 1 to ${MAX_FIELD_CHARS} characters` };
  // A lone surrogate (half a character) is U+FFFD from here on: queue file names and lines compare as written.
  return wellFormed(value);
}

/** Paths taken from one tool input at most (an editFiles call may name many). */
const MAX_PATHS_PER_CALL = 20;
/** A path longer than this is not one a tool sends. */
const MAX_PATH_CHARS = 1024;
/** The keys of a tool input that hold one path (both tools' spellings). */
const PATH_KEYS = ['file_path', 'notebook_path', 'path', 'filePath'] as const;

/** Whether a value can be a path a tool names. */
export function isToolPath(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_PATH_CHARS && !value.includes('\0');
}

/** The paths a tool input names, as given (at most MAX_PATHS_PER_CALL). */
export function toolInputPaths(toolInput: unknown): string[] {
  if (!toolInput || typeof toolInput !== 'object' || Array.isArray(toolInput)) return [];
  const input = toolInput as Record<string, unknown>;
  const found: string[] = [];
  for (const key of PATH_KEYS) if (isToolPath(input[key])) found.push(input[key]);
  if (Array.isArray(input.files)) {
    for (const entry of input.files.slice(0, MAX_PATHS_PER_CALL)) {
      const value =
        entry && typeof entry === 'object'
          ? ((entry as Record<string, unknown>).filePath ?? (entry as Record<string, unknown>).path)
          : entry;
      if (isToolPath(value)) found.push(value);
    }
  }
  return [...new Set(found.map(wellFormed))].slice(0, MAX_PATHS_PER_CALL);
}

/** Parses a hook's stdin, or says what is wrong with it. */
export function parseHookInput(text: string): HookInput | { problem: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { problem: `stdin is not JSON: ${(error as Error).message}` };
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return { problem: 'stdin: expected a JSON object' };
  const data = raw as Record<string, unknown>;
  const fields: Record<string, string | undefined> = {};
  for (const [name, nullable] of [
    ['cwd', false],
    ['session_id', false],
    ['sessionId', false],
    ['transcript_path', true],
    ['transcriptPath', true],
    ['hook_event_name', false],
    ['hookEventName', false],
  ] as const) {
    const value = field(data, name, nullable);
    if (typeof value === 'object') return value;
    fields[name] = value;
  }
  if (data.prompt !== undefined && typeof data.prompt !== 'string') return { problem: 'stdin: prompt: expected a string' };
  if (!fields.cwd) return { problem: 'stdin: cwd: required' };
  const event = fields.hook_event_name ?? fields.hookEventName;
  const sessionId = fields.session_id ?? fields.sessionId;
  if (!event) return { problem: 'stdin: no hook_event_name' };
  if (!sessionId && !CONTEXT_EVENTS.includes(event)) return { problem: 'stdin: no session_id' };
  // Cut by characters: a cut through an emoji leaves U+FFFD, not half of it.
  const prompt = typeof data.prompt === 'string' ? wellFormed(data.prompt.slice(0, MAX_PROMPT_CHARS)) : undefined;
  const toolFiles = TOOL_EVENTS.includes(event) ? toolInputPaths(data.tool_input) : undefined;
  return {
    event,
    sessionId: sessionId ?? '',
    transcriptPath: fields.transcript_path ?? fields.transcriptPath,
    cwd: fields.cwd,
    ...(prompt === undefined ? {} : { prompt }),
    ...(toolFiles ? { toolFiles } : {}),
    // Read leniently: an unknown or odd source only means the session is not known to restart.
    ...(typeof data.source === 'string' && data.source.length <= 64 ? { source: data.source } : {}),
  };
}

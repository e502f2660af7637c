/**
 * The zod schemas of what agent hooks hand Lore: the JSON on the hook's stdin and the queued
 * entries `lore hook` leaves in the store. Loaded on first use (zod is a large share of the CLI's
 * start-up, and only these two paths need it).
 *
 * The input, as documented by each tool:
 * - Claude Code (https://code.claude.com/docs/en/hooks, "Hook input"): every event carries
 *   `session_id`, `transcript_path`, `cwd`, `permission_mode` and `hook_event_name`; SessionEnd adds
 *   `reason`, PreCompact `trigger` and `custom_instructions`, Stop `stop_hook_active`.
 * - VS Code agent hooks (https://code.visualstudio.com/docs/agents/reference/hooks-reference,
 *   common input fields): `timestamp`, `cwd`, `sessionId`, `hookEventName` and `transcript_path`
 *   (the transcript's format is not a stable API there).
 * Both spellings of the session id and event name are read; unknown fields are ignored.
 */
import { z } from 'zod';
import { describeSchemaIssue } from '../util/schemaIssue';

/** Paths and ids longer than this are not what a tool sends. */
const MAX_FIELD_CHARS = 4096;
const field = z.string().min(1).max(MAX_FIELD_CHARS);

const hookInputSchema = z.looseObject({
  session_id: field.optional(),
  sessionId: field.optional(),
  transcript_path: field.nullable().optional(),
  transcriptPath: field.nullable().optional(),
  cwd: field,
  hook_event_name: field.optional(),
  hookEventName: field.optional(),
});

/** A hook's input, one spelling. */
export interface HookInput {
  event: string;
  sessionId: string;
  transcriptPath?: string;
  cwd: string;
}

/** Parses a hook's stdin, or says what is wrong with it. */
export function parseHookInput(text: string): HookInput | { problem: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { problem: `stdin is not JSON: ${(error as Error).message}` };
  }
  const result = hookInputSchema.safeParse(raw);
  if (!result.success) return { problem: `stdin: ${describeSchemaIssue(result.error)}` };
  const data = result.data;
  const event = data.hook_event_name ?? data.hookEventName;
  const sessionId = data.session_id ?? data.sessionId;
  if (!event) return { problem: 'stdin: no hook_event_name' };
  if (!sessionId) return { problem: 'stdin: no session_id' };
  return { event, sessionId, transcriptPath: data.transcript_path ?? data.transcriptPath ?? undefined, cwd: data.cwd };
}

const queuedSessionSchema = z.object({
  sessionId: field,
  transcript: field,
  cwd: field,
  event: field,
  at: field,
});

/** A session queued for the next harvest: its transcript stays where the tool keeps it. */
export type QueuedSession = z.infer<typeof queuedSessionSchema>;

/** A queued entry from disk, or undefined when it is not one. */
export function parseQueuedSession(text: string): QueuedSession | undefined {
  try {
    const result = queuedSessionSchema.safeParse(JSON.parse(text));
    return result.success ? result.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The agent hook events `lore hook` acts on, in two kinds: capture events queue the session for
 * the next harvest (hookCapture.ts), context events answer with the store's knowledge for the
 * agent (hookContext.ts). Which tool sends which is in hookSettings.ts.
 */

/** Events on which a session's transcript is queued or copied for harvest. */
export const CAPTURE_EVENTS: readonly string[] = ['SessionEnd', 'PreCompact', 'Stop'];

/** Events answered with `additionalContext`: the digest, notes of named files, search hits. */
export const CONTEXT_EVENTS: readonly string[] = ['SessionStart', 'UserPromptSubmit'];

/**
 * Events whose input names the files of a tool call: recorded per session (toolFiles.ts) for the
 * topics' glob triggers. Installed with the context hooks, whose prompts they serve.
 */
export const TOOL_EVENTS: readonly string[] = ['PreToolUse', 'PostToolUse'];

/** Which kinds of Lore's hooks to install. */
export type HookKind = 'capture' | 'context';

export const HOOK_KINDS: readonly HookKind[] = ['capture', 'context'];

/** The kind an event belongs to, or undefined for an event Lore ignores. */
export function hookKindOf(event: string): HookKind | undefined {
  if (CAPTURE_EVENTS.includes(event)) return 'capture';
  if (CONTEXT_EVENTS.includes(event) || TOOL_EVENTS.includes(event)) return 'context';
  return undefined;
}

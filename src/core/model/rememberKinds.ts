/**
 * What an agent can ask Lore to remember, and how long it may be: a pure list apart from the
 * writer (rememberItem.ts), so the protocol's schemas can name it without loading a writer.
 */

/** What can be remembered. */
export const REMEMBER_KINDS = ['fact', 'decision', 'question', 'task', 'note'] as const;
export type RememberKind = (typeof REMEMBER_KINDS)[number];

/** Longest statement or note accepted (as the MCP tools bound theirs). */
export const REMEMBER_MAX_CHARS = 2000;

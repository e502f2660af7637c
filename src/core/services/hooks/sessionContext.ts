/**
 * The context hooks' answer within a session (cache-friendly-context): the digest once, at the
 * session's start, where it stays in the agent's cached prefix (the same bytes for the same
 * store, whatever the session was given); each later prompt only what is new and relevant to it
 * (notes of the files it names, items that match it, topics it activates) that the session was
 * not given before, and nothing at all when there is nothing new. What was given is kept per
 * session (sessionGiven.ts). SessionStart after `/clear` or a compaction starts the record over,
 * as the context given before is gone; after a resume it is kept. A session Lore has no record of
 * (hooks installed mid-session, a record lost) gets the digest with its first prompt; a prompt
 * without a session id takes the digest as given at SessionStart and is given the rest.
 */
import { compileHookContext, type HookContextOptions, type HookContextResult } from './hookContext';
import { addSessionGiven, readSessionGiven, startSessionGiven } from './sessionGiven';
import type { StorePaths } from '../../store/storePaths';

/** What a context hook was sent. */
export interface SessionHookRequest {
  event: string;
  prompt?: string;
  cwd: string;
  /** '' or undefined when the agent sent none. */
  sessionId?: string;
  /** SessionStart's source: startup, resume, clear, compact. */
  source?: string;
}

/** The hook's context for a session's event, recording what it gave. A record that cannot be written is logged. */
export function sessionHookContext(paths: StorePaths, request: SessionHookRequest, options: HookContextOptions = {}): HookContextResult {
  const sessionId = request.sessionId || undefined;
  const prompting = request.event === 'UserPromptSubmit';
  // No record: the digest comes with this prompt. No session id: the digest was given at SessionStart, if anything.
  const record = sessionId && prompting ? readSessionGiven(paths, sessionId) : undefined;
  const earlier = !prompting ? undefined : sessionId ? record : 'digest';
  const result = compileHookContext(paths, { event: request.event, prompt: request.prompt, cwd: request.cwd, sessionId, earlier }, options);
  if (!sessionId) return result;
  const keys = result.givenKeys ?? [];
  try {
    if (!prompting) startSessionGiven(paths, sessionId, keys, { keepEarlier: request.source === 'resume' });
    else if (keys.length || record === undefined) addSessionGiven(paths, sessionId, keys);
  } catch (error) {
    options.log?.(
      `what this prompt gave was not recorded: ${(error as NodeJS.ErrnoException).code ?? 'error'}: ${(error as Error).message}`,
    );
  }
  return result;
}

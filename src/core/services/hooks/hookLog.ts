/**
 * Lore's hook log, `<store>/.cache/hook.log`: what `lore hook` could not do. A hook must never
 * write to the agent's output (it would land in the conversation or the agent's UI), so its
 * errors go here. Capped: past LOG_MAX_BYTES the log moves to hook.log.1 (replacing the older
 * one), so at most twice the cap is ever kept.
 */
import * as path from 'node:path';
import type { StorePaths } from '../../store/storePaths';
import { appendLogLine } from '../../store/cappedLog';

/** The hook log of a store. */
export function hookLogFile(paths: StorePaths): string {
  return path.join(paths.cache, 'hook.log');
}

/**
 * Appends one line. Never throws: a log that cannot be written must not turn into an error the
 * agent sees. Paths and ids come from the agent's input, so the line is made printable and
 * redacted like anything else Lore stores (appendLogLine).
 */
export function logHook(paths: StorePaths, message: string, now = new Date()): void {
  appendLogLine(hookLogFile(paths), message, now);
}

/**
 * Why a conversation is left for later as `live`, in words. An agent's session log that changed
 * within the live window is probably still being written: harvesting it now would record half a
 * conversation and, since its bytes keep changing, harvest it again under a new hash later. The
 * CLI, the harvest messages and the Import picker all explain it with these sentences.
 */

/** Agent session logs outside the inbox modified within this window are `live` (runHarvest's default). */
export const DEFAULT_LIVE_WINDOW_MS = 5 * 60_000;

/** `5 minutes`, `1 minute`, `30 seconds`: the live window as a person says it. */
export function durationText(ms: number): string {
  if (ms < 60_000) {
    const seconds = Math.max(1, Math.round(ms / 1000));
    return `${seconds} second${seconds === 1 ? '' : 's'}`;
  }
  const minutes = Math.round(ms / 60_000);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/** The rule for `count` such sessions: what `live` means and when they are harvested. */
export function liveRuleText(windowMs: number, count = 1): string {
  const [it, is, has] = count === 1 ? ['it', 'is', 'has'] : ['them', 'are', 'have'];
  return `an agent may still be writing ${it} (changed in the last ${durationText(windowMs)}); ${count === 1 ? 'it' : 'they'} ${is} harvested by the first harvest after ${count === 1 ? 'it' : 'they'} ${has} been left untouched for ${durationText(windowMs)}`;
}

/** The rule for one file: how long ago it changed and from when it will be harvested. */
export function liveReason(mtimeMs: number, now: number, windowMs: number): string {
  const wait = Math.max(0, mtimeMs + windowMs - now);
  return `changed ${durationText(Math.max(0, now - mtimeMs))} ago, so an agent may still be writing it; the first harvest after ${durationText(wait)} more without a change picks it up`;
}

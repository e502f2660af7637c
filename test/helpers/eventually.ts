/**
 * Polls `check` until it returns a value other than undefined, and fails after `timeoutMs`. How
 * tests wait for what a watcher, a server or another process does: on the condition itself, not
 * for a guessed time (a fixed sleep is too short on a loaded machine and too long on an idle one).
 */
export async function eventually<T>(check: () => Promise<T | undefined> | T | undefined, timeoutMs = 3000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

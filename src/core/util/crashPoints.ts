/**
 * Test hook for crash safety. Every durable step of an apply calls `crashPoint()`; when the
 * environment variable LORE_TEST_CRASH_AFTER=N is set, the process kills itself with SIGKILL
 * at the N-th step, which is how the crash test interrupts a harvest at every point in turn.
 * Without the variable this is a counter increment.
 */
let counter = 0;
const crashAfter = Number(process.env.LORE_TEST_CRASH_AFTER ?? '0');

export function crashPoint(label: string): void {
  counter++;
  if (crashAfter > 0 && counter === crashAfter) {
    if (process.env.LORE_TEST_CRASH_LOG) process.stderr.write(`lore: crash point ${counter} (${label})\n`);
    process.kill(process.pid, 'SIGKILL');
  }
}

/**
 * Test hook for crash safety. Every durable step of an apply calls `crashPoint()`; when the
 * environment variable LORE_TEST_CRASH_AFTER=N is set, the process kills itself with SIGKILL
 * at the N-th step, which is how the crash test interrupts a harvest at every point in turn.
 * Without the variable this is a counter increment.
 */
import * as fs from 'node:fs';

let counter = 0;
const crashAfter = Number(process.env.LORE_TEST_CRASH_AFTER ?? '0');

export function crashPoint(label: string): void {
  counter++;
  if (crashAfter > 0 && counter === crashAfter) {
    if (process.env.LORE_TEST_CRASH_LOG) process.stderr.write(`lore: crash point ${counter} (${label})\n`);
    process.kill(process.pid, 'SIGKILL');
  }
}

/**
 * Test hook for the concurrency stress tests: with LORE_TEST_REPLACE_TRACE=FILE set, each
 * compare-and-replace appends when it checked the version and when its rename was done
 * (CLOCK_MONOTONIC nanoseconds, the same clock in every process), so a test can tell a save
 * renamed into place inside that gap (which POSIX gives no way to detect or prevent: there is no
 * compare-and-swap rename) from a real loss. Without the variable this does nothing. Read at each
 * call, so an in-process test can set it for one test.
 */
export function traceReplace(checkedNs: bigint): void {
  const replaceTrace = process.env.LORE_TEST_REPLACE_TRACE;
  if (replaceTrace) fs.appendFileSync(replaceTrace, `${checkedNs} ${process.hrtime.bigint()}\n`);
}

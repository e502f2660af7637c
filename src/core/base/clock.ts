/**
 * The engine's time: what it reads to tell how long ago a file was modified, and how it waits for
 * a file to hold still (the settle watch of a guarded replace, its retries, the pause before a
 * harvest's late writes are merged, an id looked up again). Those waits are real milliseconds in
 * every process; the engine's unit tests swap in a clock whose waits only move its time forward,
 * so the same decisions are tested without sleeping (test/helpers/engineClock.ts). Nothing but a
 * test changes it.
 */

export interface Clock {
  /** Milliseconds since the epoch, comparable with a file's `mtimeMs`. */
  now(): number;
  /** Blocks the thread for `ms` milliseconds (no-op for ms <= 0). */
  sleepSync(ms: number): void;
}

/** The wall clock, and a wait that blocks the thread (the writes that wait run under the store lock). */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleepSync: (ms) => {
    if (ms > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
  },
};

let current: Clock = systemClock;

/** The clock the engine reads now. */
export function clock(): Clock {
  return current;
}

/** Replaces the engine's clock (tests); returns a function that puts the previous one back. */
export function setClock(next: Clock): () => void {
  const previous = current;
  current = next;
  return () => {
    current = previous;
  };
}

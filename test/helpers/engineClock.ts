/**
 * A mocha root hook for the engine's unit tests (`npm run test:engine`): the engine's waits for a
 * file to hold still (util/clock) move its clock forward instead of blocking. Its time is the wall
 * clock plus every wait skipped, so a file's mtime still compares as it would after the wait (a
 * file saved by the test moments ago is "being edited" until the skipped waits outlast the window)
 * and the same branches run, in microseconds. It also refuses to start processes (git, node) and
 * threads (the engine then does their work itself, as where none can start): a test that needs a
 * real process, thread or wait races a real editor or the OS, and lives in test/process/, which
 * runs without this hook.
 */
import childProcess = require('node:child_process');
import workerThreads = require('node:worker_threads');
import { setClock, systemClock, type Clock } from '../../src/core/base/clock';

/** A clock whose waits return at once and add their length to its time. */
export function skippingClock(): Clock & { skipped: number } {
  const skipping = {
    skipped: 0,
    now: () => systemClock.now() + skipping.skipped,
    sleepSync: (ms: number) => {
      if (ms > 0) skipping.skipped += ms;
    },
  };
  return skipping;
}

/** The ways to start a process; in this group each throws, naming where such a test belongs. */
const STARTERS = ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const;

/** Makes every way of starting a process throw until the returned function puts them back. */
function refuseProcesses(): () => void {
  const mutable = childProcess as unknown as Record<string, unknown>;
  const saved = STARTERS.map((name) => [name, mutable[name]] as const);
  for (const name of STARTERS) {
    mutable[name] = (command: unknown) => {
      throw new Error(
        `the engine's unit tests start no processes (${name} ${String(command)}): a test that needs one belongs in test/process/`,
      );
    };
  }
  const threads = workerThreads as unknown as Record<string, unknown>;
  const Worker = threads.Worker;
  threads.Worker = function refused(script: unknown) {
    throw new Error(`the engine's unit tests start no threads (${String(script)}): a test that needs one belongs in test/process/`);
  };
  return () => {
    for (const [name, original] of saved) mutable[name] = original;
    threads.Worker = Worker;
  };
}

const restores: (() => void)[] = [];

export const mochaHooks = {
  beforeAll(): void {
    restores.push(setClock(skippingClock()), refuseProcesses());
  },
  afterAll(): void {
    for (const restore of restores.splice(0).reverse()) restore();
  },
};

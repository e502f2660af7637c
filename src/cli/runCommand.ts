/**
 * Running one command and turning what it threw into a message and an exit code: the same for
 * the whole CLI (main.ts) and for the bundles that carry one command alone (searchMain.ts).
 */
import { takeConfigNotices } from '../core/store/storeConfig';
import { takeLinkNotices } from '../core/base/storeLinks';
import { describeStoreError } from '../core/store/storeErrors';
import { printable } from '../core/model/format';
import { EXIT_FAILED, EXIT_USAGE, UsageError, envOf, storeInUse, type Output } from './cliSupport';
import type { Command } from './command';

/** Runs `command` (called `name`) with its arguments; what it throws becomes a message on stderr and exit code 1 or 2. */
export async function runCommand(name: string, command: Command, args: string[], io: Output): Promise<number> {
  try {
    const code = await command.run(args, io);
    sayConfigNotices(io);
    return code;
  } catch (error) {
    sayConfigNotices(io);
    const err = error as Error & { code?: string };
    // Messages carry file names, which may hold terminal escape sequences.
    const message = printable(describeStoreError(err, storeInUse(io)) ?? err.message, { keepLineBreaks: true });
    if (error instanceof UsageError || err.code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`lore ${name}: ${message}\nRun "lore ${name} --help" for usage.`);
      return EXIT_USAGE;
    }
    io.err(`lore ${name}: ${message}`);
    if (envOf(io).LORE_DEBUG) io.err(err.stack ?? '');
    return EXIT_FAILED;
  }
}

/**
 * Tells once what a store's config.json asked for and Lore left alone (storeTrust.ts), and each
 * link in the store that Lore did not read because it leads out of the store (storeLinks.ts).
 */
function sayConfigNotices(io: Output): void {
  for (const notice of [...takeConfigNotices(), ...takeLinkNotices()]) io.err(`lore: ${printable(notice)}`);
}

/** Sets the process's exit code from a run's; a run that rejects (a bug) prints its stack and exits 1. */
export function exitWith(run: Promise<number>): void {
  run.then(
    (code) => {
      process.exitCode = code;
    },
    (error) => {
      process.stderr.write(`lore: ${(error as Error).stack ?? error}\n`);
      process.exitCode = EXIT_FAILED;
    },
  );
}

/**
 * `lore`: the command line over Lore's engine. Exit codes: 0 success, 1 something asked for
 * failed (after finishing the rest), 2 usage error.
 */
import { indexLines, type Command } from './command';
import { cacheCommand } from './commands/cacheCommand';
import { contextCommand } from './commands/contextCommand';
import { digestCommand } from './commands/digestCommand';
import { harvestCommand } from './commands/harvestCommand';
import { commitCommand, historyCommand, journalCommand } from './commands/historyCommands';
import { hookCommand } from './commands/hookCommand';
import { hooksCommand } from './commands/hooksCommand';
import { initCommand } from './commands/initCommand';
import { forgetCommand } from './commands/forgetCommand';
import { itemCommand } from './commands/itemCommands';
import { mcpCommand } from './commands/mcpCommand';
import { noteCommand, notesCommand } from './commands/notesCommands';
import { pruneCommand } from './commands/pruneCommand';
import { diffCommand, reconstructCommand } from './commands/reconstructCommand';
import { reviewCommand } from './commands/reviewCommand';
import { searchCommand } from './commands/searchCommand';
import { sourcesCommand } from './commands/sourcesCommand';
import { syncCommand } from './commands/syncCommand';
import { supersedeCommand, tidyCommand } from './commands/tidyCommand';
import { tasksCommand } from './commands/tasksCommand';
import { topicsCommand } from './commands/topicsCommand';
import { trustCommand } from './commands/trustCommand';
import { undoCommand } from './commands/undoCommand';
import { takeConfigNotices } from '../core/store/storeConfig';
import { describeStoreError } from '../core/store/storeErrors';
import { printable } from '../core/model/format';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, UsageError, envOf, stdio, storeInUse, type Output } from './cliSupport';

/** Every command, in the order `lore --help` lists them. */
const COMMANDS: readonly Command[] = [
  initCommand,
  harvestCommand,
  digestCommand,
  notesCommand,
  noteCommand,
  searchCommand,
  mcpCommand,
  contextCommand,
  topicsCommand,
  reviewCommand,
  itemCommand,
  forgetCommand,
  tidyCommand,
  supersedeCommand,
  sourcesCommand,
  syncCommand,
  tasksCommand,
  cacheCommand,
  hooksCommand,
  hookCommand,
  undoCommand,
  trustCommand,
  historyCommand,
  journalCommand,
  commitCommand,
  pruneCommand,
  reconstructCommand,
  diffCommand,
];

const HELP = `lore — durable, provenance-aware knowledge from conversations with AI coding agents

${COMMANDS.flatMap(indexLines).join('\n')}

Every command takes --root DIR (the store; default: the nearest .lore/ upwards, else ./.lore; the
global store ~/.lore only with --global) and --help.`;

/**
 * Runs one command and returns its exit code. `io` carries the output and, for callers that run
 * it in process, the cwd and environment; main itself sets no process-wide state.
 */
export async function main(argv: string[], io: Output = stdio): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.out(HELP);
    return name ? EXIT_OK : EXIT_USAGE;
  }
  if (name === '--version') {
    io.out('0.1.0');
    return EXIT_OK;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    io.err(`lore: unknown command "${printable(name)}"\n\n${HELP}`);
    return EXIT_USAGE;
  }
  // One object per run: what the run resolved (its store) is remembered against it.
  const run: Output = { ...io };
  try {
    const code = await command.run(rest, run);
    sayConfigNotices(io);
    return code;
  } catch (error) {
    sayConfigNotices(io);
    const err = error as Error & { code?: string };
    // Messages carry file names, which may hold terminal escape sequences.
    const message = printable(describeStoreError(err, storeInUse(run)) ?? err.message, { keepLineBreaks: true });
    if (error instanceof UsageError || err.code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`lore ${name}: ${message}\nRun "lore ${name} --help" for usage.`);
      return EXIT_USAGE;
    }
    io.err(`lore ${name}: ${message}`);
    if (envOf(io).LORE_DEBUG) io.err(err.stack ?? '');
    return EXIT_FAILED;
  }
}

/** Tells once what a store's config.json asked for and Lore left alone (storeTrust.ts). */
function sayConfigNotices(io: Output): void {
  for (const notice of takeConfigNotices()) io.err(`lore: ${printable(notice)}`);
}

/** Runs `lore` with the process's arguments and sets its exit code (dist/cli.js calls this). */
export function runCli(): void {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error) => {
      process.stderr.write(`lore: ${(error as Error).stack ?? error}\n`);
      process.exitCode = EXIT_FAILED;
    },
  );
}

// Compiled without bundling (out/src/cli/main.js, which some tests start), this file is the script.
if (require.main === module) runCli();

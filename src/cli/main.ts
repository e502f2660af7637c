/**
 * `lore`: the command line over Lore's engine. Exit codes: 0 success, 1 something asked for
 * failed (after finishing the rest), 2 usage error.
 */
import { cacheCommand, CACHE_HELP } from './commands/cacheCommand';
import { contextCommand, CONTEXT_HELP } from './commands/contextCommand';
import { digestCommand, DIGEST_HELP } from './commands/digestCommand';
import { harvestCommand, HARVEST_HELP } from './commands/harvestCommand';
import { commitCommand, historyCommand, journalCommand, COMMIT_HELP, HISTORY_HELP, JOURNAL_HELP } from './commands/historyCommands';
import { hookCommand, HOOK_HELP } from './commands/hookCommand';
import { hooksCommand, HOOKS_HELP } from './commands/hooksCommand';
import { initCommand, INIT_HELP } from './commands/initCommand';
import { forgetCommand, FORGET_HELP } from './commands/forgetCommand';
import { itemCommand, ITEM_HELP } from './commands/itemCommands';
import { mcpCommand, MCP_HELP } from './commands/mcpCommand';
import { noteCommand, notesCommand, NOTE_HELP, NOTES_HELP } from './commands/notesCommands';
import { pruneCommand, PRUNE_HELP } from './commands/pruneCommand';
import { diffCommand, reconstructCommand, DIFF_HELP, RECONSTRUCT_HELP } from './commands/reconstructCommand';
import { reviewCommand, REVIEW_HELP } from './commands/reviewCommand';
import { searchCommand, SEARCH_HELP } from './commands/searchCommand';
import { sourcesCommand, SOURCES_HELP } from './commands/sourcesCommand';
import { syncCommand, SYNC_HELP } from './commands/syncCommand';
import { supersedeCommand, tidyCommand, SUPERSEDE_HELP, TIDY_HELP } from './commands/tidyCommand';
import { tasksCommand, TASKS_HELP } from './commands/tasksCommand';
import { topicsCommand, TOPICS_HELP } from './commands/topicsCommand';
import { trustCommand, TRUST_HELP } from './commands/trustCommand';
import { undoCommand, UNDO_HELP } from './commands/undoCommand';
import { takeConfigNotices } from '../core/store/storeConfig';
import { describeStoreError } from '../core/store/storeErrors';
import { printable } from '../core/model/format';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, UsageError, envOf, stdio, storeInUse, type Output } from './cliSupport';

type Command = (argv: string[], io: Output) => Promise<number>;

const COMMANDS: Record<string, Command> = {
  init: initCommand,
  harvest: harvestCommand,
  digest: digestCommand,
  notes: notesCommand,
  note: noteCommand,
  search: searchCommand,
  mcp: mcpCommand,
  context: contextCommand,
  topics: topicsCommand,
  review: reviewCommand,
  item: itemCommand,
  forget: forgetCommand,
  tidy: tidyCommand,
  supersede: supersedeCommand,
  sources: sourcesCommand,
  sync: syncCommand,
  tasks: tasksCommand,
  cache: cacheCommand,
  hook: hookCommand,
  hooks: hooksCommand,
  undo: undoCommand,
  trust: trustCommand,
  history: historyCommand,
  journal: journalCommand,
  commit: commitCommand,
  prune: pruneCommand,
  reconstruct: reconstructCommand,
  diff: diffCommand,
};

const HELP = `lore — durable, provenance-aware knowledge from conversations with AI coding agents

${INIT_HELP.split('\n')[0]}
${HARVEST_HELP.split('\n').slice(0, 3).join('\n')}
${DIGEST_HELP.split('\n')[0]}
${NOTES_HELP}
${NOTE_HELP}
${SEARCH_HELP.split('\n')[0]}
${MCP_HELP.split('\n')[0]}
${CONTEXT_HELP.split('\n')[0]}
${TOPICS_HELP.split('\n')[0]}
${REVIEW_HELP.split('\n').slice(0, 4).join('\n')}
${ITEM_HELP}
${FORGET_HELP}
${TIDY_HELP.split('\n')[0]}
${SUPERSEDE_HELP}
${SOURCES_HELP.split('\n')[0]}
${SYNC_HELP.split('\n')[0]}
${TASKS_HELP.split('\n')[0]}
${CACHE_HELP.split('\n')[0]}
${HOOKS_HELP.split('\n').slice(0, 2).join('\n')}
${HOOK_HELP.split('\n')[0]}
${UNDO_HELP.split('\n')[0]}
${TRUST_HELP.split('\n')[0]}
${HISTORY_HELP}
${JOURNAL_HELP.split('\n')[0]}
${COMMIT_HELP}
${PRUNE_HELP.split('\n')[0]}
${RECONSTRUCT_HELP.split('\n')[0]}
${DIFF_HELP.split('\n')[0]}

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
  const command = COMMANDS[name];
  if (!command) {
    io.err(`lore: unknown command "${printable(name)}"\n\n${HELP}`);
    return EXIT_USAGE;
  }
  // One object per run: what the run resolved (its store) is remembered against it.
  const run: Output = { ...io };
  try {
    const code = await command(rest, run);
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

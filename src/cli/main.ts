/**
 * `lore`: the command line over Lore's engine. Exit codes: 0 success, 1 something asked for
 * failed (after finishing the rest), 2 usage error.
 */
import { printable } from '../core/model/format';
import { lazy } from '../core/base/lazy';
import { EXIT_OK, EXIT_USAGE, stdio, type Output } from './cliSupport';
import { indexLines, type Command } from './command';
import { exitWith, runCommand } from './runCommand';
import { LORE_VERSION, asksForUsage, usageExitCode } from './topLevel';
import type { StorePaths } from '../core/store/storePaths';

// Each command's module (and the engine it brings: zod, SQLite, the importers) loads when that
// command runs: `lore --version` or `lore hook` pays for none of the others.
const cacheCommandModule = lazy(() => require('./commands/cacheCommand') as typeof import('./commands/cacheCommand'));
const contextCommandModule = lazy(() => require('./commands/contextCommand') as typeof import('./commands/contextCommand'));
const digestCommandModule = lazy(() => require('./commands/digestCommand') as typeof import('./commands/digestCommand'));
const harvestCommandModule = lazy(() => require('./commands/harvestCommand') as typeof import('./commands/harvestCommand'));
const historyCommandsModule = lazy(() => require('./commands/historyCommands') as typeof import('./commands/historyCommands'));
const hookCommandModule = lazy(() => require('./commands/hookCommand') as typeof import('./commands/hookCommand'));
const hooksCommandModule = lazy(() => require('./commands/hooksCommand') as typeof import('./commands/hooksCommand'));
const initCommandModule = lazy(() => require('./commands/initCommand') as typeof import('./commands/initCommand'));
const forgetCommandModule = lazy(() => require('./commands/forgetCommand') as typeof import('./commands/forgetCommand'));
const itemCommandsModule = lazy(() => require('./commands/itemCommands') as typeof import('./commands/itemCommands'));
const mergeCommandsModule = lazy(() => require('./commands/mergeCommands') as typeof import('./commands/mergeCommands'));
const mcpCommandModule = lazy(() => require('./commands/mcpCommand') as typeof import('./commands/mcpCommand'));
const notesCommandsModule = lazy(() => require('./commands/notesCommands') as typeof import('./commands/notesCommands'));
const pruneCommandModule = lazy(() => require('./commands/pruneCommand') as typeof import('./commands/pruneCommand'));
const reconstructCommandModule = lazy(() => require('./commands/reconstructCommand') as typeof import('./commands/reconstructCommand'));
const reviewCommandModule = lazy(() => require('./commands/reviewCommand') as typeof import('./commands/reviewCommand'));
const searchCommandModule = lazy(() => require('./commands/searchCommand') as typeof import('./commands/searchCommand'));
const costCommandModule = lazy(() => require('./commands/costCommand') as typeof import('./commands/costCommand'));
const sourcesCommandModule = lazy(() => require('./commands/sourcesCommand') as typeof import('./commands/sourcesCommand'));
const syncCommandModule = lazy(() => require('./commands/syncCommand') as typeof import('./commands/syncCommand'));
const tidyCommandModule = lazy(() => require('./commands/tidyCommand') as typeof import('./commands/tidyCommand'));
const tasksCommandModule = lazy(() => require('./commands/tasksCommand') as typeof import('./commands/tasksCommand'));
const topicsCommandModule = lazy(() => require('./commands/topicsCommand') as typeof import('./commands/topicsCommand'));
const trustCommandModule = lazy(() => require('./commands/trustCommand') as typeof import('./commands/trustCommand'));
const undoCommandModule = lazy(() => require('./commands/undoCommand') as typeof import('./commands/undoCommand'));

const mergeDriverModule = lazy(() => require('../core/store/merge/mergeDriver') as typeof import('../core/store/merge/mergeDriver'));
const reconcileModule = lazy(() => require('../core/store/merge/reconcileMerge') as typeof import('../core/store/merge/reconcileMerge'));

/**
 * The commands that write the store: after a git merge Lore's driver took part in, they first
 * bring the store in step with it (store/merge/reconcileMerge.ts: a teammate's forget applied,
 * duplicates folded, the digest regenerated). Reading commands never do, so they change no file.
 */
const WRITERS: ReadonlySet<string> = new Set([
  'harvest',
  'forget',
  'tidy',
  'supersede',
  'item',
  'note',
  'review',
  'undo',
  'prune',
  'digest',
  'commit',
]);

/** What a writer runs on its store first (see WRITERS): a reconcile, when a merge left its mark. */
async function reconcileFirst(paths: StorePaths): Promise<void> {
  if (mergeDriverModule().mergePending(paths)) await reconcileModule().reconcileIfMerged(paths);
}

/** Every command by name, in the order `lore --help` lists them; a declaration loads with its module. */
const COMMANDS: Record<string, () => Command> = {
  init: () => initCommandModule().initCommand,
  harvest: () => harvestCommandModule().harvestCommand,
  digest: () => digestCommandModule().digestCommand,
  notes: () => notesCommandsModule().notesCommand,
  note: () => notesCommandsModule().noteCommand,
  search: () => searchCommandModule().searchCommand,
  mcp: () => mcpCommandModule().mcpCommand,
  context: () => contextCommandModule().contextCommand,
  topics: () => topicsCommandModule().topicsCommand,
  review: () => reviewCommandModule().reviewCommand,
  item: () => itemCommandsModule().itemCommand,
  move: () => itemCommandsModule().moveCommand,
  forget: () => forgetCommandModule().forgetCommand,
  tidy: () => tidyCommandModule().tidyCommand,
  supersede: () => tidyCommandModule().supersedeCommand,
  sources: () => sourcesCommandModule().sourcesCommand,
  sync: () => syncCommandModule().syncCommand,
  tasks: () => tasksCommandModule().tasksCommand,
  cache: () => cacheCommandModule().cacheCommand,
  cost: () => costCommandModule().costCommand,
  hooks: () => hooksCommandModule().hooksCommand,
  hook: () => hookCommandModule().hookCommand,
  undo: () => undoCommandModule().undoCommand,
  trust: () => trustCommandModule().trustCommand,
  history: () => historyCommandsModule().historyCommand,
  journal: () => historyCommandsModule().journalCommand,
  commit: () => historyCommandsModule().commitCommand,
  prune: () => pruneCommandModule().pruneCommand,
  reconstruct: () => reconstructCommandModule().reconstructCommand,
  diff: () => reconstructCommandModule().diffCommand,
  reconcile: () => mergeCommandsModule().reconcileCommand,
  'merge-driver': () => mergeCommandsModule().mergeDriverCommand,
};

/**
 * The usage of every command, from their declarations; it loads every command's module, so only a
 * mistyped command builds it at run time (dist/cli.js prints the one esbuild.mjs rendered with it).
 */
export const usage = () => `lore — durable, provenance-aware knowledge from conversations with AI coding agents

${Object.values(COMMANDS)
  .flatMap((load) => indexLines(load()))
  .join('\n')}

Every command takes --root DIR (the store; default: the nearest .lore/ upwards, else ./.lore; the
global store ~/.lore only with --global) and --help.`;

/**
 * Runs one command and returns its exit code. `io` carries the output and, for callers that run
 * it in process, the cwd and environment; main itself sets no process-wide state.
 */
export async function main(argv: string[], io: Output = stdio): Promise<number> {
  const [name, ...rest] = argv;
  if (asksForUsage(name)) {
    io.out(usage());
    return usageExitCode(name);
  }
  if (name === '--version') {
    io.out(LORE_VERSION);
    return EXIT_OK;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name]() : undefined;
  if (!command) {
    io.err(`lore: unknown command "${printable(name)}"\n\n${usage()}`);
    return EXIT_USAGE;
  }
  // One object per run: what the run resolved (its store) is remembered against it.
  const run: Output = { ...io, ...(WRITERS.has(name) ? { beforeWrite: reconcileFirst } : {}) };
  return runCommand(name, command, rest, run);
}

/** Runs `lore` with the process's arguments and sets its exit code (dist/cli.js calls this). */
export function runCli(): void {
  exitWith(main(process.argv.slice(2)));
}

// Compiled without bundling (out/src/cli/main.js, which some tests start), this file is the script.
if (require.main === module) runCli();

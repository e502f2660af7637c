/**
 * `lore init`: creates the store layout, category files and the editable prompts; in a git
 * repository (a teammate's clone) it also registers Lore's merge driver in the clone's own git
 * config and reconciles after a merge that is waiting for it (store/merge/).
 */
import { nodeRunner } from '../../core/base/nodeRunner';
import { mergeDriverCommand, registerMergeDriver, type DriverRegistration } from '../../core/store/merge/mergeDriver';
import { reconcileIfMerged } from '../../core/store/merge/reconcileMerge';
import { defaultPromptsDir } from '../../core/services/harvest/prompts';
import { initStore } from '../../core/store/initStore';
import { GitMissingError } from '../../core/store/history/git';
import { initHistory, type InitHistoryResult } from '../../core/store/history/initHistory';
import { command, type Parsed } from '../command';
import { reconcileText } from './mergeCommands';
import { EXIT_FAILED, EXIT_OK, loreCliScript, type Output } from '../cliSupport';

export const initCommand = command({
  name: 'init',
  usage: ['[--root DIR | --global] [--git]'],
  description: `Creates the knowledge store (default ./.lore): category files, files/, inbox/, prompts/, a
.gitignore for derived and private parts and a .gitattributes. Existing files are left untouched.
In a git repository (run it once in every clone of a team's repository) it registers Lore's merge
driver in this clone's own git config, so a pull merges the store's files by meaning.`,
  options: {
    git: {
      type: 'boolean',
      help: `keep the store's history in git: a store outside any repository gets its own (Lore then
commits after each apply); inside the workspace's repository config.json gets
"git": {"commit": "apply"}. Lore commits only the store's paths, never your other changes.`,
    },
  },
  takes: { positionals: false },
  run: init,
});

async function init(parsed: Parsed<{ git: { type: 'boolean' } }>, io: Output): Promise<number> {
  const { values, paths } = parsed;
  const created = initStore(paths, defaultPromptsDir());
  let history: InitHistoryResult | undefined;
  if (values.git) {
    try {
      history = await initHistory(paths);
    } catch (error) {
      io.err(
        `lore: ${error instanceof GitMissingError ? 'git is not installed; the store was created without history' : (error as Error).message}`,
      );
      return EXIT_FAILED;
    }
  }
  const node = nodeRunner();
  let driver: DriverRegistration | undefined;
  try {
    driver = await registerMergeDriver(paths, mergeDriverCommand(node.command, loreCliScript(), node.env));
  } catch (error) {
    io.err(`lore: the merge driver was not registered: ${(error as Error).message}`);
  }
  const reconciled = await reconcileIfMerged(paths);
  if (values.json)
    io.out(
      JSON.stringify(
        {
          store: paths.root,
          created,
          ...(history ? { git: history } : {}),
          ...(driver ? { mergeDriver: { changed: driver.changed } } : {}),
          ...(reconciled ? { reconciled } : {}),
        },
        null,
        2,
      ),
    );
  else {
    io.out(created.length ? `initialized ${paths.root} (${created.length} new files and folders)` : `${paths.root} already initialized`);
    if (history) io.out(initHistoryText(history));
    if (driver) io.out(driver.changed.length ? "merge driver: registered in this clone's git config" : 'merge driver: registered');
    if (reconciled) io.out(reconcileText(reconciled));
  }
  return EXIT_OK;
}

function initHistoryText(result: InitHistoryResult): string {
  const where = result.created
    ? `a new git repository in ${result.repo.top}`
    : `the git repository ${result.repo.top} (store in ${result.repo.storeRel})`;
  const lines = [`history: ${where}${result.configured ? '; config.json now says "git": {"commit": "apply"}' : ''}`];
  if (result.commit.status === 'committed')
    lines.push(`committed ${result.commit.commit.slice(0, 12)} (${result.commit.files.length} files)`);
  else if (result.commit.status === 'deferred') lines.push(`not committed yet: ${result.commit.reason}`);
  return lines.join('\n');
}

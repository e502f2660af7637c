/** `lore init`: creates the store layout, category files and the editable prompts. */
import { defaultPromptsDir } from '../../core/services/harvest/prompts';
import { initStore } from '../../core/store/initStore';
import { GitMissingError } from '../../core/store/history/git';
import { initHistory, type InitHistoryResult } from '../../core/store/history/initHistory';
import { command, type Parsed } from '../command';
import { EXIT_FAILED, EXIT_OK, type Output } from '../cliSupport';

export const initCommand = command({
  name: 'init',
  usage: ['[--root DIR | --global] [--git]'],
  description: `Creates the knowledge store (default ./.lore): category files, files/, inbox/, prompts/ and a
.gitignore for derived and private parts. Existing files are left untouched.`,
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
  if (values.json) io.out(JSON.stringify({ store: paths.root, created, ...(history ? { git: history } : {}) }, null, 2));
  else {
    io.out(created.length ? `initialized ${paths.root} (${created.length} new files and folders)` : `${paths.root} already initialized`);
    if (history) io.out(initHistoryText(history));
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

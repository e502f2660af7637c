import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * Trust records (storeTrust.ts) of every test run go to a folder of the run's own, never the
 * person's configuration folder; child processes inherit it.
 */
process.env.LORE_CONFIG_HOME = fs.mkdtempSync(path.join(os.tmpdir(), 'lore-config-home-'));

/** Repository root (tests run compiled from out/test/...). */
export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
export const FIXTURES = path.join(REPO_ROOT, 'test', 'fixtures');
export const CORPUS = path.join(FIXTURES, 'corpus');
export const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
/** The CLI bundle that dist/cli.js (the executable, which turns on the compile cache) loads. */
export const CLI_BUNDLE = path.join(REPO_ROOT, 'dist', 'cliMain.js');
/** The bundle dist/cli.js loads for `lore hook` instead of the CLI bundle. */
export const HOOK_BUNDLE = path.join(REPO_ROOT, 'dist', 'hook.js');

/** A fresh temporary directory, removed after the current mocha suite when `cleanup` is called. */
export function makeTempDir(prefix = 'lore-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

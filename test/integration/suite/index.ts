/**
 * The extensionTestsPath module: VS Code's extension host calls `run()` after the extension
 * under development is loaded. It runs every `*.itest.js` next to this file with mocha and
 * rejects when a test fails, which makes the workbench report a non-zero exit code.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { format } from 'node:util';

// mocha 12 is an ES module, which the extension host loads with require(): Node 24 (VS Code 1.139)
// returns the class itself, Node 22 (VS Code 1.103, the oldest we test) the module namespace.
const loaded = require('mocha') as typeof import('mocha') & { default?: typeof import('mocha') };
const Mocha: typeof import('mocha') = loaded.default ?? loaded;

/**
 * Marks the reporter's lines: the extension host's console reaches the browser console mixed
 * with the workbench's own logging, and runIntegration.mjs prints only the marked lines.
 */
export const REPORT_MARK = '[lore-itest] ';

/**
 * The suites that run only in a window of their own: with no folder open (runIntegration.mjs
 * --no-folder), and a newcomer's project with no store (--first-run). Every other suite runs in the
 * fixture workspace.
 */
const OWN_WINDOW_SUITES: Record<string, string> = {
  LORE_ITEST_NO_FOLDER: 'noFolder.itest.js',
  LORE_ITEST_FIRST_RUN: 'firstRunPath.itest.js',
};

export async function run(): Promise<void> {
  Mocha.reporters.Base.consoleLog = (...args: unknown[]) => console.log(REPORT_MARK + format(...args));
  const mocha = new Mocha({
    ui: 'bdd',
    color: process.env.LORE_ITEST_COLOR === '1',
    timeout: Number(process.env.LORE_ITEST_TIMEOUT) || 30_000,
    // LORE_ITEST_GREP narrows the run, e.g. LORE_ITEST_GREP=harvest npm run test:integration.
    grep: process.env.LORE_ITEST_GREP || undefined,
  });
  const own = Object.entries(OWN_WINDOW_SUITES).find(([variable]) => process.env[variable] === '1')?.[1];
  const files = fs
    .readdirSync(__dirname)
    .filter((f) => f.endsWith('.itest.js') && (own ? f === own : !Object.values(OWN_WINDOW_SUITES).includes(f)))
    .sort();
  for (const f of files) mocha.addFile(path.join(__dirname, f));
  try {
    await mocha.loadFilesAsync();
  } catch (err) {
    // A test file that fails to load (a bad import, a throw at top level) would otherwise only
    // surface as a non-zero exit code.
    console.log(REPORT_MARK + `could not load the integration tests: ${err instanceof Error ? err.stack : String(err)}`);
    throw err;
  }
  const failures = await new Promise<number>((resolve) => mocha.run(resolve));
  if (failures > 0) throw new Error(`${failures} integration test(s) failed`);
}

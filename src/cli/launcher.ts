/**
 * dist/cli.js: the `lore` executable. It first checks that this Node is one Lore runs on
 * (nodeVersion.ts: an older one gets a message saying what to install, before any work), then
 * turns on Node's on-disk compile cache, then loads the CLI bundle (dist/cliMain.js) and runs it.
 * Agent hooks start `lore hook` before every prompt, and
 * parsing the 1.6 MB bundle was the largest share of each start (about 30 ms of 140 ms, measured
 * with `npm run bench -- hook`); the cache (Node's own, under the system temp folder, keyed by
 * the file's contents) makes later starts skip it. The cache only holds compiled code of Lore's
 * own bundle, never store content. Node without enableCompileCache simply runs uncached.
 * `lore hook` loads dist/hook.js instead (src/cli/hookMain.ts): the hook command alone, a sixth
 * of the CLI bundle, with zod and gray-matter left to dist/vendor/ until something needs them;
 * `lore search` likewise loads dist/search.js (src/cli/searchMain.ts).
 * `lore --version` and `lore --help` load no bundle at all (topLevel.ts).
 */
import * as nodeModule from 'node:module';
import { nodeVersionProblem, refusal } from './nodeVersion';
import { LORE_VERSION, asksForUsage, usageExitCode } from './topLevel';

/** package.json's engines.node, written in by esbuild.mjs (`define`). */
declare const LORE_NODE_ENGINES: string;
/** `lore --help`, rendered by esbuild.mjs from every command's declaration (main.ts's usage()); empty in a watch build. */
declare const LORE_USAGE: string;

/** The commands that have a bundle of their own (esbuild.mjs), each a fraction of dist/cliMain.js. */
const SMALL_BUNDLES: Record<string, string> = { hook: './hook.js', search: './search.js' };

/** How long a refused hook drains its input before exiting (the agent writes it, then closes stdin). */
const HOOK_DRAIN_MS = 2000;

const command = process.argv[2];
const problem = nodeVersionProblem(process.versions.node, LORE_NODE_ENGINES, process.execPath);
if (problem) {
  const { stderr, exitCode } = refusal(command, problem);
  process.stderr.write(stderr);
  process.exitCode = exitCode;
  if (command === 'hook' && !process.stdin.isTTY) {
    // Read the agent's input to its end, so its write never meets a closed pipe.
    process.stdin.on('error', () => undefined).resume();
    setTimeout(() => process.stdin.destroy(), HOOK_DRAIN_MS).unref();
  }
} else if (command === '--version') {
  // Answered here, as the usage below: loading the CLI bundle for them would cost more than Node's own start.
  process.stdout.write(`${LORE_VERSION}\n`);
} else if (asksForUsage(command) && LORE_USAGE) {
  process.stdout.write(`${LORE_USAGE}\n`);
  process.exitCode = usageExitCode(command);
} else {
  try {
    (nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
  } catch {
    // A cache folder that cannot be written costs speed only.
  }

  // Required after the cache is on, so the bundle is compiled through it. `lore hook` (run before
  // every prompt) and `lore search` load their own small bundles, dist/hook.js and dist/search.js,
  // rather than the whole CLI.
  const bundle = command && Object.hasOwn(SMALL_BUNDLES, command) ? SMALL_BUNDLES[command] : './cliMain.js';
  // eslint-disable-next-line no-restricted-syntax -- a bundle beside this one, chosen at run time, not bundled into it
  const { runCli } = require(bundle) as typeof import('./main');
  runCli();
}

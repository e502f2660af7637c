// Runs the integration suite (out/integration/.../suite/index.js) inside a real VS Code:
// code-server (4.139.1, or LORE_CODE_SERVER_VERSION) in a fresh sandbox, Lore loaded as the extension under development
// through the workbench's `payload` URL parameter, driven by Chromium via playwright-core.
// Exits with the test run's exit code. `npm run test:integration` builds everything first.
//
//   node test/integration/runIntegration.mjs [--screenshot FILE] [--keep] [--timeout SECONDS] [--verbose]
//
// --screenshot FILE  where to save a screenshot of the workbench on failure (default: D/failure.png)
// --keep             keep the sandbox folder D even when the run passes
// --verbose          forward the whole browser console, not only the extension host's output
// --no-folder        open an empty window (no folder) and run only the no-folder suite (noFolder.itest.js),
//                    with HOME inside the sandbox so the global store ~/.lore is the sandbox's
// --first-run        open a project with no store on a newcomer's machine (firstRunMachine.mjs: real Claude Code
//                    and Codex sessions under a HOME inside the sandbox) and run only firstRunPath.itest.js
// Environment: LORE_ITEST_GREP (mocha --grep inside the suite), LORE_ITEST_TIMEOUT (per test, ms).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import {
  CODE_SERVER_VERSION,
  ROOT,
  copyWorkspace,
  findFiles,
  launchBrowser,
  stopServerOnExit,
  makeSandbox,
  remoteUri,
  startCodeServer,
  tailFile,
  vscodeVersion,
  workbenchUrl,
} from '../../scripts/codeServer.mjs';
import { prepareFirstRunMachine } from './firstRunMachine.mjs';

const { values: opts } = parseArgs({
  options: {
    screenshot: { type: 'string' },
    keep: { type: 'boolean', default: false },
    timeout: { type: 'string', default: process.env.LORE_ITEST_RUN_TIMEOUT || '300' },
    verbose: { type: 'boolean', default: false },
    'no-folder': { type: 'boolean', default: false },
    'first-run': { type: 'boolean', default: false },
  },
});
const noFolder = opts['no-folder'];
const firstRun = opts['first-run'];

const SUITE = path.join(ROOT, 'out', 'integration', 'test', 'integration', 'suite', 'index.js');
const FIXTURE = path.join(ROOT, 'test', 'integration', 'fixtures', 'workspace');
const timeoutMs = Number(opts.timeout) * 1000;

if (!fs.existsSync(SUITE)) {
  console.error(`lore: ${SUITE} is missing; compile the suite first (npm run compile-integration)`);
  process.exit(2);
}
if (!fs.existsSync(path.join(ROOT, 'dist', 'extension.js'))) {
  console.error('lore: dist/extension.js is missing; build first (npm run build)');
  process.exit(2);
}

const started = Date.now();
// Read by suite/index.ts in the extension host, which inherits code-server's environment.
if (process.stdout.isTTY && !process.env.NO_COLOR) process.env.LORE_ITEST_COLOR = '1';
const sandbox = makeSandbox('lore-it-');
let ws = noFolder || firstRun ? undefined : copyWorkspace(FIXTURE, path.join(sandbox.dir, 'ws'));
if (firstRun) {
  // Read by suite/index.ts (which suite to run); HOME and the agents' folders are the sandbox's.
  sandbox.env.LORE_ITEST_FIRST_RUN = '1';
  ws = prepareFirstRunMachine(sandbox).workspace;
}
if (noFolder) {
  // Read by suite/index.ts (which suite to run); the global store lives under this HOME.
  sandbox.env.LORE_ITEST_NO_FOLDER = '1';
  sandbox.env.HOME = path.join(sandbox.dir, 'home');
  fs.mkdirSync(sandbox.env.HOME, { recursive: true });
}
let server;
let context;
let page;
stopServerOnExit(
  () => server,
  (sig) => console.error(`lore: ${sig}, stopping`),
);

/** Prints what helps diagnose a failed run: the server's and the extension host's last lines. */
function printDiagnostics() {
  console.error(`\n--- code-server (last lines; full log: ${path.join(sandbox.dir, 'code-server.log')}) ---`);
  console.error(server ? server.log.tail(40) : tailFile(path.join(sandbox.dir, 'code-server.log'), 40));
  for (const f of findFiles(path.join(sandbox.userData, 'logs'), /(exthost[^/]*\.log|Lore\.log)$/)) {
    console.error(`--- ${path.relative(sandbox.dir, f)} (last lines) ---`);
    console.error(tailFile(f, 30));
  }
}

const elapsed = () => `[+${((Date.now() - started) / 1000).toFixed(1)}s]`;
/** Progress lines for --verbose. */
const step = (what) => opts.verbose && console.log(`${elapsed()} lore: ${what}`);

/** The reporter's lines carry this mark (see suite/index.ts); the rest is workbench logging. */
const REPORT_MARK = '[lore-itest] ';

let exitCode = 1;
try {
  server = await startCodeServer(sandbox);
  console.log(
    `lore: code-server ${CODE_SERVER_VERSION} (VS Code ${vscodeVersion()}) at ${server.url} (sandbox ${sandbox.dir}), started in ${Date.now() - started} ms`,
  );

  context = await launchBrowser(sandbox);
  step('browser launched');
  page = context.pages()[0] ?? (await context.newPage());
  let finish;
  const result = new Promise((resolve) => {
    finish = resolve;
    page.on('crash', () => resolve({ error: 'the workbench page crashed' }));
    server.exited.then(({ code, signal }) => resolve({ error: `code-server exited (${signal ?? code}) during the run` }));
    setTimeout(() => resolve({ error: `timed out after ${opts.timeout} s` }), timeoutMs).unref();
  });
  page.on('console', (msg) => {
    const text = msg.text();
    const at = text.indexOf(REPORT_MARK);
    if (at >= 0) console.log(text.slice(at + REPORT_MARK.length));
    else if (opts.verbose) console.log(`${elapsed()} [browser ${msg.type()}] ${text}`);
  });
  page.on('pageerror', (err) => opts.verbose && console.log(`[page error] ${err.message}`));
  // The workbench calls window.codeAutomationExit(code) when the test run ends.
  await page.exposeFunction('codeAutomationExit', (code) => finish(Number.isInteger(code) ? { code } : { error: `exit code ${code}` }));

  const url = workbenchUrl(server.url, ws, [
    ['extensionDevelopmentPath', remoteUri(server.url, ROOT)],
    ['extensionTestsPath', remoteUri(server.url, SUITE)],
  ]);
  await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 120_000 });
  step('workbench loaded');
  const outcome = await result;
  step(`tests finished: ${JSON.stringify(outcome)}`);
  if (outcome.error) {
    console.error(`lore: integration run failed: ${outcome.error}`);
    exitCode = 1;
  } else {
    exitCode = outcome.code;
  }
} catch (err) {
  console.error(`lore: integration run failed: ${err?.stack ?? err}`);
  exitCode = 1;
}

if (exitCode !== 0) {
  if (page) {
    const shot = path.resolve(opts.screenshot ?? path.join(sandbox.dir, 'failure.png'));
    try {
      await page.screenshot({ path: shot, timeout: 10_000 });
      console.error(`lore: screenshot of the workbench: ${shot}`);
    } catch (err) {
      console.error(`lore: no screenshot (${err.message})`);
    }
  }
  printDiagnostics();
}
await Promise.race([context?.close().catch(() => {}), new Promise((r) => setTimeout(r, 5000))]);
step('browser closed');
if (server) await server.stop();
step('code-server stopped');
if (exitCode === 0 && !opts.keep) {
  fs.rmSync(sandbox.dir, { recursive: true, force: true });
} else {
  console.error(`lore: sandbox kept for inspection: ${sandbox.dir}`);
}
console.log(
  `lore: integration tests${noFolder ? ' (no folder)' : firstRun ? ' (first run)' : ''} on VS Code ${vscodeVersion()} ${exitCode === 0 ? 'passed' : `failed (exit code ${exitCode})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
process.exit(exitCode);

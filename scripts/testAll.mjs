// `npm test`: builds, then runs the test groups one after the other and ends with how long each
// took and how many tests passed, so a maintainer sees where the time goes:
//   engine       mocha on out/test/core: the engine in this process, no child process, no real
//                wait (a skipping clock, test/helpers/engineClock.ts); `npm run test:engine`
//   unit         mocha on the language server, MCP, lint and manifest tests, and test/process
//                (real processes, threads, file watchers and waits, and the CPU-heavy cases)
//   CLI          mocha on out/test/cli (mostly `main(argv, io)` in process; a few real processes)
//   integration  the extension in real VS Codes (scripts/testIntegration.sh: newest and oldest)
// Engine, unit and CLI run side by side (three mocha processes; much of the unit and CLI time is
// spent waiting on child processes and timers, so on 2 CPUs they take about the time of the
// longest), each one's output printed whole when it ends. A failing group does not stop the others (the
// summary says which failed); a failing build does.
// On a fresh machine the integration stage needs two code-servers (about 600 MB each): they install
// in the background from the start (see installCodeServers), so the first tests start after the
// build, not after the downloads.
// Run through scripts/withNode24.sh (the npm script does). Plain ESM: runs before any compile.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const scripts = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts ?? {};

/** `npm run NAME`, for the stages that are npm scripts; lint only where the project has one. */
const npmRun = (name) => ['npm', ['run', '--silent', name]];
const STAGES = [
  { name: 'build', group: 'build', command: npmRun('build'), fatal: true },
  { name: 'compile', group: 'build', command: npmRun('compile-tests'), fatal: true },
  ...(scripts.lint ? [{ name: 'lint', group: 'lint', command: npmRun('lint') }] : []),
  ...(scripts['format:check'] ? [{ name: 'format', group: 'lint', command: npmRun('format:check') }] : []),
  { name: 'engine', group: 'engine', command: npmRun('test:engine'), together: 'mocha' },
  { name: 'unit', group: 'unit', command: npmRun('test:unit'), together: 'mocha' },
  { name: 'CLI', group: 'CLI', command: npmRun('test:cli'), together: 'mocha' },
  { name: 'integration', group: 'integration', command: npmRun('test:integration'), needsCodeServers: true },
];

/** Counts from the lines a stage printed: mocha's "N passing" / "N failing" summaries. */
function countTests(text) {
  const sum = (re) => [...text.matchAll(re)].reduce((n, m) => n + Number(m[1]), 0);
  return { passed: sum(/^\s*(\d+) passing\b/gm), failed: sum(/^\s*(\d+) failing\b/gm), failures: failureReport(text) };
}

/**
 * Mocha's failure report (from its "N failing" line on), cut to a few KB: printed again at the very
 * end, so a log that keeps only its tail (as CI's does) still names the test that failed and why.
 */
function failureReport(text) {
  const at = text.search(/^\s*\d+ failing\b/m);
  if (at < 0) return '';
  // eslint-disable-next-line no-control-regex
  const plain = text.slice(at).replace(/\u001b\[[0-9;]*m/g, '');
  return plain.length > 6000 ? `${plain.slice(0, 6000)}\n  … (cut; the whole report is above)\n` : plain;
}

/** Runs one stage; `buffered` keeps its output until it ends (for stages that run side by side). */
function run(stage, buffered = false) {
  const [command, args] = stage.command;
  const started = process.hrtime.bigint();
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    let held = '';
    child.stdout.on('data', (d) => {
      if (buffered) held += d;
      else process.stdout.write(d);
      text += d;
    });
    child.stderr.on('data', (d) => (buffered ? (held += d) : process.stderr.write(d)));
    child.on('close', (code, signal) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      if (buffered) process.stdout.write(`\nlore: npm test: ${stage.name} (${seconds.toFixed(1)} s):\n${held}`);
      resolve({ ...stage, code: code ?? 1, signal, seconds, ...countTests(text) });
    });
    child.on('error', (err) => {
      process.stderr.write(`lore: cannot run ${command}: ${err.message}\n`);
      resolve({ ...stage, code: 1, seconds: 0, passed: 0, failed: 0, failures: '' });
    });
  });
}

const SETUP_LOG = path.join(ROOT, '.vscode-test', 'setup.log');
const since = (t) => Number(process.hrtime.bigint() - t) / 1e9;

/**
 * Starts installing what the integration stage needs (testIntegration.sh --install-only: each
 * code-server and Chromium, bounded and retried by installStep.sh; nothing when they are in
 * place) in the background, at low priority so the tests running meanwhile keep the CPUs. Its
 * output goes to .vscode-test/setup.log. Stopped if this run ends or is stopped first.
 */
function installCodeServers() {
  fs.mkdirSync(path.dirname(SETUP_LOG), { recursive: true });
  const log = fs.openSync(SETUP_LOG, 'w');
  // Its own process group, so the whole install (npm and its scripts) can be stopped at once.
  const child = spawn('nice', ['-n', '10', 'sh', 'scripts/testIntegration.sh', '--install-only'], {
    cwd: ROOT,
    stdio: ['ignore', log, log],
    detached: true,
  });
  fs.closeSync(log);
  const install = { started: process.hrtime.bigint(), result: undefined };
  install.done = new Promise((resolve) => {
    child.on('close', (code, signal) => resolve((install.result = { code: code ?? 1, signal, seconds: since(install.started) })));
    child.on('error', (err) => resolve((install.result = { code: 1, error: err.message, seconds: 0 })));
  });
  const stop = () => {
    if (!install.result) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
  };
  process.on('exit', stop);
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => process.exit(130));
  return install;
}

/**
 * Waits for installCodeServers, printing the install's progress lines meanwhile (it says what it
 * installs every 20 s), and says whether the integration stage can run; when the install failed,
 * shows the end of its log (installStep.sh has already tried three times: no fourth here).
 */
async function codeServersReady(install) {
  const relLog = path.relative(process.cwd(), SETUP_LOG);
  const waitStarted = process.hrtime.bigint();
  const waited = !install.result;
  if (waited) {
    console.log(
      `\nlore: npm test: waiting for the code-server install, running in the background for ${since(install.started).toFixed(0)} s (its log: ${relLog}) …`,
    );
    const text = fs.readFileSync(SETUP_LOG, 'utf8');
    const lastLine = text.trimEnd().split('\n').at(-1);
    if (lastLine) console.log(lastLine);
    let offset = Buffer.byteLength(text);
    const follow = () => {
      const now = fs.readFileSync(SETUP_LOG);
      if (now.length > offset) process.stdout.write(now.subarray(offset));
      offset = now.length;
    };
    const timer = setInterval(follow, 2000);
    await install.done;
    clearInterval(timer);
    follow();
  }
  const r = install.result;
  install.waited = since(waitStarted);
  if (r.code === 0) {
    if (fs.statSync(SETUP_LOG).size > 0) {
      console.log(
        `lore: npm test: the code-server install took ${r.seconds.toFixed(0)} s; the tests waited ${install.waited.toFixed(0)} s for it`,
      );
    }
    return true;
  }
  const why = r.error ?? r.signal ?? `exit status ${r.code}`;
  if (waited) console.log(`lore: npm test: the code-server install failed (${why}): its lines are above`);
  else {
    const tail = fs.readFileSync(SETUP_LOG, 'utf8').trimEnd().split('\n').slice(-40).join('\n');
    console.log(`lore: npm test: the code-server install failed (${why}); the end of ${relLog}:\n${tail}`);
  }
  return false;
}

const load = os.loadavg()[0];
const started = process.hrtime.bigint();
const codeServers = STAGES.some((s) => s.needsCodeServers) ? installCodeServers() : undefined;
const results = [];
for (let i = 0; i < STAGES.length;) {
  const stage = STAGES[i];
  // A run of consecutive stages marked `together` starts at once.
  let j = i + 1;
  while (stage.together && STAGES[j]?.together === stage.together) j++;
  const batch = STAGES.slice(i, j);
  if (batch.some((s) => s.needsCodeServers) && !(await codeServersReady(codeServers))) {
    results.push(...batch.map((s) => ({ ...s, code: 1, seconds: 0, passed: 0, failed: 0 })));
    i = j;
    continue;
  }
  const names = `${batch.map((s) => s.name).join(' and ')}${batch.length > 1 ? ' side by side' : ''}`;
  console.log(`\nlore: npm test: ${names}, from ${since(started).toFixed(0)} s …`);
  const done = await Promise.all(batch.map((s) => run(s, batch.length > 1)));
  results.push(...done);
  if (done.some((r) => r.code !== 0 && r.fatal)) break;
  i = j;
}

const total = since(started);
const groups = new Map();
for (const r of results) {
  const g = groups.get(r.group) ?? { seconds: 0, ok: true };
  g.seconds += r.seconds;
  g.ok &&= r.code === 0;
  groups.set(r.group, g);
}
const passed = results.reduce((n, r) => n + r.passed, 0);
const failedTests = results.reduce((n, r) => n + r.failed, 0);
const failedStages = results.filter((r) => r.code !== 0).map((r) => r.name);
const skipped = STAGES.slice(results.length).map((s) => s.name);

const together = STAGES.filter((s) => s.together)
  .map((s) => s.name)
  .join(' and ');
console.log(
  `\nlore: npm test took ${total.toFixed(0)} s on ${os.cpus().length} CPUs (load average ${load.toFixed(2)} at the start; ${together} side by side, so their shares overlap):`,
);
for (const [name, g] of groups) {
  console.log(
    `  ${name.padEnd(12)} ${g.seconds.toFixed(1).padStart(6)} s  ${((100 * g.seconds) / total).toFixed(0).padStart(3)} %${g.ok ? '' : '  FAILED'}`,
  );
}
if (codeServers?.waited !== undefined && fs.statSync(SETUP_LOG).size > 0) {
  const { seconds } = codeServers.result;
  console.log(
    `  ${'setup'.padEnd(12)} ${seconds.toFixed(1).padStart(6)} s  in the background; the integration stage waited ${codeServers.waited.toFixed(1)} s for it`,
  );
}
for (const r of results.filter((x) => x.failures)) console.log(`\nlore: what failed in ${r.name}:\n${r.failures.trimEnd()}`);
if (skipped.length) console.log(`  not run after the failed build: ${skipped.join(', ')}`);
if (failedStages.length) console.log(`lore: failed: ${failedStages.join(', ')}`);
// The plain closing line CI reads (mocha's own summaries are per group).
console.log(`tests: ${passed} passed, ${failedTests} failed`);
process.exit(failedStages.length || skipped.length ? 1 : 0);

import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { main } from '../../src/cli/main';
import { CLI, makeTempDir } from './paths';

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunCliOptions {
  /** Where relative paths on the command line start (default: the test process's cwd). */
  cwd?: string;
  /** Variables on top of the test process's environment. */
  env?: NodeJS.ProcessEnv;
  /** Runs the CLI under `ulimit -f` (512-byte blocks); implies `spawn`. */
  fileSizeLimitBlocks?: number;
  /**
   * Runs the built binary (dist/cli.js) in a child process, for what only a process shows: a
   * kill, a signal, a lock held by another process, stdio, limits, variables read at load time.
   */
  spawn?: boolean;
  /** What the CLI reads on stdin (default: nothing, closed at once). */
  input?: string;
}

/**
 * Variables read when a module loads (or by Node itself), which an in-process run cannot honour:
 * a test that sets one gets a real process, so a test written before `spawn` existed still
 * tests what it meant to.
 */
const READ_AT_LOAD = ['LORE_TEST_CRASH_AFTER', 'LORE_TEST_CRASH_LOG', 'LORE_TEST_REPLACE_TRACE', 'NODE_OPTIONS'];

/** LORE_TEST_CLI=spawn runs every CLI test against dist/cli.js, as all of them did before. */
const ALWAYS_SPAWN = process.env.LORE_TEST_CLI === 'spawn';

/**
 * Where runs look for Claude Code's and Codex's sessions unless a test says (it passes HOME and
 * clears these): an empty folder, so that a harvest without --from, which reads this workspace's
 * agent sessions, never reads the machine's own.
 */
const NO_AGENT_SESSIONS = makeTempDir('lore-no-agent-sessions-');

/** What every run starts from: no crash injection, no provider chosen by the developer's shell, no agent sessions. */
const BASE_ENV = {
  LORE_TEST_CRASH_AFTER: '',
  LORE_PROVIDER: '',
  CLAUDE_CONFIG_DIR: path.join(NO_AGENT_SESSIONS, 'claude'),
  CODEX_HOME: path.join(NO_AGENT_SESSIONS, 'codex'),
};

/**
 * Runs the CLI: in this process through `main(argv, io)` by default (fast, and stub servers in
 * the test process keep answering because main is asynchronous), or as dist/cli.js in a child
 * process when the test needs a process (see `RunCliOptions.spawn`).
 */
export function runCli(args: string[], options: RunCliOptions = {}): Promise<CliResult> {
  const needsProcess =
    options.spawn || options.fileSizeLimitBlocks !== undefined || READ_AT_LOAD.some((name) => options.env?.[name]) || ALWAYS_SPAWN;
  return needsProcess ? spawnCli(args, options) : runCliInProcess(args, options);
}

async function runCliInProcess(args: string[], options: RunCliOptions): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  // The same line discipline as the CLI's own stdio.
  const line = (text: string) => (text.endsWith('\n') ? text : text + '\n');
  const code = await main(args, {
    out: (text) => (stdout += line(text)),
    err: (text) => (stderr += line(text)),
    cwd: path.resolve(options.cwd ?? process.cwd()),
    env: { ...process.env, ...BASE_ENV, ...options.env },
    stdoutIsTTY: false,
    stdin: Readable.from([Buffer.from(options.input ?? '')]),
  });
  return { code, signal: null, stdout, stderr };
}

function spawnCli(args: string[], options: RunCliOptions): Promise<CliResult> {
  // With a file-size limit, a shell sets `ulimit -f` (512-byte blocks) and execs node under it.
  const [command, argv] =
    options.fileSizeLimitBlocks === undefined
      ? [process.execPath, [CLI, ...args]]
      : ['sh', ['-c', `ulimit -f ${options.fileSizeLimitBlocks} && exec "$0" "$@"`, process.execPath, CLI, ...args]];
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, {
      cwd: options.cwd ?? process.cwd(),
      env: { ...process.env, ...BASE_ENV, ...options.env },
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    child.stdin?.end(options.input);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** A workspace with `src/app.ts` and an initialized store at `.lore`. */
export async function makeWorkspace(): Promise<{ ws: string; root: string; inbox: string }> {
  const ws = makeTempDir('lore-ws-');
  fs.mkdirSync(path.join(ws, 'src'));
  fs.writeFileSync(path.join(ws, 'src', 'app.ts'), 'export const app = 1;\n');
  const root = path.join(ws, '.lore');
  const init = await runCli(['init', '--root', root]);
  if (init.code !== 0) throw new Error(`init failed: ${init.stderr}`);
  return { ws, root, inbox: path.join(root, 'inbox') };
}

/** Every file under `dir` with its content, for before/after comparisons (not in folders named in `skipFolders`). */
export function snapshotTree(dir: string, skipFolders: readonly string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    if (!fs.existsSync(d)) return;
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) {
        if (!skipFolders.includes(entry.name)) walk(full);
      } else out[path.relative(dir, full)] = fs.readFileSync(full, 'utf8');
    }
  };
  walk(dir);
  return out;
}

/** A §2.1 transcript whose user turn carries rules-provider markers. */
export function transcript(id: string, body: string, started = '2026-11-20T10:00:00Z'): string {
  return `---\nsession_id: ${id}\nstarted: ${started}\n---\n\n# ${id}\n\n## 10:00 — user\n${body}\n\n## 10:01 — agent\nOk.\n`;
}

/**
 * NODE_OPTIONS that make these modules fail to load in a Lore process, as a native module built
 * for another Node does (better-sqlite3), or a Node without one (node:sqlite).
 */
export function failingModules(modules: string[]): string {
  const hook = path.join(makeTempDir('lore-hook-'), 'failingModules.js');
  fs.writeFileSync(
    hook,
    "const Module = require('module'); const load = Module._load;\n" +
      `Module._load = function (request, ...rest) { if (${JSON.stringify(modules)}.includes(request)) throw new Error('simulated: NODE_MODULE_VERSION mismatch'); return load.call(this, request, ...rest); };\n`,
  );
  return `--require ${hook}`;
}

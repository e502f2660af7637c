// `npm start`: Lore in a real VS Code in the browser. Builds the extension, prepares a demo
// workspace (demo-vscode/: the example workspace, a store, the example conversations in its
// inbox), installs code-server on first use, links this checkout into a fresh extensions
// folder and serves VS Code on http://127.0.0.1:8080 (HOST and PORT override). Ctrl-C stops it.
//
//   node scripts/startDemo.mjs [--reset] [--verbose]
//   --reset    recreate demo-vscode/ from examples/ (otherwise an existing one is reused)
//   --verbose  print code-server's log
//
// The extension folder is a symlink to this checkout, so after `node esbuild.mjs` (or
// `node esbuild.mjs --watch` in another terminal) "Developer: Reload Window" picks up changes.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, killGroupNow, makeSandbox, startCodeServer, workbenchUrl } from './codeServer.mjs';

const { values: opts } = parseArgs({
  options: {
    reset: { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
  },
});
const HOST = process.env.HOST || '127.0.0.1';
const PORT = Number(process.env.PORT || 8080);
const DEMO = path.join(ROOT, 'demo-vscode');

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`lore: ${cmd} ${args.join(' ')} failed`);
    process.exit(r.status ?? 1);
  }
}

run('sh', [path.join(ROOT, 'scripts', 'ensureCodeServer.sh')]);
run('npm', ['run', '--silent', 'build']);

if (opts.reset || !fs.existsSync(path.join(DEMO, '.lore'))) {
  fs.rmSync(DEMO, { recursive: true, force: true });
  fs.cpSync(path.join(ROOT, 'examples', 'workspace'), DEMO, { recursive: true });
  run(process.execPath, [path.join(ROOT, 'dist', 'cli.js'), 'init', '--root', path.join(DEMO, '.lore')]);
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

try {
  server = await startCodeServer(sandbox, { host: HOST, port: PORT, echo: opts.verbose, smokeTestDriver: false });
} catch (err) {
  console.error(`lore: ${err.message}`);
  if (/EADDRINUSE/.test(err.message)) console.error(`lore: port ${PORT} is taken; try PORT=8081 npm start`);
  process.exit(1);
}
const url = workbenchUrl(server.url, DEMO);
console.log(`
Lore in VS Code (code-server, VS Code 1.139) is running. Open:

    ${url}

The Lore view is in the activity bar; try F1 "Lore: Harvest Conversations…".
Ctrl-C stops the server.`);
const { code, signal } = await server.exited;
console.error(`lore: code-server exited (${signal ?? code})`);
if (!opts.verbose) console.error(server.log.tail(20));
process.exit(1);

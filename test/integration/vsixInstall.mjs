// Checks the packaged extension the way a user gets it: lists lore.vsix (size, files, the
// runtime files it must and must not hold), installs it into a fresh code-server with
// `--install-extension`, opens the fixture workspace WITHOUT extensionDevelopmentPath, and
// verifies that lore-dev.lore activated from the installed copy and that "Lore: Show Log" runs
// from the command palette. `npm run test:integration` packages the VSIX first (npm run package).
//
//
// Its extension page: VS Code shows images there only from https addresses, so the check serves the
// repository's screenshots from a local https server (a self-signed certificate the browser is told
// to accept, standing in for the public address LORE_IMAGES_BASE_URL names when packaging), puts the
// page scripts/marketplaceReadme.mjs builds for that address into the installed extension, opens
// Lore's page in the Extensions view and checks that every image loaded and no link was dropped.
//
//   node test/integration/vsixInstall.mjs [--vsix FILE] [--screenshot FILE] [--page-screenshot FILE] [--keep] [--verbose]
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as https from 'node:https';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { extensionPage, relativeTargets } from '../../scripts/marketplaceReadme.mjs';
import { zipEntries } from '../../scripts/packageVsix.mjs';
import {
  ROOT,
  codeServerEntry,
  codeServerNode,
  copyWorkspace,
  findFiles,
  launchBrowser,
  stopServerOnExit,
  makeSandbox,
  startCodeServer,
  tailFile,
  workbenchUrl,
} from '../../scripts/codeServer.mjs';

const { values: opts } = parseArgs({
  options: {
    vsix: { type: 'string', default: path.join(ROOT, 'lore.vsix') },
    screenshot: { type: 'string' },
    'page-screenshot': { type: 'string' },
    keep: { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
    timeout: { type: 'string', default: '180' },
  },
});

const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const EXT_ID = `${manifest.publisher}.${manifest.name}`;
const EXT_DIR_NAME = `${EXT_ID}-${manifest.version}`;
const FIXTURE = path.join(ROOT, 'test', 'integration', 'fixtures', 'workspace');

const kb = (n) => `${(n / 1024).toFixed(n < 10240 ? 1 : 0)} KB`;
const mb = (n) => `${(n / 1024 / 1024).toFixed(2)} MB`;
const failures = [];
const check = (ok, what) => {
  console.log(`  ${ok ? '✔' : '✘'} ${what}`);
  if (!ok) failures.push(what);
};

// 1. What the VSIX holds.
if (!fs.existsSync(opts.vsix)) {
  console.error(`lore: ${opts.vsix} is missing; run npm run package first`);
  process.exit(2);
}
const entries = zipEntries(opts.vsix);
const names = new Set(entries.map((e) => e.name));
console.log(
  `\nVSIX ${path.relative(process.cwd(), opts.vsix) || opts.vsix}: ${mb(fs.statSync(opts.vsix).size)}, ${entries.length} files, ${mb(entries.reduce((s, e) => s + e.size, 0))} unpacked`,
);
for (const e of entries) console.log(`  ${e.name.padEnd(64)} ${kb(e.size).padStart(10)}`);
console.log('\nVSIX contents');
for (const required of [
  'extension/package.json',
  'extension/dist/extension.js',
  'extension/dist/server.js',
  // The threads the CLI's first index build extracts files with (src/core/services/search/extractThreads.ts).
  'extension/dist/extractThread.js',
  // The `lore` executable (agent mode starts `lore mcp`) and the bundles it picks (src/cli/launcher.ts).
  ...['cli', 'cliMain', 'hook', 'search', 'mcpServer'].map((name) => `extension/dist/${name}.js`),
  // The provider SDKs, required by the adapters at call time (esbuild.mjs).
  ...['openai', 'anthropic', 'genai', 'ollama'].map((name) => `extension/dist/vendor/${name}.js`),
  'extension/prompts/harvest-conversation.md',
  'extension/node_modules/better-sqlite3/package.json',
  'extension/node_modules/better-sqlite3/lib/index.js',
  'extension/node_modules/better-sqlite3/prebuilds/linux-x64.node',
]) {
  check(names.has(required), `holds ${required}`);
}
// What the installed extension shows from its own files: the icon, the walkthrough's pages and the
// images they show (rendered by VS Code from the extension's folder).
check(names.has(`extension/${manifest.icon}`), `holds the icon ${manifest.icon}`);
for (const step of manifest.contributes.walkthroughs.flatMap((w) => w.steps)) {
  const page = step.media.markdown;
  check(names.has(`extension/${page}`), `holds walkthrough media ${page}`);
  const images = relativeTargets(fs.readFileSync(path.join(ROOT, page), 'utf8')).map(({ target }) =>
    path.posix.join(path.posix.dirname(page), target),
  );
  const missing = images.filter((image) => !names.has(`extension/${image}`));
  if (images.length)
    check(
      missing.length === 0,
      `holds the ${images.length} image(s) ${page} shows${missing.length ? `; missing: ${missing.join(', ')}` : ''}`,
    );
}
// The extension page is dist/README.md (scripts/marketplaceReadme.mjs), which links to no file: VS
// Code's extension page follows no relative link and shows no relative image.
const packagedReadme = entries.find((e) => e.name.toLowerCase() === 'extension/readme.md');
const userReadme = path.join(ROOT, 'dist', 'README.md');
const pageText = fs.existsSync(userReadme) ? fs.readFileSync(userReadme, 'utf8') : '';
check(
  packagedReadme !== undefined && pageText !== '' && packagedReadme.size === Buffer.byteLength(pageText),
  'shows the extension page built from README.md (dist/README.md)',
);
const deadTargets = relativeTargets(pageText).map(({ target }) => target);
check(
  deadTargets.length === 0,
  `the extension page links to no file by a relative path${deadTargets.length ? `: ${deadTargets.join(', ')}` : ''}`,
);
const unwanted = [...names].filter(
  (n) => /\.map$|^extension\/(src|test|out|bench|examples|\.vscode-test|\.node24)\/|\.ts$/.test(n) && !n.endsWith('.d.ts'),
);
check(unwanted.length === 0, `holds no sources, source maps or test files${unwanted.length ? `: ${unwanted.slice(0, 5).join(', ')}` : ''}`);
const otherModules = [...names].filter(
  (n) => n.startsWith('extension/node_modules/') && !n.startsWith('extension/node_modules/better-sqlite3/'),
);
check(
  otherModules.length === 0,
  `holds no node_modules but better-sqlite3${otherModules.length ? `: ${otherModules.slice(0, 5).join(', ')}` : ''}`,
);

// 2. Install it into a fresh sandbox, as a user would.
const started = Date.now();
const sandbox = makeSandbox('lore-vx-');
const ws = copyWorkspace(FIXTURE, path.join(sandbox.dir, 'ws'));
let server;
let context;
let page;
stopServerOnExit(() => server);

console.log(`\nInstalling into code-server (sandbox ${sandbox.dir})`);
const install = spawnSync(
  codeServerNode(),
  [
    codeServerEntry(),
    '--install-extension',
    path.resolve(opts.vsix),
    '--extensions-dir',
    sandbox.extensions,
    '--user-data-dir',
    sandbox.userData,
    '--config',
    sandbox.config,
  ],
  { env: sandbox.env, encoding: 'utf8', timeout: 120_000 },
);
check(install.status === 0, `code-server --install-extension exits 0${install.status === 0 ? '' : `: ${install.stdout}${install.stderr}`}`);
const installed = path.join(sandbox.extensions, EXT_DIR_NAME);
check(fs.existsSync(path.join(installed, 'package.json')), `installed as ${path.relative(sandbox.dir, installed)}`);

// The native module from the VSIX loads on the Node that runs code-server's extension host.
const sqlite = spawnSync(
  codeServerNode(),
  [
    '-e',
    `
  const Database = require(${JSON.stringify(path.join(installed, 'node_modules', 'better-sqlite3'))});
  const db = new Database(':memory:');
  process.stdout.write(String(db.prepare('select 41 + 1 as x').get().x));
`,
  ],
  { encoding: 'utf8' },
);
check(
  sqlite.stdout === '42',
  `better-sqlite3 from the VSIX loads on the Node that runs code-server${sqlite.stdout === '42' ? '' : `: ${sqlite.stderr.trim().split('\n').slice(-3).join(' ')}`}`,
);

// The SDK bundles load from the installed extension alone (no network, no node_modules).
const sdks = spawnSync(
  process.execPath,
  [
    '-e',
    `
  for (const name of ['openai', 'anthropic', 'genai', 'ollama']) require(${JSON.stringify(path.join(installed, 'dist', 'vendor'))} + '/' + name + '.js');
  process.stdout.write('ok');
`,
  ],
  { encoding: 'utf8' },
);
check(
  sdks.stdout === 'ok',
  `the provider SDK bundles from the VSIX load${sdks.stdout === 'ok' ? '' : `: ${sdks.stderr.trim().split('\n').slice(-3).join(' ')}`}`,
);

// Agent mode runs `lore mcp` from the installed extension (its MCP server definition): the CLI and
// the MCP server bundle answer initialize and tools/list with nothing but the VSIX's files.
const mcpRequests =
  [
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'vsix-check', version: '1' } },
    },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 2, method: 'tools/list' },
  ]
    .map((m) => JSON.stringify(m))
    .join('\n') + '\n';
const mcp = spawnSync(codeServerNode(), [path.join(installed, 'dist', 'cli.js'), 'mcp', '--root', path.join(FIXTURE, '.lore')], {
  input: mcpRequests,
  encoding: 'utf8',
  timeout: 30_000,
  env: { PATH: process.env.PATH ?? '', HOME: sandbox.dir },
});
const mcpReplies = mcp.stdout
  .split('\n')
  .filter(Boolean)
  .map((line) => {
    try {
      return JSON.parse(line);
    } catch {
      return {};
    }
  });
const toolNames = mcpReplies.find((r) => r.id === 2)?.result?.tools?.map((t) => t.name) ?? [];
check(
  mcpReplies.find((r) => r.id === 1)?.result?.serverInfo?.name === 'lore' && toolNames.includes('search'),
  `lore mcp from the installed extension answers initialize and lists its tools${toolNames.length ? ` (${toolNames.length})` : `: ${mcp.stderr.trim().split('\n').slice(-3).join(' ')}`}`,
);

/** Waits until `probe()` returns a truthy value, or returns undefined after `ms`. */
async function until(probe, ms) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * Serves the repository's media/ over https on 127.0.0.1 with a self-signed certificate made by
 * openssl, standing in for the public address the page's screenshots come from. Resolves to its
 * base address, or undefined (with the reason printed) when openssl is missing.
 */
async function serveScreenshots(dir) {
  const key = path.join(dir, 'images-key.pem');
  const cert = path.join(dir, 'images-cert.pem');
  const made = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { encoding: 'utf8', timeout: 30_000 },
  );
  if (made.status !== 0) {
    console.log(`  · no https server for the page's images: openssl ${made.error?.message ?? made.stderr.trim().split('\n').pop()}`);
    return undefined;
  }
  const media = path.join(ROOT, 'media');
  const server = https.createServer({ key: fs.readFileSync(key), cert: fs.readFileSync(cert) }, (req, res) => {
    const file = path.join(ROOT, decodeURIComponent(new URL(req.url ?? '/', 'https://x').pathname));
    if (req.method !== 'GET' || !file.startsWith(media + path.sep) || !fs.existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': file.endsWith('.png') ? 'image/png' : 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.on('exit', () => server.close());
  return { base: `https://127.0.0.1:${server.address().port}/`, close: () => server.close() };
}

/**
 * Opens Lore's page in the Extensions view and checks it as a person sees it: the page is there,
 * every image it shows loaded, and no link lost its address (VS Code drops any that is not http(s)).
 */
async function checkExtensionPage() {
  // The page gets the whole editor area: the Output panel the previous step opened is hidden
  // (cosmetic, for the screenshot: a workbench that names the command otherwise is not a failure).
  await page.keyboard.press('F1');
  await page.locator('.quick-input-widget input').fill('>View: Hide Panel');
  const hide = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Hide Panel' }).first();
  if (
    await hide.waitFor({ state: 'visible', timeout: 10_000 }).then(
      () => true,
      () => false,
    )
  )
    await page.keyboard.press('Enter');
  else await page.keyboard.press('Escape');
  await page.keyboard.press('Control+Shift+X');
  const search = page.locator('.extensions-viewlet .suggest-input-container').first();
  await search.waitFor({ state: 'visible', timeout: 15_000 });
  await search.click();
  await page.keyboard.type('@installed lore');
  await page.locator('.extensions-viewlet .monaco-list-row', { hasText: 'Lore' }).first().click({ timeout: 15_000 });
  await page.locator('.extension-editor').waitFor({ state: 'visible', timeout: 15_000 });
  /** The page's images (loaded or not) and links without an address, once every image settled. */
  const readme = async () => {
    for (const frame of page.frames()) {
      const found = await frame
        .evaluate(() => {
          if (document.querySelector('h1')?.textContent !== 'Lore') return null;
          const images = [...document.images];
          if (images.some((i) => !i.complete)) return null;
          return {
            images: images.map((i) => ({ src: i.getAttribute('src') ?? '', loaded: i.naturalWidth > 0 })),
            deadLinks: [...document.querySelectorAll('a')]
              .filter((a) => a.id !== 'scroll-to-top' && !a.getAttribute('href'))
              .map((a) => a.textContent),
          };
        })
        .catch(() => null);
      if (found) return found;
    }
    return undefined;
  };
  const shown =
    (await until(async () => {
      const found = await readme();
      return found && found.images.length > 0 && found.images.every((i) => i.loaded) ? found : undefined;
    }, 30_000)) ?? (await readme());
  check(Boolean(shown), "Lore's extension page opens in the Extensions view");
  if (!shown) return;
  const broken = shown.images.filter((i) => !i.loaded).map((i) => i.src || '(no address)');
  check(
    shown.images.length >= 2 && broken.length === 0,
    `the extension page shows its ${shown.images.length} screenshots from an https address${broken.length ? `; not loaded: ${broken.join(', ')}` : ''}`,
  );
  check(
    shown.deadLinks.length === 0,
    `the extension page has no dead link${shown.deadLinks.length ? `: ${shown.deadLinks.join(', ')}` : ''}`,
  );
  if (opts['page-screenshot']) {
    await page.screenshot({ path: path.resolve(opts['page-screenshot']), timeout: 10_000 });
    console.log(`  · the extension page: ${path.resolve(opts['page-screenshot'])}`);
  }
}

const logsDir = path.join(sandbox.userData, 'logs');
const hostLog = () =>
  findFiles(logsDir, /exthost\d*\/remoteexthost\.log$/)
    .map((f) => fs.readFileSync(f, 'utf8'))
    .join('\n');

if (failures.length === 0) {
  try {
    // 3. Open the fixture workspace (it has a .lore store: Lore activates on workspaceContains:.lore).
    // The page as a VSIX packaged with LORE_IMAGES_BASE_URL shows it (see the top of this file).
    const images = await serveScreenshots(sandbox.dir);
    check(Boolean(images), 'an https server serves the screenshots for the extension page');
    if (images) {
      fs.writeFileSync(
        path.join(installed, 'README.md'),
        extensionPage(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8'), { imagesBase: images.base }),
      );
    }
    server = await startCodeServer(sandbox);
    context = await launchBrowser(sandbox, { ignoreHTTPSErrors: true });
    page = context.pages()[0] ?? (await context.newPage());
    if (opts.verbose) page.on('console', (m) => console.log(`[browser ${m.type()}] ${m.text()}`));
    await page.goto(workbenchUrl(server.url, ws), { waitUntil: 'domcontentloaded', timeout: 120_000 });
    console.log(`\nWorkbench ${server.url} on the fixture workspace, no extensionDevelopmentPath`);

    const timeoutMs = Number(opts.timeout) * 1000;
    const activated = await until(() => /_doActivateExtension lore-dev\.lore\b/.test(hostLog()), timeoutMs);
    check(activated, `the extension host activated ${EXT_ID}`);
    const activationFailed = /Activating extension '?lore-dev\.lore'? failed/i.exec(hostLog());
    check(!activationFailed, 'activation reported no error');
    check(!/Loading development extension/.test(server.log.tail(200)), 'no development extension was loaded (it came from the VSIX)');
    const loreLog = await until(() => findFiles(logsDir, new RegExp(`${EXT_ID.replace('.', '\\.')}/Lore\\.log$`))[0], 10_000);
    check(
      Boolean(loreLog),
      `the extension opened its "Lore" log channel (${loreLog ? path.relative(sandbox.dir, loreLog) : 'no Lore.log'})`,
    );

    // 4. A person's path: F1, "Lore: Show Log", Enter; the Output panel then shows the Lore channel.
    if (activated) {
      /** True when the Output panel's channel picker shows "Lore". */
      const loreChannelShown = async () => {
        const boxes = page.locator('.part.panel .monaco-select-box');
        const values = await boxes.evaluateAll((els) => els.flatMap((e) => [e.value ?? '', e.getAttribute('title') ?? ''])).catch(() => []);
        return values.some((v) => /(^|\W)Lore$/.test(v.trim()));
      };
      await page.locator('.monaco-workbench').waitFor({ timeout: 30_000 });
      check(!(await loreChannelShown()), 'the Lore output channel is not shown before the command runs');
      await page.keyboard.press('F1');
      const input = page.locator('.quick-input-widget input');
      await input.waitFor({ state: 'visible', timeout: 15_000 });
      await input.fill('>Lore: Show Log');
      const item = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Lore: Show Log' }).first();
      await item.waitFor({ state: 'visible', timeout: 15_000 });
      await page.keyboard.press('Enter');
      const shown = await until(loreChannelShown, 20_000);
      check(shown, 'F1 "Lore: Show Log" shows the Lore output channel');
      if (images) await checkExtensionPage();
    }
  } catch (err) {
    check(false, `no error while driving the workbench: ${err?.message ?? err}`);
  }
}

const ok = failures.length === 0;
if (!ok) {
  if (page) {
    const shot = path.resolve(opts.screenshot ?? path.join(sandbox.dir, 'failure.png'));
    await page.screenshot({ path: shot, timeout: 10_000 }).then(
      () => console.error(`lore: screenshot: ${shot}`),
      () => {},
    );
  }
  if (server) console.error(`--- code-server (last lines) ---\n${server.log.tail(30)}`);
  for (const f of findFiles(logsDir, /(remoteexthost\.log|Lore\.log)$/))
    console.error(`--- ${path.relative(sandbox.dir, f)} ---\n${tailFile(f, 20)}`);
}
await Promise.race([context?.close().catch(() => {}), new Promise((r) => setTimeout(r, 5000))]);
if (server) await server.stop();
if (ok && !opts.keep) fs.rmSync(sandbox.dir, { recursive: true, force: true });
else console.error(`lore: sandbox kept for inspection: ${sandbox.dir}`);
console.log(
  `\nlore: VSIX check ${ok ? 'passed' : `failed (${failures.length} problem(s))`} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
process.exit(ok ? 0 : 1);

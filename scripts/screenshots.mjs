// README screenshots of Lore in a real VS Code (code-server + Chromium via playwright-core).
// Prepares a fresh demo workspace (as scripts/startDemo.mjs does, but in a temp folder), links
// this checkout into a fresh extensions folder, drives the workbench through a harvest and
// saves PNGs in media/screenshots/. Build first (npm run build); needs Node 24.
//
//   node scripts/screenshots.mjs [--first-run] [--out DIR] [--keep] [--headed]
//   --first-run  instead, a newcomer's first run on real agent sessions (firstRunShots.mjs), into docs/images/
//   --out DIR  where to write the PNGs (default: media/screenshots, or docs/images with --first-run)
//   --keep     keep the sandbox folder (workspace, logs) for inspection
//   --headed   show the browser window (needs a display)
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { prepareFirstRunMachine } from '../test/integration/firstRunMachine.mjs';
import { firstRunShots } from './firstRunShots.mjs';
import { ROOT, findFiles, launchBrowser, stopServerOnExit, makeSandbox, startCodeServer, tailFile, workbenchUrl } from './codeServer.mjs';

const { values: opts } = parseArgs({
  options: {
    out: { type: 'string' },
    'first-run': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    headed: { type: 'boolean', default: false },
  },
});
const firstRun = opts['first-run'];
const OUT = path.resolve(opts.out ?? path.join(ROOT, ...(firstRun ? ['docs', 'images'] : ['media', 'screenshots'])));
const STEP_TIMEOUT = 30_000;
const VIEWPORT = { width: 1280, height: 800 };
const SIDEBAR_WIDTH = 500;

if (!fs.existsSync(path.join(ROOT, 'dist', 'extension.js')) || !fs.existsSync(path.join(ROOT, 'dist', 'cli.js'))) {
  console.error('lore: dist/ is incomplete; build first (npm run build)');
  process.exit(2);
}

const started = Date.now();
const log = (what) => console.log(`[+${((Date.now() - started) / 1000).toFixed(1)}s] ${what}`);

// --- The workspace: the demo (same recipe as startDemo.mjs), or a newcomer's machine -----------
const sandbox = makeSandbox('lore-shots-');
let ws;
if (firstRun) {
  // A project with no store, real Claude Code and Codex sessions under a HOME inside the sandbox.
  ws = prepareFirstRunMachine(sandbox).workspace;
} else {
  ws = path.join(sandbox.dir, 'demo');
  fs.cpSync(path.join(ROOT, 'examples', 'workspace'), ws, { recursive: true });
  const init = spawnSync(process.execPath, [path.join(ROOT, 'dist', 'cli.js'), 'init', '--root', path.join(ws, '.lore')], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (init.status !== 0) {
    console.error(`lore: lore init failed:\n${init.stdout}${init.stderr}`);
    process.exit(1);
  }
  const conversations = path.join(ROOT, 'examples', 'conversations');
  for (const f of fs.readdirSync(conversations)) fs.copyFileSync(path.join(conversations, f), path.join(ws, '.lore', 'inbox', f));
  fs.mkdirSync(path.join(ws, '.vscode'), { recursive: true });
  fs.writeFileSync(path.join(ws, '.vscode', 'settings.json'), JSON.stringify({ 'lore.provider': 'rules' }, null, 2) + '\n');
}

// Lore installed the way `npm start` does it: a symlink to this checkout in --extensions-dir.
const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
fs.symlinkSync(ROOT, path.join(sandbox.extensions, `${manifest.publisher}.${manifest.name}-${manifest.version}`), 'dir');
// A calmer picture: no minimap, no breadcrumbs, no layout controls in the title bar.
const userSettings = path.join(sandbox.userData, 'User', 'settings.json');
fs.writeFileSync(
  userSettings,
  JSON.stringify(
    {
      ...JSON.parse(fs.readFileSync(userSettings, 'utf8')),
      'editor.minimap.enabled': false,
      'breadcrumbs.enabled': false,
      'workbench.layoutControl.enabled': false,
      'window.commandCenter': false,
      'workbench.editor.enablePreview': false,
      'editor.hover.delay': 300,
      'workbench.colorTheme': 'Default Dark Modern',
    },
    null,
    2,
  ),
);

let server;
let context;
let page;
stopServerOnExit(() => server);

// --- Helpers -----------------------------------------------------------------------------------
const saved = [];

async function shot(name) {
  fs.mkdirSync(OUT, { recursive: true });
  const file = path.join(OUT, name);
  // Keep the mouse pointer and the caret from blinking into the picture at random.
  await page.waitForTimeout(400);
  await page.screenshot({ path: file });
  const kb = Math.round(fs.statSync(file).size / 1024);
  saved.push(`${path.relative(ROOT, file)} (${kb} KB)`);
  log(`saved ${path.relative(ROOT, file)} (${kb} KB)`);
}

/** Runs a command from the palette by its title (F1, type, wait for the row, Enter). */
async function runCommand(title) {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input.input');
  await input.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  await input.fill(`>${title}`);
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
  await row.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: STEP_TIMEOUT });
}

/** Opens a workspace file with Quick Open (Ctrl+P), picking the row whose description has `folder`. */
async function quickOpen(name, folder) {
  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget input.input');
  await input.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  await input.fill(name);
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: name }).filter({ hasText: folder }).first();
  await row.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  await row.click();
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: STEP_TIMEOUT });
}

/** Dismisses every notification toast (they would cover the views). */
async function clearNotifications() {
  await runCommand('Notifications: Clear All Notifications').catch(() => {});
}

/** What is on screen, for a failure report: notifications, dialogs, view titles. */
async function describePage() {
  try {
    return await page.evaluate(() => {
      const texts = (sel) => [...document.querySelectorAll(sel)].map((e) => e.innerText.replace(/\s+/g, ' ').trim()).filter(Boolean);
      return [
        ['notifications', texts('.notifications-toasts .notification-list-item')],
        ['dialogs', texts('.monaco-dialog-box')],
        ['sidebar', texts('.part.sidebar .pane-header, .part.sidebar .monaco-list-row').slice(0, 40)],
        ['editor tabs', texts('.tabs-container .tab')],
        ['status bar', texts('.statusbar-item').slice(0, 20)],
      ]
        .map(([k, v]) => `  ${k}: ${JSON.stringify(v)}`)
        .join('\n');
    });
  } catch (err) {
    return `  (page not readable: ${err.message})`;
  }
}

/** Folds (or, with `open`, unfolds) the side bar's views with these titles, where they are on screen. */
async function foldViews(titles, open = false) {
  for (const title of titles) {
    const header = page.locator('.part.sidebar .pane-header', { hasText: title });
    if ((await header.count()) && (await header.getAttribute('aria-expanded')) === String(!open)) await header.click();
  }
}

/** A wider side bar, so that the views' items fit (drags the sash at its right edge). */
async function widenSidebar() {
  const bar = await page.locator('.part.sidebar').boundingBox();
  const sashX = bar.x + bar.width + 2;
  await page.mouse.move(sashX, 400);
  await page.mouse.down();
  await page.mouse.move(sashX + 60, 400, { steps: 5 });
  await page.mouse.move(SIDEBAR_WIDTH + 48, 400, { steps: 5 });
  await page.mouse.up();
  await page.mouse.move(800, 700);
  await page.waitForTimeout(500);
}

async function step(what, fn) {
  log(what);
  try {
    await fn();
  } catch (err) {
    const debug = path.join(sandbox.dir, `failed-${what.replace(/\W+/g, '-').slice(0, 40)}.png`);
    await page?.screenshot({ path: debug }).catch(() => {});
    const err2 = new Error(`step "${what}" failed: ${err.message.split('\n')[0]}\nscreenshot: ${debug}\nvisible:\n${await describePage()}`);
    throw err2;
  }
}

// --- The run -----------------------------------------------------------------------------------
let exitCode = 0;
try {
  server = await startCodeServer(sandbox, { smokeTestDriver: false });
  log(`code-server ${server.url} (sandbox ${sandbox.dir})`);
  context = await launchBrowser(sandbox, { headless: !opts.headed, viewport: VIEWPORT });
  page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(STEP_TIMEOUT);

  await step('open the workbench', async () => {
    await page.goto(workbenchUrl(server.url, ws), { waitUntil: 'domcontentloaded', timeout: 120_000 });
    await page.locator('.monaco-workbench .part.activitybar').waitFor({ state: 'visible', timeout: 120_000 });
    // Lore contributes an activity bar entry once the extension host has scanned it.
    await page
      .locator('.part.activitybar .action-item a[aria-label^="Lore"], .part.activitybar .action-item[aria-label^="Lore"]')
      .first()
      .waitFor({ state: 'attached', timeout: 60_000 });
  });

  if (firstRun) {
    await firstRunShots({ page, step, shot, runCommand, quickOpen, clearNotifications, widenSidebar, foldViews });
  } else {
    await step('the walkthrough', async () => {
      // Not runCommand: this command answers with a second QuickPick, the list of walkthroughs.
      await page.keyboard.press('F1');
      const input = page.locator('.quick-input-widget input.input');
      await input.waitFor({ state: 'visible' });
      await input.fill('>Welcome: Open Walkthrough');
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Open Walkthrough' }).first().waitFor({ state: 'visible' });
      await page.keyboard.press('Enter');
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Get Started with Lore' }).first().click();
      // The first step open, its markdown beside it; the steps already done (store, provider) ticked.
      await page
        .locator('.gettingStartedContainer .getting-started-step', { hasText: 'Create the knowledge store' })
        .first()
        .waitFor({ state: 'visible' });
      await page.locator('.gettingStartedContainer .getting-started-step', { hasText: 'Find your conversations' }).first().click();
      await page.waitForTimeout(1500);
      await clearNotifications();
      await page.mouse.move(25, 500);
      await shot('00-walkthrough.png');
      await runCommand('View: Close All Editors');
    });

    await step('show the Lore views (empty store)', async () => {
      await runCommand('View: Show Lore');
      await page.locator('.part.sidebar').getByText('Harvest Conversations…').first().waitFor();
      // Let the views settle (welcome contents of Digest and Ledger).
      await page.waitForTimeout(1500);
      await clearNotifications();
      await widenSidebar();
      await shot('01-views-before.png');
    });

    await step('harvest: distill and preview', async () => {
      await runCommand('Lore: Harvest Conversations…');
      const dialog = page.locator('.monaco-dialog-box');
      await dialog.waitFor({ state: 'visible' });
      await dialog.getByRole('button', { name: 'Distill and Preview' }).click();
      await dialog.waitFor({ state: 'hidden' });
      // The diff editor with the proposed store file, the Harvest Plan view, and the one-line Apply / Open Plan notification.
      await page.locator('.editor-instance .monaco-diff-editor').first().waitFor({ state: 'visible' });
      await page
        .locator('.part.sidebar .pane', { has: page.locator('.pane-header', { hasText: 'Harvest Plan' }) })
        .locator('.monaco-list-row')
        .first()
        .waitFor({ state: 'visible' });
      await page.locator('.notifications-toasts .notification-list-item', { hasText: 'Lore harvest:' }).waitFor({ state: 'visible' });
      // Room for the plan's files and items: the views below it folded.
      await foldViews(['Get Started', 'Inbox']);
      await page.waitForTimeout(1500);
      await page.mouse.move(25, 500);
      await shot('02-harvest-preview.png');
    });

    await step('apply the harvest', async () => {
      const toast = page.locator('.notifications-toasts .notification-list-item', { hasText: 'Lore harvest:' });
      await toast.getByRole('button', { name: 'Apply', exact: true }).click();
      await page.locator('.notifications-toasts .notification-list-item', { hasText: 'Lore: wrote' }).waitFor({ state: 'visible' });
      await runCommand('View: Close All Editors');
      await runCommand('View: Show Lore');
      // Digest sections come expanded (the view folded as Get Started opened again); wait for rows in the Digest and the Ledger.
      await foldViews(['Digest'], true);
      const digest = page.locator('.part.sidebar .pane', { has: page.locator('.pane-header', { hasText: 'Digest' }) });
      await digest.locator('.monaco-list-row').first().waitFor({ state: 'visible' });
      const ledger = page.locator('.part.sidebar .pane', { has: page.locator('.pane-header', { hasText: 'Ledger' }) });
      await ledger.locator('.monaco-list-row').first().waitFor({ state: 'visible' });
      // Room for the Digest and Ledger: Cache and Knowledge folded, the Ledger's "harvested" group open.
      await foldViews(['Cache', 'Knowledge']);
      // The Digest, unfolded, comes back at its folded size: the sash above the Ledger's header dragged down.
      const ledgerHeader = await page.locator('.part.sidebar .pane-header', { hasText: 'Ledger' }).boundingBox();
      await page.mouse.move(ledgerHeader.x + 100, ledgerHeader.y - 1);
      await page.mouse.down();
      await page.mouse.move(ledgerHeader.x + 100, ledgerHeader.y + 20, { steps: 3 });
      await page.mouse.move(ledgerHeader.x + 100, ledgerHeader.y + 260, { steps: 5 });
      await page.mouse.up();
      const harvested = ledger.locator('.monaco-list-row', { hasText: 'harvested' }).first();
      if ((await harvested.getAttribute('aria-expanded')) === 'false') await harvested.click();
      await ledger.locator('.monaco-list-row').nth(1).waitFor({ state: 'visible' });
      // The digest agents get, beside the view it feeds.
      await quickOpen('digest.md', '.lore');
      await page.locator('.tabs-container .tab', { hasText: 'digest.md' }).waitFor({ state: 'visible' });
      await clearNotifications();
      await page.mouse.move(25, 500);
      await page.waitForTimeout(1000);
      await shot('03-digest-view.png');
    });

    await step('file notes: code lens and hover on src/orders.ts', async () => {
      await runCommand('View: Close All Editors');
      await quickOpen('orders.ts', 'src');
      await page.locator('.tabs-container .tab', { hasText: 'orders.ts' }).waitFor({ state: 'visible' });
      // Let the TypeScript server finish, or its "Loading…" part shows in the hover.
      const busy = page.locator('.statusbar-item', { hasText: /Analyzing|Initializing JS\/TS/ }).first();
      await busy.waitFor({ state: 'visible', timeout: 10_000 }).catch(() => {});
      await busy.waitFor({ state: 'hidden', timeout: 60_000 });
      await page.waitForTimeout(1500);
      const editor = page.locator('.editor-instance .monaco-editor').first();
      const lens = editor.locator('.codelens-decoration', { hasText: /Lore: \d+ notes?/ }).first();
      await lens.waitFor({ state: 'visible' });
      // Hover the first line's text (the line below the lens).
      const firstLine = editor.locator('.view-lines .view-line').first();
      await firstLine.waitFor({ state: 'visible' });
      const hover = page.locator('.monaco-hover:not(.hidden)', { hasText: 'Lore' }).first();
      for (let attempt = 0; attempt < 5; attempt++) {
        const box = await firstLine.boundingBox();
        await page.mouse.move(box.x + 60 + attempt * 10, box.y + box.height / 2);
        if (
          await hover.waitFor({ state: 'visible', timeout: 4000 }).then(
            () => true,
            () => false,
          )
        )
          break;
        await page.mouse.move(box.x + 400, box.y + 300);
      }
      await hover.waitFor({ state: 'visible', timeout: 5000 });
      await page.waitForFunction(
        () => ![...document.querySelectorAll('.monaco-hover')].some((h) => h.offsetParent && /Loading/.test(h.innerText)),
        null,
        { timeout: 10_000 },
      );
      await page.waitForTimeout(600);
      await shot('04-file-notes.png');
    });
  }
} catch (err) {
  exitCode = 1;
  console.error(`lore: screenshots failed: ${err.message}`);
  console.error(`--- code-server (last lines) ---\n${server ? server.log.tail(20) : ''}`);
  for (const f of findFiles(path.join(sandbox.userData, 'logs'), /(exthost[^/]*\.log|Lore\.log)$/)) {
    console.error(`--- ${path.relative(sandbox.dir, f)} (last lines) ---\n${tailFile(f, 20)}`);
  }
}

await Promise.race([context?.close().catch(() => {}), new Promise((r) => setTimeout(r, 5000))]);
if (server) await server.stop();
if (exitCode === 0 && !opts.keep) fs.rmSync(sandbox.dir, { recursive: true, force: true });
else console.error(`lore: sandbox kept: ${sandbox.dir}`);
if (saved.length) console.log(`lore: ${saved.length} screenshot(s):\n  ${saved.join('\n  ')}`);
process.exit(exitCode);

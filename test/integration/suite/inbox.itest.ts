import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LoreApi } from '../../../src/extension/extension';
import type { InboxNode } from '../../../src/extension/views/inboxTree';
import type { LedgerGroupNode } from '../../../src/extension/views/ledgerTree';
import { activateLore, until, useProvider } from './support';

const transcript = (id: string, marker: string) =>
  `---\nsession_id: ${id}\nstarted: 2026-11-21T10:00:00Z\n---\n\n# ${id}\n\n## 10:00 — user\n${marker}\n\n## 10:01 — agent\nOk.\n`;

describe('Lore inbox and agent hooks in VS Code', function () {
  this.timeout(60_000);
  let lore: LoreApi;

  before(async () => {
    lore = await activateLore();
    if (!lore.store.exists) await vscode.commands.executeCommand('lore.initStore');
    await vscode.commands.executeCommand('lore.discardHarvest');
  });

  it('contributes Install Agent Hooks…, Remove Agent Hooks and Harvest Now', async () => {
    const commands = await vscode.commands.getCommands(true);
    for (const id of ['lore.installHooks', 'lore.removeHooks', 'lore.harvestInbox']) assert.ok(commands.includes(id), id);
  });

  it('the Inbox view lists inbox files and queued sessions; the scheduled harvest takes both, reclaiming only the inbox copy', async () => {
    const paths = lore.store.paths;
    // The suites after this one expect the fixture store as it was: its files are put back afterwards,
    // and the conversations already waiting in the inbox wait elsewhere meanwhile.
    const kept = new Map(
      fs
        .readdirSync(paths.root)
        .filter((n) => /\.(md|json)$/.test(n))
        .map((n) => [n, fs.readFileSync(path.join(paths.root, n))]),
    );
    const aside = fs.mkdtempSync(path.join(os.tmpdir(), 'lore-itest-aside-'));
    const waiting = fs.existsSync(paths.inbox) ? fs.readdirSync(paths.inbox) : [];
    for (const name of waiting) fs.renameSync(path.join(paths.inbox, name), path.join(aside, name));
    const inboxFile = path.join(paths.inbox, 'claude-itest-hook-0123456789ab.md');
    fs.mkdirSync(paths.inbox, { recursive: true });
    fs.writeFileSync(inboxFile, transcript('itest-hook', 'Decision: hooks copy sessions into the inbox.'));
    // A session queued where its tool keeps it (as `lore hook` writes it on Stop), old enough not to be live.
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'lore-itest-queued-'));
    const queuedTranscript = path.join(elsewhere, 'itest-queued.md');
    fs.writeFileSync(queuedTranscript, transcript('itest-queued', 'Fact: queued sessions are read where they lie.'));
    const old = new Date(Date.now() - 60 * 60_000);
    fs.utimesSync(queuedTranscript, old, old);
    const queueDir = path.join(paths.root, 'queue');
    fs.mkdirSync(queueDir, { recursive: true });
    const entry = path.join(queueDir, 'claude-itest-queued.json');
    fs.writeFileSync(
      entry,
      JSON.stringify({
        sessionId: 'itest-queued',
        transcript: queuedTranscript,
        cwd: paths.workspace,
        event: 'Stop',
        at: '2026-11-21T10:05:00.000Z',
      }),
    );
    try {
      const nodes = (await lore.views.inbox.getChildren()) as InboxNode[];
      assert.deepEqual(
        nodes.map((n) => [n.kind, n.path]),
        [
          ['file', inboxFile],
          ['queued', queuedTranscript],
        ],
      );
      // Named by what was asked, not by the file or session id (those are in the tooltip): the
      // language server reads the titles, so the rows show their file names until it answered.
      const labelOf = (node: InboxNode) => String(lore.views.inbox.getTreeItem(node).label);
      await until(
        'the language server named the inbox rows',
        () =>
          labelOf(nodes[0]) === 'Decision: hooks copy sessions into the inbox.' &&
          labelOf(nodes[1]) === 'Fact: queued sessions are read where they lie.',
      );
      const fileItem = lore.views.inbox.getTreeItem(nodes[0]);
      assert.equal(fileItem.label, 'Decision: hooks copy sessions into the inbox.');
      assert.match(String(fileItem.description), /^today \d\d:\d\d · [\d.]+ K?B$/);
      assert.match(String(fileItem.tooltip), /claude-itest-hook-0123456789ab\.md/);
      const queuedItem = lore.views.inbox.getTreeItem(nodes[1]);
      assert.equal(queuedItem.label, 'Fact: queued sessions are read where they lie.');
      assert.match(String(queuedItem.description), /^queued 21 Nov( 2026)? · /);
      assert.equal(queuedItem.contextValue, 'lore.queuedSession');

      await useProvider('rules');
      const report = await lore.runScheduledHarvest();
      assert.ok(report, 'the scheduled harvest ran');
      const statusOf = (file: string) => report.conversations.find((c) => c.path === file)?.status;
      assert.equal(statusOf(inboxFile), 'harvested');
      assert.equal(statusOf(queuedTranscript), 'harvested');
      assert.ok(!fs.existsSync(inboxFile), 'the inbox copy is reclaimed after the proven harvest');
      assert.ok(fs.existsSync(queuedTranscript), 'a queued transcript is never deleted');
      assert.match(fs.readFileSync(path.join(paths.root, 'decisions.md'), 'utf8'), /hooks copy sessions into the inbox/);
      // The Ledger names the harvested conversation by its title, also now that the inbox copy is gone.
      const groups = (await lore.views.ledger.getChildren()) as unknown as LedgerGroupNode[];
      const harvested = groups.find((g) => g.kind === 'group' && g.status === 'harvested')!;
      const hookEntry = harvested.entries.find((e) => e.entry.path === inboxFile)!;
      assert.equal(hookEntry.entry.title, 'Decision: hooks copy sessions into the inbox.');
      const ledgerItem = lore.views.ledger.getTreeItem(hookEntry);
      assert.equal(ledgerItem.label, 'Decision: hooks copy sessions into the inbox.');
      assert.match(String(ledgerItem.description), /^today \d\d:\d\d · /);
      // Both proven: the inbox copy was reclaimed, the queued entry settled (its transcript unchanged).
      const left = (await lore.views.inbox.getChildren()) as unknown as Array<{ kind: string }>;
      assert.deepEqual(
        left.filter((n) => n.kind !== 'sources-hint'),
        [],
      );
      assert.ok(!fs.existsSync(entry));
    } finally {
      fs.rmSync(inboxFile, { force: true });
      fs.rmSync(entry, { force: true });
      fs.rmSync(elsewhere, { recursive: true, force: true });
      for (const name of waiting) fs.renameSync(path.join(aside, name), path.join(paths.inbox, name));
      for (const name of fs.readdirSync(paths.root).filter((n) => /\.(md|json)$/.test(n) && !kept.has(n)))
        fs.rmSync(path.join(paths.root, name));
      for (const [name, bytes] of kept) fs.writeFileSync(path.join(paths.root, name), bytes);
      await useProvider(undefined);
    }
  });
  it('an empty inbox names the sessions found on this machine and leads to Import Conversations…', async () => {
    const paths = lore.store.paths;
    const waiting = fs.readdirSync(paths.inbox);
    const aside = fs.mkdtempSync(path.join(os.tmpdir(), 'lore-itest-inbox-aside-'));
    for (const name of waiting) fs.renameSync(path.join(paths.inbox, name), path.join(aside, name));
    const history = path.join(paths.workspace, '.aider.chat.history.md');
    fs.writeFileSync(history, '# aider chat started at 2026-11-20 10:00:00\n\n#### Which port does the dev server use?\n\nPort 5173.\n');
    try {
      lore.views.ledger.rescanSources(); // The listing is shared: forgetting it once lists the sessions again for both views.
      const nodes = (await lore.views.inbox.getChildren()) as unknown as Array<{
        kind: string;
        role: string;
        tool?: string;
        toTreeItem(): vscode.TreeItem;
      }>;
      assert.deepEqual(
        nodes.map((n) => [n.kind, n.role, n.tool]),
        [
          ['sources-hint', 'found', undefined],
          ['sources-hint', 'tool', 'aider'],
        ],
      );
      assert.equal(nodes[1].toTreeItem().command?.command, 'lore.importConversations');
    } finally {
      fs.rmSync(history, { force: true });
      for (const name of waiting) fs.renameSync(path.join(aside, name), path.join(paths.inbox, name));
      lore.views.ledger.rescanSources();
    }
  });
});

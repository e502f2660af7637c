import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LoreApi } from '../../../src/extension/extension';
import { activateWithStore, startCleanHarvest, storeSnapshot, until, useProvider } from './support';
import { startStub } from '../../helpers/stubServers';

const CONVERSATION = `---
session_id: itest-1
started: 2026-11-20T10:00:00Z
---

# Integration

## 10:00 — user
Fact: integration tests run inside code-server.
TODO: keep the harness fast.
Why does the watcher fire twice?
`;

const VALID = JSON.stringify({
  facts: [{ statement: 'The stub answered through the OpenAI SDK.', detail: '' }],
  decisions: [],
  tasks_done: [],
  tasks_open: [],
  questions: [],
  playbooks: [],
  files: [],
});

function digestTexts(lore: LoreApi): string[] {
  return (lore.views.digest.getChildren() as unknown as Array<{ items: Array<{ text: string }> }>).flatMap((s) =>
    s.items.map((i) => i.text),
  );
}

describe('Lore harvest in VS Code', function () {
  this.timeout(60_000);
  let lore: LoreApi;
  let root: string;

  before(async () => {
    lore = await activateWithStore();
    root = lore.store.paths.root;
  });

  beforeEach(() => startCleanHarvest(root));

  after(() => useProvider(undefined));

  it('contributes its commands', async () => {
    const commands = await vscode.commands.getCommands(true);
    for (const id of [
      'lore.harvest',
      'lore.applyHarvest',
      'lore.regenerateDigest',
      'lore.openStore',
      'lore.initStore',
      'lore.showLog',
      'lore.setApiKey',
    ]) {
      assert.ok(commands.includes(id), id);
    }
  });

  it('rules provider: previews without writing, applies on accept, views show the items', async () => {
    const inboxFile = path.join(root, 'inbox', 'itest-rules.md');
    fs.writeFileSync(inboxFile, CONVERSATION);
    const before = storeSnapshot(root);
    const report = await lore.harvestWithoutDialogs({ showDiff: false });
    assert.ok(report?.plan, 'a plan was produced');
    assert.ok(report.plan.changes.some((c: any) => c.file === 'facts.md'));
    assert.deepEqual(storeSnapshot(root), before, 'nothing written before apply');
    assert.ok(lore.harvest.pending);

    await vscode.commands.executeCommand('lore.applyHarvest');
    assert.match(
      fs.readFileSync(path.join(root, 'facts.md'), 'utf8'),
      /- integration tests run inside code-server\. \[from: itest-1, 2026-11-20\]/,
    );
    assert.ok(!fs.existsSync(inboxFile), 'inbox conversation reclaimed');
    await until('Digest view shows the harvested fact', () =>
      digestTexts(lore).some((t) => t.startsWith('integration tests run inside code-server.')),
    );
    const ledgerGroups = lore.views.ledger.getChildren() as unknown as Array<{
      status: string;
      entries: Array<{ toTreeItem(): vscode.TreeItem }>;
      toTreeItem(): vscode.TreeItem;
    }>;
    const harvestedGroup = ledgerGroups.find((g) => g.status === 'harvested' && g.entries.length >= 1);
    assert.ok(harvestedGroup);
    // Statuses and what happened to the inbox file read as words, not ledger.json's names.
    assert.equal(harvestedGroup.toTreeItem().label, 'Harvested');
    // appendText escapes: spaces come back as &nbsp;.
    const tooltips = harvestedGroup.entries.map((e) => (e.toTreeItem().tooltip as vscode.MarkdownString).value.replace(/&nbsp;/g, ' '));
    assert.ok(
      tooltips.some((t) => t.includes('removed from the inbox after the harvest')),
      tooltips.join('\n---\n'),
    );
    assert.ok(!tooltips.some((t) => /reclaimed|^harvested at/m.test(t)), tooltips.join('\n---\n'));
    const knowledge = (await lore.views.knowledge.getChildren()) as unknown as Array<{ label: string; count: number }>;
    assert.ok(knowledge.find((k) => k.label === 'facts.md')!.count >= 1);
  });

  it('OpenAI-compatible stub: one model call for preview and apply, diff editor shows the proposal', async () => {
    const stub = await startStub('openai', [
      { reply: VALID },
      { reply: VALID.replace('The stub answered', 'A second distillation answered') },
    ]);
    try {
      await useProvider('openai', stub.baseUrl);
      fs.writeFileSync(
        path.join(root, 'inbox', 'itest-openai.md'),
        CONVERSATION.replace('itest-1', 'itest-2').replace('Fact: integration', 'Fact: openai integration'),
      );
      const before = storeSnapshot(root);
      const report = await lore.harvestWithoutDialogs();
      assert.ok(report?.plan);
      assert.equal(stub.requests.length, 1);
      assert.deepEqual(storeSnapshot(root), before, 'nothing written before apply');
      await until('a lore-plan diff editor is open', () =>
        vscode.window.tabGroups.all.some((g) =>
          g.tabs.some((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === 'lore-plan'),
        ),
      );
      // Without the reply cache, re-running the pipeline would have to ask the model again.
      fs.rmSync(path.join(root, '.cache'), { recursive: true, force: true });
      const shownFacts = report.plan.changes.find((c) => c.file === 'facts.md')!.after!;
      await vscode.commands.executeCommand('lore.applyHarvest');
      assert.equal(stub.requests.length, 1, 'apply made no model call');
      assert.equal(fs.readFileSync(path.join(root, 'facts.md'), 'utf8'), shownFacts, 'apply wrote exactly the previewed facts.md');
      assert.match(shownFacts, /The stub answered through the OpenAI SDK\. \[from: itest-2, 2026-11-20\]/);
    } finally {
      await stub.close();
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });

  it("Summarize Today's Journal: the configured provider's summary goes into today's journal, which opens", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const journal = path.join(root, 'journal', `${today}.md`);
    assert.ok(fs.existsSync(journal), "the harvests above wrote today's journal");
    const stub = await startStub('openai', [{ reply: '- The stub summarized the day.' }]);
    try {
      await useProvider('openai', stub.baseUrl);
      await vscode.commands.executeCommand('lore.summarizeJournal');
      assert.equal(stub.requests.length, 1);
      // Other suites may have added to today's journal first (a note by hand, an agent's write): the harvests' sections are in it.
      assert.match(
        stub.requests[0].prompt.user,
        /# Journal \d{4}-\d{2}-\d{2}\n[\s\S]*\n## itest-/,
        `the model read the journal: ${stub.requests[0].prompt.user.slice(0, 400)}`,
      );
      const written = fs.readFileSync(journal, 'utf8');
      assert.match(written, /\n## Summary\n\n- The stub summarized the day\.\n\n## /);
      assert.match(written, /\n## itest-/);
      await until('the journal is open', () => vscode.window.activeTextEditor?.document.uri.fsPath === journal);
    } finally {
      await stub.close();
      await useProvider('rules');
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });

  it('a hand edit of facts.md shows up in the Digest view', async () => {
    const facts = path.join(root, 'facts.md');
    fs.appendFileSync(facts, '- A fact typed by hand in the editor.\n');
    await until('Digest view shows the hand-written fact', () => digestTexts(lore).includes('A fact typed by hand in the editor.'));
    assert.match(fs.readFileSync(path.join(root, 'digest.md'), 'utf8'), /A fact typed by hand in the editor\./);
    // Clicking the item opens facts.md at that item's line.
    const sections = lore.views.digest.getChildren() as unknown as Array<{ items: Array<{ text: string; toTreeItem(): vscode.TreeItem }> }>;
    const node = sections.flatMap((s) => s.items).find((i) => i.text === 'A fact typed by hand in the editor.')!;
    const command = node.toTreeItem().command!;
    await vscode.commands.executeCommand(command.command, ...(command.arguments ?? []));
    const editor = vscode.window.activeTextEditor!;
    assert.equal(editor.document.uri.fsPath, facts);
    assert.equal(editor.document.lineAt(editor.selection.active.line).text, '- A fact typed by hand in the editor.');
  });

  it('a deleted digest.md stays deleted through hand edits; Regenerate Digest brings it back', async () => {
    const digest = path.join(root, 'digest.md');
    const facts = path.join(root, 'facts.md');
    let changes = 0;
    const listening = lore.store.onDidChange(() => changes++);
    try {
      fs.rmSync(digest);
      await until('the store saw digest.md go', () => changes > 0);
      changes = 0;
      fs.appendFileSync(facts, '- Typed while the digest is off.\n');
      // The store's change event fires after the automatic refresh has run (or declined to).
      await until('the store saw the hand edit', () => changes > 0);
      assert.ok(!fs.existsSync(digest), 'the hand edit did not turn the digest back on');
    } finally {
      listening.dispose();
    }
    await vscode.commands.executeCommand('lore.regenerateDigest');
    assert.match(fs.readFileSync(digest, 'utf8'), /Typed while the digest is off\./);
  });

  it('a preview that went stale is not applied: nothing is written and the plan is dropped', async () => {
    const inboxFile = path.join(root, 'inbox', 'itest-stale.md');
    fs.writeFileSync(inboxFile, CONVERSATION.replace('itest-1', 'itest-4').replace('Fact: integration', 'Fact: stale integration'));
    try {
      const report = await lore.harvestWithoutDialogs({ showDiff: false });
      assert.ok(report?.plan?.changes.some((c: any) => c.file === 'facts.md'));
      fs.appendFileSync(inboxFile, '\n## 10:05 — user\nFact: written after the preview.\n');
      const before = storeSnapshot(root);
      const applied = await vscode.commands.executeCommand<any>('lore.applyHarvest');
      assert.match(applied?.stale?.join('\n') ?? '', /itest-stale\.md changed since the preview/);
      assert.deepEqual(storeSnapshot(root), before, 'nothing written');
      assert.equal(lore.harvest.pending, undefined);
    } finally {
      fs.rmSync(inboxFile, { force: true });
    }
  });

  it('cancelling a harvest leaves no partial writes', async () => {
    const stub = await startStub('openai', [{ reply: VALID }, { hang: true }, { hang: true }]);
    try {
      await useProvider('openai', stub.baseUrl);
      fs.writeFileSync(path.join(root, 'inbox', 'a-first.md'), CONVERSATION.replace('itest-1', 'itest-3a'));
      fs.writeFileSync(path.join(root, 'inbox', 'b-second.md'), CONVERSATION.replace('itest-1', 'itest-3b'));
      const before = storeSnapshot(root);
      const running = lore.harvestWithoutDialogs({ showDiff: false });
      await until('the second conversation is being distilled', () => stub.requests.length >= 2);
      await vscode.commands.executeCommand('lore.cancelHarvest');
      const result = await running;
      assert.equal(result, undefined, 'cancelled harvest returns no plan');
      assert.equal(lore.harvest.pending, undefined);
      assert.deepEqual(storeSnapshot(root), before, 'no partial writes');
    } finally {
      await stub.close();
      fs.rmSync(path.join(root, 'inbox', 'a-first.md'), { force: true });
      fs.rmSync(path.join(root, 'inbox', 'b-second.md'), { force: true });
    }
  });
  it('a corrupt ledger.json shows as an error in the Ledger view that opens the file, not as an empty view', async () => {
    const ledgerFile = path.join(root, 'ledger.json');
    const original = fs.readFileSync(ledgerFile);
    try {
      fs.writeFileSync(ledgerFile, '{"entries": {');
      const [node] = lore.views.ledger.getChildren() as unknown as Array<{ kind: string; message: string; toTreeItem(): vscode.TreeItem }>;
      assert.equal(node.kind, 'error');
      assert.match(node.message, /is not a valid ledger/);
      const item = node.toTreeItem();
      assert.equal(item.label, 'Cannot read ledger.json');
      assert.equal(item.command?.command, 'vscode.open');
      assert.equal((item.command?.arguments?.[0] as vscode.Uri).fsPath, ledgerFile);
    } finally {
      fs.writeFileSync(ledgerFile, original);
    }
  });
});

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LoreApi } from '../../../src/extension/extension';
import { failuresSentence } from '../../../src/extension/harvest/harvestFailures';
import { planTabs } from '../../../src/extension/harvest/pendingPlanStatus';
import type { PlanRow } from '../../../src/extension/harvest/planTreeModel';
import { startStub } from '../../helpers/stubServers';
import { activateWithStore, startCleanHarvest, storeSnapshot, until, useProvider } from './support';

const conversation = (id: string, fact: string) => `---
session_id: ${id}
started: 2026-11-22T10:00:00Z
---

# Plan

## 10:00 — user
Fact: ${fact}
TODO: look at the plan view.
`;

const VALID = JSON.stringify({
  facts: [{ statement: 'The plan view lists what the stub answered.', detail: '' }],
  decisions: [],
  tasks_done: [],
  tasks_open: [],
  questions: [],
  playbooks: [],
  files: [],
});

function section(rows: PlanRow[], name: string): PlanRow[] {
  const found = rows.find((r) => r.kind === 'section' && r.section === name);
  return found?.kind === 'section' ? found.children : [];
}

describe('Lore: the Harvest Plan view', function () {
  this.timeout(60_000);
  let lore: LoreApi;
  let root: string;
  const inbox = (name: string) => path.join(root, 'inbox', name);

  before(async () => {
    lore = await activateWithStore();
    root = lore.store.paths.root;
  });

  beforeEach(() => startCleanHarvest(root));

  afterEach(async () => {
    await vscode.commands.executeCommand('lore.discardHarvest');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const name of ['itest-plan.md', 'a-plan-ok.md', 'b-plan-bad.md']) fs.rmSync(inbox(name), { force: true });
  });

  after(() => useProvider(undefined));

  it('a preview shows the view with its files and items; it stays while the diff is open, and Apply empties it', async () => {
    fs.writeFileSync(inbox('itest-plan.md'), conversation('itest-plan', 'the plan view stays until decided.'));
    // Only this conversation (the workspace's inbox has others).
    const report = await lore.harvestWithoutDialogs({ sources: [inbox('itest-plan.md')] });
    assert.ok(report?.plan && lore.harvest.pending);
    await until('the Harvest Plan view is shown', () => lore.planView.view.visible);
    await until('a proposed diff is open', () => planTabs().length > 0);

    const rows = lore.planView.rows();
    assert.equal(rows[0].kind, 'summary');
    assert.match(rows[0].label, /^1 fact, 1 open task into \d+ files$/);
    const files = section(rows, 'files').map((f) => f.label);
    assert.ok(files.includes('facts.md') && files.includes('tasks.md'), files.join(', '));
    const items = section(rows, 'items').map((i) => i.label);
    assert.ok(items.includes('the plan view stays until decided.'), items.join(' | '));
    assert.ok(items.includes('look at the plan view.'), items.join(' | '));

    // A file row opens that file's diff, as Review Changes does.
    const tasks = section(rows, 'files').find((f) => f.kind === 'file' && f.file === 'tasks.md')!;
    const command = lore.planView.getTreeItem(tasks).command!;
    await vscode.commands.executeCommand(command.command, ...(command.arguments ?? []));
    await until('the tasks.md diff is the active tab', () => {
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      return input instanceof vscode.TabInputTextDiff && input.modified.path === '/tasks.md';
    });
    // A notification would be gone by now; the view is not.
    await new Promise((r) => setTimeout(r, 1500));
    assert.ok(lore.planView.view.visible, 'the view stays while the diff is read');
    assert.ok(lore.harvest.pending);

    await vscode.commands.executeCommand('lore.applyHarvest');
    assert.match(fs.readFileSync(path.join(root, 'facts.md'), 'utf8'), /the plan view stays until decided\./);
    assert.deepEqual(lore.planView.rows(), []);
    await until('the Harvest Plan view is gone', () => !lore.planView.view.visible);
  });

  it('a conversation the model answered with nonsense is listed with the reason, the rest can be applied', async () => {
    const stub = await startStub('openai', [{ reply: VALID }, { reply: 'not json' }, { reply: 'still not json' }]);
    try {
      await useProvider('openai', stub.baseUrl);
      fs.writeFileSync(inbox('a-plan-ok.md'), conversation('itest-plan-a', 'a first one.'));
      fs.writeFileSync(inbox('b-plan-bad.md'), conversation('itest-plan-b', 'a second one.'));
      const report = await lore.harvestWithoutDialogs({ sources: [inbox('a-plan-ok.md'), inbox('b-plan-bad.md')], showDiff: false });
      assert.ok(report?.plan && lore.harvest.pending, 'the conversation that worked can be applied');
      await until('the Harvest Plan view is shown', () => lore.planView.view.visible);
      const problems = section(lore.planView.rows(), 'problems');
      assert.equal(problems.length, 1);
      assert.equal(problems[0].label, 'b-plan-bad.md');
      assert.match((problems[0] as { description: string }).description, /^The model's reply could not be read/);
    } finally {
      await stub.close();
    }
  });

  it('a provider that cannot be reached: the reason in words, and no plan to apply', async () => {
    await useProvider('openai', 'http://127.0.0.1:9/v1');
    fs.writeFileSync(inbox('itest-plan.md'), conversation('itest-plan-down', 'nobody answers.'));
    const before = storeSnapshot(root);
    const report = await lore.harvestWithoutDialogs({ sources: [inbox('itest-plan.md')], showDiff: false });
    assert.ok(report);
    assert.equal(lore.harvest.pending, undefined, 'nothing to apply: the plan would write nothing');
    assert.ok(!lore.planView.view.visible);
    // The message the person reads, made from this harvest's report as the command makes it.
    assert.match(
      failuresSentence(report.conversations).text,
      /^1 conversation could not be distilled\. Could not reach http:\/\/127\.0\.0\.1:9\/v1( \([^)]+\))?: check lore\.baseUrl, or choose another way to distill\.$/,
    );
    assert.deepEqual(storeSnapshot(root), before, 'nothing written');
  });
});

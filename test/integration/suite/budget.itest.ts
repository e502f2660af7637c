import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LoreApi } from '../../../src/extension/extension';
import { activateWithStore, startCleanHarvest, until, useProvider } from './support';
import { startStub } from '../../helpers/stubServers';

const conversation = (id: string, fact: string) => `---
session_id: ${id}
started: 2026-11-21T10:00:00Z
---

# Budget

## 10:00 — user
Fact: ${fact}
`;

const VALID = JSON.stringify({ facts: [{ statement: 'The budget stub answered.', detail: '' }] });

interface TreeNodeLike {
  kind: string;
  toTreeItem(): vscode.TreeItem;
}

describe('Lore spending caps in VS Code', function () {
  this.timeout(60_000);
  let lore: LoreApi;
  let root: string;
  const settings = () => vscode.workspace.getConfiguration('lore');

  before(async () => {
    lore = await activateWithStore();
    root = lore.store.paths.root;
  });

  beforeEach(() => startCleanHarvest(root));

  after(async () => {
    await useProvider(undefined);
    await settings().update('model', undefined, vscode.ConfigurationTarget.Global);
    await settings().update('budget.dailyTokens', undefined, vscode.ConfigurationTarget.Global);
  });

  it("the Ledger view leads with the month's spending, and a scheduled harvest stops at lore.budget.dailyTokens without a call", async () => {
    // Every conversation the workspace offers gets the same reply and usage.
    const answer = { reply: VALID, usage: { input: 20_000, output: 1_000 } };
    const stub = await startStub('openai', [], { whenExhausted: answer });
    try {
      await useProvider('openai', stub.baseUrl);
      await settings().update('model', 'gpt-4o-mini', vscode.ConfigurationTarget.Global);
      const first = path.join(root, 'inbox', 'itest-budget-1.md');
      fs.writeFileSync(first, conversation('itest-budget-1', 'budgets are checked per conversation.'));
      // Only this conversation: the workspace's others are the first-run suite's to harvest.
      const report = await lore.harvestWithoutDialogs({ sources: [first] });
      const calls = stub.requests.length;
      assert.equal(calls, 1);
      assert.equal(report?.spending?.run.tokens, 21_000, 'the usage the provider reported');
      await vscode.commands.executeCommand('lore.applyHarvest');

      let top: vscode.TreeItem | undefined;
      await until('the Ledger view shows the spending row', () => {
        const [first] = lore.views.ledger.getChildren() as unknown as TreeNodeLike[];
        top = first?.kind === 'spending' ? first.toTreeItem() : undefined;
        return top !== undefined;
      });
      assert.match(String(top!.label), /^This month: \d.* tokens, \$\d/);
      assert.match(String(top!.tooltip), /openai gpt-4o-mini.*: \d.* tokens, \$/);

      await settings().update('budget.dailyTokens', 1, vscode.ConfigurationTarget.Global);
      fs.writeFileSync(path.join(root, 'inbox', 'itest-budget-2.md'), conversation('itest-budget-2', 'the cap leaves this one for later.'));
      const scheduled = await lore.runScheduledHarvest();
      assert.equal(stub.requests.length, calls, 'no call past the cap');
      assert.equal(scheduled?.spending?.stop?.cap, 'dailyTokens');
      assert.match(scheduled!.spending!.stop!.text, /Raise lore\.budget\.dailyTokens in settings, or wait until tomorrow/);
      assert.ok(fs.existsSync(path.join(root, 'inbox', 'itest-budget-2.md')), 'left in the inbox for a later harvest');
    } finally {
      await stub.close();
      // The suites after this one share the workspace and expect nothing harvested: the ledger entry, the fact and the
      // conversation's transcript go; what was spent stays in .logs/, as it does for a person who undoes a harvest.
      await lore.harvest.undo();
      for (const name of ['itest-budget-1.md', 'itest-budget-2.md']) fs.rmSync(path.join(root, 'inbox', name), { force: true });
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });
});

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LoreApi } from '../../../src/extension/extension';
import { planTabs } from '../../../src/extension/harvest/pendingPlanStatus';
import { activateLore, storeSnapshot, until, useProvider } from './support';

const CONVERSATION = `---
session_id: itest-undo
started: 2026-11-21T10:00:00Z
---

# Undo

## 10:00 — user
Fact: undo puts the store back.
TODO: try the status bar.

## 10:01 — agent
Ok.
`;

/** The store as a person sees it: no caches, lock or private undo area. */
const snapshot = (dir: string) => storeSnapshot(dir, ['.undo']);

describe('Lore: pending plan in the status bar, Undo Last Harvest', function () {
  this.timeout(60_000);
  let lore: LoreApi;
  let root: string;

  before(async () => {
    lore = await activateLore();
    root = lore.store.paths.root;
    if (!lore.store.exists) await vscode.commands.executeCommand('lore.initStore');
    await useProvider('rules');
  });

  after(async () => {
    await vscode.commands.executeCommand('lore.discardHarvest');
    await useProvider(undefined);
  });

  it('the status bar item shows the Harvest Plan; Apply writes the plan, closes its diff tabs, and Undo puts everything back', async () => {
    const inboxFile = path.join(root, 'inbox', 'itest-undo.md');
    fs.writeFileSync(inboxFile, CONVERSATION);
    // Earlier suites edit facts.md by hand; the digest's automatic refresh of such an edit may still
    // be on its way, and it would land after the undo. Bring the digest up to date first.
    lore.store.regenerateDigest({ automatic: true });
    const before = snapshot(root);
    const report = await lore.harvestWithoutDialogs();
    assert.ok(report?.plan && lore.harvest.pending);
    await until('the plan status bar item is shown', () => lore.planStatus.shown);
    assert.match(lore.planStatus.item.text, /harvest plan ready/);
    await until('a proposed diff tab is open', () => planTabs().length > 0);

    // The item is a shortcut to the Harvest Plan view, whose title has Apply.
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    await until('the Harvest Plan view is hidden', () => !lore.planView.view.visible);
    await vscode.commands.executeCommand(lore.planStatus.item.command as string);
    await until('the status bar item showed the Harvest Plan view', () => lore.planView.view.visible);
    await vscode.commands.executeCommand('lore.applyHarvest');
    assert.equal(lore.harvest.pending, undefined);
    await until('the status bar item is hidden', () => !lore.planStatus.shown);
    await until('the proposed diff tabs are closed', () => planTabs().length === 0);
    assert.match(fs.readFileSync(path.join(root, 'facts.md'), 'utf8'), /undo puts the store back\./);
    assert.ok(!fs.existsSync(inboxFile), 'the conversation was reclaimed');

    const outcome = await lore.harvest.undo();
    assert.equal(outcome.status, 'undone');
    assert.deepEqual(snapshot(root), before, 'the store is as before the apply');
    assert.equal(fs.readFileSync(inboxFile, 'utf8'), CONVERSATION);
    assert.deepEqual(await lore.harvest.undo(), { status: 'nothing' });
  });

  it('Discard hides the status bar item and closes the proposed diff tabs, writing nothing', async () => {
    const before = snapshot(root);
    const report = await lore.harvestWithoutDialogs();
    assert.ok(report?.plan && lore.harvest.pending);
    await until('a proposed diff tab is open', () => planTabs().length > 0);
    assert.ok(lore.planStatus.shown);
    await vscode.commands.executeCommand('lore.discardHarvest');
    await until('the proposed diff tabs are closed', () => planTabs().length === 0);
    assert.ok(!lore.planStatus.shown);
    assert.deepEqual(snapshot(root), before);
    fs.rmSync(path.join(root, 'inbox', 'itest-undo.md'), { force: true });
  });

  it('contributes Undo Last Harvest and the plan actions', async () => {
    const commands = await vscode.commands.getCommands(true);
    for (const id of ['lore.undoHarvest', 'lore.harvestPlanActions']) assert.ok(commands.includes(id), id);
  });
});

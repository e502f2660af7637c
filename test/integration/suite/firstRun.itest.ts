import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LoreApi } from '../../../src/extension/extension';
import { VIEW_KEYS } from '../../../src/extension/views/viewKeys';
import { activateLore, until, useProvider } from './support';

interface Step {
  id: string;
  description: string;
  completionEvents: string[];
  when?: string;
}
interface Welcome {
  view: string;
  contents: string;
  when?: string;
}

const AIDER = `# aider chat started at 2026-11-20 10:00:00

#### Decision: show the sessions found when nothing was harvested yet.

Done.
`;

function manifest(): {
  contributes: { walkthroughs: Array<{ id: string; steps: Step[] }>; viewsWelcome: Welcome[] };
  capabilities: Record<string, unknown>;
} {
  return vscode.extensions.getExtension('lore-dev.lore')!.packageJSON;
}

describe('Lore first run in VS Code', function () {
  this.timeout(60_000);
  let lore: LoreApi;

  before(async () => {
    lore = await activateLore();
  });

  after(() => useProvider(undefined));

  it('contributes the walkthrough, and every command its steps run or complete on is registered', async () => {
    const [walkthrough] = manifest().contributes.walkthroughs;
    assert.equal(walkthrough.id, 'lore.firstRun');
    const registered = new Set(await vscode.commands.getCommands(true));
    for (const step of walkthrough.steps.filter((s) => !s.when)) {
      const named = [...step.description.matchAll(/\(command:([\w.]+)/g)]
        .map((m) => m[1])
        .concat(step.completionEvents.filter((e) => e.startsWith('onCommand:')).map((e) => e.slice('onCommand:'.length)));
      for (const command of named) assert.ok(registered.has(command), `${step.id}: ${command} is registered`);
    }
    assert.ok(
      walkthrough.steps.some((s) => s.completionEvents.includes('onCommand:lore.installHooks')),
      'the hooks step completes on Install Agent Hooks…',
    );
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', 'lore-dev.lore#lore.firstRun', false);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('sets the keys the walkthrough and the views read at activation, before any command ran', () => {
    assert.equal(lore.contextKeys.get('lore.storeExists'), true);
    // The fixture's store has knowledge (facts.md) and a conversation in its inbox, nothing harvested.
    assert.equal(lore.contextKeys.get('lore.hasKnowledge'), true);
    assert.equal(lore.contextKeys.get('lore.hasInbox'), true);
    assert.equal(lore.contextKeys.get('lore.hasHarvested'), false);
    const steps = manifest().contributes.walkthroughs[0].steps;
    // Lore may set a key before VS Code registers the walkthrough, which then never ticks the step
    // on that key: the step also completes on it once the walkthrough page is shown.
    for (const id of ['createStore', 'chooseDistiller'])
      assert.ok(
        steps.find((s) => s.id === id)?.completionEvents.some((e) => e.endsWith(' && activeEditor == gettingStartedPage')),
        id,
      );
  });

  it('shows a newcomer only the Digest view with its Harvest step, and the other views once the store has something', async () => {
    const visible = () =>
      Object.entries(lore.treeViews)
        .filter(([, view]) => view.visible)
        .map(([id]) => id);
    // The keys a store's contents set (prompt caches belong to the agents' sessions).
    const storeKeys = VIEW_KEYS.filter((key) => key !== 'lore.hasCaches');
    await vscode.commands.executeCommand('workbench.view.extension.lore');
    const root = lore.store.paths.root;
    const aside = `${root}-aside`;
    fs.renameSync(root, aside);
    try {
      lore.store.fireChanged();
      await until('no view has anything to show', () => storeKeys.every((key) => lore.contextKeys.get(key) === false));
      // Prompt caches belong to the agents' sessions, not to the store: earlier suites' @lore discussions may show them.
      const storeViews = () => visible().filter((id) => id !== 'lore.cache' || !lore.contextKeys.get('lore.hasCaches'));
      await until('the Digest view alone is on screen', () => JSON.stringify(storeViews()) === JSON.stringify(['lore.digest']));
      assert.equal(lore.treeViews['lore.digest'].title, 'Get Started');
      assert.deepEqual(await lore.views.digest.getChildren(), [], 'the welcome shows');
      const welcome = manifest().contributes.viewsWelcome.find(
        (w) => w.view === 'lore.digest' && w.when === '!lore.noStore && !lore.hasKnowledge && !lore.harvestPending',
      );
      assert.match(welcome?.contents ?? '', /^\[Harvest Conversations…\]\(command:lore\.harvest\)/);
    } finally {
      fs.renameSync(aside, root);
      lore.store.fireChanged();
    }
    await until(
      'the store has knowledge and an inbox again',
      () => !!lore.contextKeys.get('lore.hasKnowledge') && !!lore.contextKeys.get('lore.hasInbox'),
    );
    await until('the Knowledge and Inbox views appear', () => ['lore.knowledge', 'lore.inbox'].every((id) => visible().includes(id)));
    assert.equal(lore.treeViews['lore.digest'].title, 'Digest');
    assert.ok(!visible().includes('lore.ledger'), 'nothing harvested: no Ledger');
  });

  it('completes the store step on lore.storeExists: Initialize Store creates it', async () => {
    await vscode.commands.executeCommand('lore.initStore');
    assert.ok(lore.store.exists);
  });

  it('asks how to distill on the first harvest, and dismissing the question remembers nothing', async () => {
    await useProvider(undefined);
    assert.equal(lore.distill.isChosen(), false);
    let settled = false;
    const run = Promise.resolve(vscode.commands.executeCommand('lore.harvest')).finally(() => {
      settled = true;
    });
    await until('the harvest asks how to distill', () => lore.distill.asking);
    // Escape, as a person would; repeated, because the QuickPick reaches the screen a moment after it is asked for.
    await until('the question is dismissed', async () => {
      if (!settled) await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      return settled;
    });
    assert.equal(await run, undefined, 'no harvest without an answer');
    assert.equal(lore.distill.isChosen(), false);
  });

  it('remembers the choice in settings, so the next harvest does not ask', async () => {
    // A model chosen for another provider does not outlive the switch.
    await vscode.workspace.getConfiguration('lore').update('model', 'gpt-4.1-mini', vscode.ConfigurationTarget.Global);
    await lore.distill.remember('rules');
    assert.equal(vscode.workspace.getConfiguration('lore').inspect('provider')?.globalValue, 'rules');
    assert.equal(vscode.workspace.getConfiguration('lore').inspect('model')?.globalValue, undefined, "the old provider's model is dropped");
    assert.ok(lore.distill.isChosen());
    // With the inbox empty the command ends after its dry run, without a dialog to answer.
    const inbox = lore.store.paths.inbox;
    const aside = `${inbox}.aside`;
    fs.renameSync(inbox, aside);
    fs.mkdirSync(inbox);
    try {
      let asked = false;
      const watch = setInterval(() => {
        asked ||= lore.distill.asking;
      }, 20);
      const report = await vscode.commands.executeCommand<{ totals: unknown } | undefined>('lore.harvest');
      clearInterval(watch);
      if (asked) await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      assert.equal(asked, false, 'the second harvest did not ask');
      assert.ok(report?.totals, 'the harvest went straight to its dry run');
    } finally {
      fs.rmSync(inbox, { recursive: true, force: true });
      fs.renameSync(aside, inbox);
    }
  });

  it('completes the harvest step: the preview leaves a pending plan (lore.harvestPending)', async () => {
    const report = await lore.harvestWithoutDialogs({ showDiff: false });
    assert.ok(report?.plan, 'a plan was made');
    assert.ok(lore.harvest.pending, 'the plan is pending');
    await vscode.commands.executeCommand('lore.discardHarvest');
    assert.equal(lore.harvest.pending, undefined);
  });

  it('registers welcome content that leads an empty Ledger to Harvest Conversations…', () => {
    const ledger = manifest().contributes.viewsWelcome.find((w) => w.view === 'lore.ledger');
    assert.ok(ledger?.contents.includes('(command:lore.harvest)'));
  });

  it('names the sessions found on this machine in an empty Ledger view, with counts', async () => {
    assert.ok(
      !fs.existsSync(lore.store.paths.ledger) ||
        Object.keys(JSON.parse(fs.readFileSync(lore.store.paths.ledger, 'utf8')).entries).length === 0,
      'nothing harvested yet',
    );
    const history = path.join(lore.store.paths.workspace, '.aider.chat.history.md');
    fs.writeFileSync(history, AIDER);
    try {
      lore.views.ledger.rescanSources();
      const nodes = (await lore.views.ledger.getChildren()) as unknown as Array<{
        kind: string;
        role: string;
        tool?: string;
        label: string;
        toTreeItem(): vscode.TreeItem;
      }>;
      // The fixture's inbox holds one conversation.
      assert.deepEqual(
        nodes.map((n) => [n.kind, n.role, n.tool]),
        [
          ['sources-hint', 'inbox', undefined],
          ['sources-hint', 'found', undefined],
          ['sources-hint', 'tool', 'aider'],
        ],
      );
      assert.equal(nodes[0].label, '1 conversation in the inbox, not harvested yet');
      assert.equal(nodes[0].toTreeItem().command?.command, 'lore.harvest');
      assert.match(nodes[1].label, /^Found 1 session of this workspace on this machine, 1 new/);
      assert.match(nodes[2].label, /^Aider: 1 session, /);
      assert.equal(nodes[2].toTreeItem().command?.command, 'lore.importConversations');
    } finally {
      fs.rmSync(history, { force: true });
      lore.views.ledger.rescanSources();
    }
  });

  it('declares its workspace-trust and virtual-workspace capabilities', () => {
    const capabilities = manifest().capabilities as {
      untrustedWorkspaces: { supported: string; restrictedConfigurations: string[] };
      virtualWorkspaces: { supported: boolean };
    };
    assert.equal(capabilities.untrustedWorkspaces.supported, 'limited');
    assert.ok(capabilities.untrustedWorkspaces.restrictedConfigurations.includes('lore.baseUrl'));
    assert.equal(capabilities.virtualWorkspaces.supported, false);
  });
});

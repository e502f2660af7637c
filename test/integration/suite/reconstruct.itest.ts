import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LoreApi } from '../../../src/extension/extension';
import { activateLore, settledSnapshot, storeSnapshot, until } from './support';

/** The diff tabs open on files of `dir` (their right side). */
function diffTabsInto(dir: string): vscode.TabInputTextDiff[] {
  return vscode.window.tabGroups.all
    .flatMap((g) => g.tabs.map((t) => t.input))
    .filter((i): i is vscode.TabInputTextDiff => i instanceof vscode.TabInputTextDiff && i.modified.fsPath.startsWith(dir));
}

describe('Lore: Compare With Reconstructed Store…', function () {
  this.timeout(60_000);
  let lore: LoreApi;
  let root: string;

  before(async () => {
    lore = await activateLore();
    root = lore.store.paths.root;
    if (!lore.store.exists) await vscode.commands.executeCommand('lore.initStore');
  });

  it('opens a diff per category file that differs, writes nothing until Apply Difference, then adds and archives', async () => {
    const facts = path.join(root, 'facts.md');
    const live = fs.readFileSync(facts, 'utf8').replace(/\n*$/, '\n');
    fs.writeFileSync(facts, `${live}- the reconstruction test checks the compare command [from: itest-rc, 2026-11-20]\n`);
    // A reconstructed store (as lore reconstruct --out leaves it): a reworded fact, and one new question.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lore-rc-'));
    fs.writeFileSync(
      path.join(dir, 'reconstruction.json'),
      JSON.stringify({
        reconstructedFrom: root,
        workspace: lore.store.paths.workspace,
        provider: 'rules',
        prompt: 'default',
        at: '2026-11-27T00:00:00Z',
      }),
    );
    fs.writeFileSync(
      path.join(dir, 'facts.md'),
      `${live}- the reconstruction test checks the compare command and its diff view [from: itest-rc, 2026-11-20]\n`,
    );
    const questions = (
      fs.existsSync(path.join(root, 'questions.md')) ? fs.readFileSync(path.join(root, 'questions.md'), 'utf8') : '# Questions\n'
    ).replace(/\n*$/, '\n');
    fs.writeFileSync(
      path.join(dir, 'questions.md'),
      `${questions}- does the compare command open one diff per file? [from: itest-rc, 2026-11-20]\n`,
    );
    for (const name of ['decisions.md', 'playbooks.md', 'tasks.md']) {
      if (fs.existsSync(path.join(root, name))) fs.copyFileSync(path.join(root, name), path.join(dir, name));
    }
    // Once the digest followed the new fact (Lore regenerates it when facts.md changes on disk).
    const before = await settledSnapshot(root);

    void vscode.commands.executeCommand('lore.compareReconstructed', vscode.Uri.file(dir));
    await until('a diff of facts.md and of questions.md is open', () => diffTabsInto(dir).length === 2);
    const pairs = diffTabsInto(dir)
      .map((d) => [path.basename(d.original.fsPath), path.basename(d.modified.fsPath)])
      .sort();
    assert.deepEqual(pairs, [
      ['facts.md', 'facts.md'],
      ['questions.md', 'questions.md'],
    ]);
    assert.equal(diffTabsInto(dir)[0].original.fsPath.startsWith(root), true);
    assert.deepEqual(storeSnapshot(root), before, 'nothing written before Apply Difference');

    // The notification's primary action is Apply Difference.
    await until('Apply Difference was taken', async () => {
      await vscode.commands.executeCommand('notifications.focusToasts');
      await vscode.commands.executeCommand('notification.acceptPrimaryAction');
      return fs.readFileSync(facts, 'utf8').includes('and its diff view');
    });
    assert.ok(!fs.readFileSync(facts, 'utf8').includes('checks the compare command ['), 'the replaced fact left facts.md');
    assert.match(
      fs.readFileSync(path.join(root, 'archive', 'knowledge', 'facts.md'), 'utf8'),
      /checks the compare command \[from: itest-rc/,
    );
    assert.match(fs.readFileSync(path.join(root, 'questions.md'), 'utf8'), /one diff per file\?/);
    // The Knowledge view lists the archive, with what it holds.
    await until('the Knowledge view shows the archive', async () => {
      const roots = (await lore.views.knowledge.getChildren()) as Array<{ label?: string; count?: number }>;
      return roots.some((n) => n.label === 'archive/knowledge/' && (n.count ?? 0) >= 1);
    });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});

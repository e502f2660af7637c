import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LoreApi } from '../../../src/extension/extension';
import { until } from './support';

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=Test Person', '-c', 'user.email=person@example.com', ...args], { cwd, encoding: 'utf8' });
}

function hoverText(hovers: vscode.Hover[]): string {
  return hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : (c as vscode.MarkdownString).value))).join('\n');
}

describe('Lore history: the hover on a knowledge item', function () {
  this.timeout(60_000);
  let lore: LoreApi;
  let ws: string;

  before(async () => {
    lore = await vscode.extensions.getExtension<LoreApi>('lore-dev.lore')!.activate();
    if (!lore.store.exists) await vscode.commands.executeCommand('lore.initStore');
    ws = lore.store.paths.workspace;
    await lore.notes.ready();
  });

  after(async () => {
    // The workspace is shared with the other suites: it was no repository before. VS Code's own
    // git extension watches it now, so the editor closes first and the folder goes quietly.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    try {
      fs.rmSync(path.join(ws, '.git'), { recursive: true, force: true });
    } catch {
      // Left for the next run's fresh copy of the workspace.
    }
  });

  it('names the item, then when it was learned, from the workspace repository', async () => {
    const facts = path.join(lore.store.paths.root, 'facts.md');
    const item = '- the history hover reads git blame [from: ses-hover, 2026-11-20]';
    const before = fs.existsSync(facts) ? fs.readFileSync(facts, 'utf8') : '# Facts\n';
    git(ws, 'init', '-q');
    git(ws, 'add', '-A');
    git(ws, 'commit', '-q', '-m', 'the workspace as it was');
    fs.writeFileSync(facts, `${before.replace(/\n*$/, '\n')}${item}\n`);
    git(ws, 'commit', '-q', '-am', 'person: the hover fact');
    const document = await vscode.workspace.openTextDocument(facts);
    await vscode.window.showTextDocument(document);
    // An editor another suite left open on facts.md follows the file on disk a moment later.
    await until('the editor shows the committed fact', () => document.getText().includes(item));
    const line = document
      .getText()
      .split('\n')
      .findIndex((l) => l === item);
    assert.ok(line > 0);
    let text = '';
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline && !/Learned/.test(text)) {
      text = hoverText(
        await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', document.uri, new vscode.Position(line, 4)),
      );
      if (!/Learned/.test(text)) await new Promise((r) => setTimeout(r, 300));
    }
    assert.match(text, /\*\*Lore\*\* · item `[0-9a-z]{8}`/);
    // Escaped as every hover is: a commit subject is the person's text.
    assert.match(text, /Learned \d{4}-\d{2}-\d{2} from conversation ses\\-hover — person\\: the hover fact \([0-9a-f]{7}\)/);
  });
});

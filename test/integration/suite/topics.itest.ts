import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LoreApi } from '../../../src/extension/extension';
import { activateLore, until } from './support';

describe('Lore topics in VS Code', function () {
  this.timeout(60_000);
  let lore: LoreApi;
  let topics: string;

  before(async () => {
    lore = await activateLore();
    if (!lore.store.exists) await vscode.commands.executeCommand('lore.initStore');
    topics = path.join(lore.store.paths.root, 'topics');
  });

  after(() => fs.rmSync(topics, { recursive: true, force: true }));

  it('contributes New Topic… and Why This Context?', async () => {
    const commands = await vscode.commands.getCommands(true);
    for (const id of ['lore.newTopic', 'lore.whyThisContext']) assert.ok(commands.includes(id), id);
  });

  it('New Topic… writes a topic from the template and opens it; Why This Context? reports what a message activates', async () => {
    const file = await vscode.commands.executeCommand<string>('lore.newTopic', 'release-train');
    assert.equal(file, path.join(topics, 'release-train.md'));
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, file);
    const report = await vscode.commands.executeCommand<vscode.TextDocument>('lore.whyThisContext', 'when does the release train leave?');
    assert.equal(report.languageId, 'markdown');
    assert.match(report.getText(), /^# Why this context\n/);
    assert.match(report.getText(), /\| \*\*release\\-train\*\* \| auto, medium \| active, tier 1 \|/);
    assert.match(report.getText(), /## topic: release-train/);
    fs.rmSync(file);
  });

  it('lists the topics with their triggers, and an invalid topic file with its reason', async () => {
    fs.mkdirSync(topics, { recursive: true });
    fs.writeFileSync(
      path.join(topics, 'deploy.md'),
      '---\ntriggers:\n  - keywords: [deploy]\n  - pattern: "print "\n    scope: output\npriority: high\n---\nSmoke-test first.\n',
    );
    fs.writeFileSync(path.join(topics, 'broken.md'), '---\ntriggers:\n  - pattern: "(a"\n---\nx\n');
    lore.views.topics.refresh();
    type Node = { toTreeItem(): vscode.TreeItem; children?(): Node[] };
    let nodes: Node[] = [];
    await until('the Topics view lists two files', async () => {
      nodes = (await lore.views.topics.getChildren()) as Node[];
      return nodes.length === 2;
    });
    const [deploy, broken] = nodes.map((n) => n.toTreeItem());
    assert.equal(deploy.label, 'deploy');
    assert.match(String(deploy.description), /^auto, high/);
    assert.deepEqual(
      nodes[0].children!().map((c) => [c.toTreeItem().label, c.toTreeItem().description]),
      [
        ['keywords: deploy', 'input'],
        ['pattern: /print /', 'output'],
      ],
    );
    assert.equal(broken.label, 'broken.md');
    assert.match(String(broken.description), /skipped: triggers\.0\.pattern "\(a": invalid regular expression/);
  });
});

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LoreApi } from '../../../src/extension/extension';
import type { DigestItemNode, DigestSectionNode } from '../../../src/extension/views/digestTree';
import { activateLore, until, useProvider } from './support';

const FACT = 'the items itest fact came from a conversation';
const CONVERSATION = `---
session_id: itest-items
started: 2026-11-23T09:00:00Z
---

# Items

## 09:00 — user
Fact: ${FACT}.
`;

function digestItems(lore: LoreApi): DigestItemNode[] {
  return (lore.views.digest.getChildren() as unknown as DigestSectionNode[]).flatMap((s) => s.items);
}

async function digestItem(lore: LoreApi, what: string, match: (n: DigestItemNode) => boolean): Promise<DigestItemNode> {
  await until(`the Digest view shows ${what}`, () => digestItems(lore).some(match));
  return digestItems(lore).find(match)!;
}

describe('Lore knowledge items: context menu commands in VS Code', function () {
  this.timeout(60_000);
  let lore: LoreApi;
  let root: string;
  const read = (f: string) => fs.readFileSync(path.join(root, f), 'utf8');

  before(async () => {
    lore = await activateLore();
    if (!lore.store.exists) await vscode.commands.executeCommand('lore.initStore');
    root = lore.store.paths.root;
    await vscode.commands.executeCommand('lore.regenerateDigest');
  });

  after(async () => {
    await useProvider(undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('gives digest items a context menu, tasks a Mark Task Done, and the tree views Collapse All', () => {
    const manifest = vscode.extensions.getExtension('lore-dev.lore')!.packageJSON as {
      contributes: { menus: Record<string, Array<{ command: string; when: string }>> };
    };
    const menu = manifest.contributes.menus['view/item/context'].filter((e) => e.when.includes('view == lore.digest'));
    for (const command of ['lore.copyItemText', 'lore.revealItem', 'lore.openSourceConversation', 'lore.markTaskDone', 'lore.deleteItem'])
      assert.ok(
        menu.some((e) => e.command === command),
        command,
      );
  });

  it('Mark Task Done moves the task to ## Done in tasks.md', async () => {
    const task = 'ship the items itest [from: itest-items-task, 2026-11-23]';
    const tasks = read('tasks.md');
    fs.writeFileSync(path.join(root, 'tasks.md'), tasks.replace('## Open\n', `## Open\n\n- ${task}\n`));
    const node = await digestItem(lore, 'the new task', (n) => n.text.startsWith('ship the items itest'));
    assert.equal(node.toTreeItem().contextValue, 'lore.digestItem.openTask');
    await vscode.commands.executeCommand('lore.markTaskDone', node);
    const after = read('tasks.md');
    const done = after.indexOf('## Done');
    assert.ok(done > 0 && after.indexOf(`- ${task}`) > done, after);
    assert.equal(after.split(`- ${task}`).length, 2, 'the task is in the file once');
    await until(
      'the Digest view no longer lists it as open',
      () => !digestItems(lore).some((n) => n.text.startsWith('ship the items itest')),
    );
  });

  it('Delete removes the item from its category file and nothing else', async () => {
    const line = '- delete me in the items itest [from: itest-items-delete, 2026-11-23]\n';
    const before = read('facts.md');
    fs.writeFileSync(path.join(root, 'facts.md'), before + line);
    const node = await digestItem(lore, 'the fact to delete', (n) => n.text.startsWith('delete me in the items itest'));
    // The command asks first (a modal a test cannot answer); the API is the same code after the yes.
    assert.equal(await lore.editItem('delete', node), 'file');
    assert.equal(read('facts.md'), before);
  });

  it('Delete in a category file open with unsaved changes edits the document and keeps what the person typed', async () => {
    const line = '- delete me while facts.md is dirty [from: itest-items-dirty, 2026-11-23]\n';
    fs.appendFileSync(path.join(root, 'facts.md'), line);
    const node = await digestItem(lore, 'the fact to delete', (n) => n.text.startsWith('delete me while facts.md is dirty'));
    const onDisk = read('facts.md');
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(path.join(root, 'facts.md')));
    const typed = '- typed by a person, not saved yet';
    assert.ok(await editor.edit((b) => b.insert(new vscode.Position(editor.document.lineCount, 0), `${typed}\n`)));
    assert.equal(editor.document.isDirty, true);

    assert.equal(await lore.editItem('delete', node), 'document');
    assert.equal(read('facts.md'), onDisk, 'the file on disk is not written behind the open editor');
    const text = editor.document.getText();
    assert.ok(text.includes(typed), 'the unsaved text is still there');
    assert.ok(!text.includes('delete me while facts.md is dirty'), 'the item is gone from the document');
    assert.equal(editor.document.isDirty, true, "saving stays the person's choice");
    assert.ok(await editor.document.save());
    assert.ok(read('facts.md').includes(typed) && !read('facts.md').includes('delete me while facts.md is dirty'));
  });

  it('Open Source Conversation opens the stored transcript of the conversation an item came from', async () => {
    fs.writeFileSync(path.join(root, 'inbox', 'itest-items.md'), CONVERSATION);
    await useProvider('rules');
    await lore.harvestWithoutDialogs({ showDiff: false });
    await vscode.commands.executeCommand('lore.applyHarvest');
    const node = await digestItem(lore, 'the harvested fact', (n) => n.text.startsWith(FACT));
    await vscode.commands.executeCommand('lore.openSourceConversation', node);
    const opened = vscode.window.activeTextEditor?.document.uri.fsPath ?? '';
    assert.ok(opened.startsWith(path.join(root, 'transcripts') + path.sep), opened);
    assert.ok(vscode.window.activeTextEditor!.document.getText().includes(FACT));
  });

  it('Forget This Conversation… on a Ledger entry: the plan lists what goes, then the conversation leaves the files, the transcripts and search', async () => {
    const id = 'itest-forget';
    const fact = 'the forget itest fact is about wombats';
    fs.writeFileSync(path.join(root, 'inbox', `${id}.md`), CONVERSATION.replace('itest-items', id).replace(FACT, fact));
    await useProvider('rules');
    await lore.harvestWithoutDialogs({ showDiff: false });
    await vscode.commands.executeCommand('lore.applyHarvest');
    await until('facts.md holds the harvested fact', () => read('facts.md').includes(fact));
    const manifest = vscode.extensions.getExtension('lore-dev.lore')!.packageJSON as {
      contributes: { menus: Record<string, Array<{ command: string; when: string }>> };
    };
    assert.ok(
      manifest.contributes.menus['view/item/context'].some(
        (e) => e.command === 'lore.forgetConversation' && e.when.includes('view == lore.ledger'),
      ),
    );
    const entryOf = () => {
      // The first row may be this month's spending, which has no entries.
      const groups = lore.views.ledger.getChildren() as unknown as Array<{
        entries?: Array<{ entry: { id?: string }; toTreeItem(): vscode.TreeItem }>;
      }>;
      return groups.flatMap((g) => g.entries ?? []).find((e) => e.entry.id === id);
    };
    await until('the Ledger view lists the conversation', () => entryOf() !== undefined);
    assert.match(String(entryOf()!.toTreeItem().contextValue), /forgettable/);
    const plan = await lore.planForgetting(id);
    assert.ok(
      plan.removed.some((r) => r.line.includes(fact)),
      JSON.stringify(plan),
    );
    assert.ok(plan.files.some((f) => f.kind === 'transcript'));
    assert.ok(read('facts.md').includes(fact), 'the plan writes nothing');
    const result = await lore.forgetConversation(id);
    assert.equal(result.problems.length, 0);
    assert.ok(!read('facts.md').includes(fact));
    for (const f of plan.files) assert.ok(!fs.existsSync(path.join(root, f.file)), f.file);
    const hits = await lore.search.search('wombats');
    assert.deepEqual(hits.hits, []);
    await until('the Ledger view shows it forgotten', () => /^forgotten /.test(String(entryOf()?.toTreeItem().description ?? '')));
    assert.doesNotMatch(String(entryOf()!.toTreeItem().contextValue), /forgettable/);
  });
});

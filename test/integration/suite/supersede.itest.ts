import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { itemId } from '../../../src/core/model/itemId';
import type { LoreApi } from '../../../src/extension/extension';
import type { DigestItemNode, DigestSectionNode } from '../../../src/extension/views/digestTree';
import { activateLore, until } from './support';

const OLD = '- the supersede itest deploys through Jenkins [from: itest-sup-1, 2026-11-01]';
const NEW = '- the supersede itest deploys through GitHub Actions now [from: itest-sup-2, 2026-11-20]';

function digestItems(lore: LoreApi): DigestItemNode[] {
  return (lore.views.digest.getChildren() as unknown as DigestSectionNode[]).flatMap((s) => s.items);
}

describe('Lore supersession in VS Code', function () {
  this.timeout(60_000);
  let lore: LoreApi;
  let root: string;
  const read = (f: string) => fs.readFileSync(path.join(root, f), 'utf8');

  before(async () => {
    lore = await activateLore();
    if (!lore.store.exists) await vscode.commands.executeCommand('lore.initStore');
    root = lore.store.paths.root;
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('Supersede… marks the item, the digest drops it, the editor strikes it through and its id leads to the newer line', async () => {
    const manifest = vscode.extensions.getExtension('lore-dev.lore')!.packageJSON as {
      contributes: { menus: Record<string, Array<{ command: string; when: string }>> };
    };
    assert.ok(
      manifest.contributes.menus['view/item/context'].some(
        (e) => e.command === 'lore.supersedeItem' && e.when.includes('view == lore.digest'),
      ),
    );
    fs.appendFileSync(path.join(root, 'decisions.md'), `${OLD}\n${NEW}\n`);
    await vscode.commands.executeCommand('lore.regenerateDigest');
    await until('the Digest view shows the old item', () =>
      digestItems(lore).some((n) => n.text.startsWith('the supersede itest deploys through Jenkins')),
    );
    const node = digestItems(lore).find((n) => n.text.startsWith('the supersede itest deploys through Jenkins'))!;

    // The command with the newer item named skips the picker (a quick pick a test cannot answer).
    assert.equal(await vscode.commands.executeCommand('lore.supersedeItem', node, itemId(NEW)), itemId(NEW));
    assert.match(
      read('decisions.md'),
      new RegExp(
        `- the supersede itest deploys through Jenkins \\[superseded by ${itemId(NEW)}, \\d{4}-\\d{2}-\\d{2}\\] \\[from: itest-sup-1, 2026-11-01\\]`,
      ),
    );
    assert.ok(!read('digest.md').includes('through Jenkins'));
    await until(
      'the Digest view drops the old item',
      () => !digestItems(lore).some((n) => n.text.startsWith('the supersede itest deploys through Jenkins')),
    );

    const editor = await vscode.window.showTextDocument(vscode.Uri.file(path.join(root, 'decisions.md')));
    await until('the old item is struck through', () => lore.superseded.struckLines(editor.document.uri).length > 0);
    const [struck] = lore.superseded.struckLines(editor.document.uri);
    assert.equal(editor.document.lineAt(struck.line).text.slice(struck.start, struck.end), 'the supersede itest deploys through Jenkins');
    assert.equal(struck.by, itemId(NEW));

    assert.equal(await vscode.commands.executeCommand('lore.revealItemById', { id: struck.by }), true);
    const active = vscode.window.activeTextEditor!;
    assert.equal(active.document.lineAt(active.selection.active.line).text, NEW);
  });
});

import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { LoreApi } from '../../../src/extension/extension';

const ID = 'lore-dev.lore';

describe('Lore activation', () => {
  it('is installed in the extension host', () => {
    const ext = vscode.extensions.getExtension(ID);
    assert.ok(ext, `${ID} is present`);
    assert.equal(ext.packageJSON.name, 'lore');
  });

  it('activates on a workspace with a .lore store', async () => {
    const ext = vscode.extensions.getExtension(ID)!;
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the fixture workspace is open');
    await ext.activate();
    assert.equal(ext.isActive, true);
  });

  it('tells the when clauses that a store exists (Initialize Store is never in the palette: a harvest makes the store)', async () => {
    const lore = await vscode.extensions.getExtension<LoreApi>(ID)!.activate();
    assert.equal(lore.store.exists, true, 'the fixture workspace has a store');
    assert.equal(lore.contextKeys.get('lore.storeExists'), true);
    // A folder is open: the window has a store, and the "no folder, no store" welcome stays hidden.
    assert.equal(lore.store.available, true);
    assert.equal(lore.contextKeys.get('lore.noStore'), false);
    const palette = (
      vscode.extensions.getExtension(ID)!.packageJSON as {
        contributes: { menus: { commandPalette: Array<{ command: string; when?: string }> } };
      }
    ).contributes.menus.commandPalette;
    assert.equal(palette.find((e) => e.command === 'lore.initStore')?.when, 'false');
  });

  it('registers lore.showLog, and running it does not throw', async () => {
    const commands = await vscode.commands.getCommands(true);
    assert.ok(commands.includes('lore.showLog'), 'lore.showLog is registered');
    await vscode.commands.executeCommand('lore.showLog');
  });
});

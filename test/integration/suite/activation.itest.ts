import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

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

  it('registers lore.showLog, and running it does not throw', async () => {
    const commands = await vscode.commands.getCommands(true);
    assert.ok(commands.includes('lore.showLog'), 'lore.showLog is registered');
    await vscode.commands.executeCommand('lore.showLog');
  });
});

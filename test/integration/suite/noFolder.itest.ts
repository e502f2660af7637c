import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LoreApi } from '../../../src/extension/extension';
import { activateLore, until } from './support';

/**
 * Runs only in an empty window (runIntegration.mjs --no-folder, HOME inside the sandbox): the
 * global store ~/.lore is written only when the person asks for it (issue 17, part 5).
 */
describe('Lore in a window with no folder open', function () {
  this.timeout(60_000);
  let lore: LoreApi;
  const globalRoot = path.join(os.homedir(), '.lore');

  before(async () => {
    assert.equal(vscode.workspace.workspaceFolders, undefined, 'an empty window');
    assert.ok(os.homedir().includes('lore-it-'), `HOME is the sandbox's (${os.homedir()})`);
    lore = await activateLore();
  });

  after(async () => {
    await vscode.workspace.getConfiguration('lore').update('store.location', undefined, vscode.ConfigurationTarget.Global);
  });

  it('has no store until the global store is chosen: views say so, commands refuse, nothing is written', async () => {
    assert.equal(lore.store.available, false);
    assert.equal(lore.contextKeys.get('lore.noStore'), true);
    assert.deepEqual(lore.mcp.provideMcpServerDefinitions(), [], 'no MCP server without a store');
    // Initialize Store refuses (a warning with Open Folder… / Use the Global Store) and creates nothing.
    await vscode.commands.executeCommand('lore.initStore');
    await new Promise((r) => setTimeout(r, 1000));
    assert.equal(fs.existsSync(globalRoot), false, '~/.lore was not created');

    // The explicit request: Use the Global Store sets lore.store.location in the user settings.
    await vscode.commands.executeCommand('lore.useGlobalStore');
    await until('the global store is the store', () => lore.store.available && lore.store.paths.root === globalRoot);
    assert.equal(vscode.workspace.getConfiguration('lore').inspect('store.location')?.globalValue, 'global');
    await until('the no-store context key is cleared', () => lore.contextKeys.get('lore.noStore') === false);
    assert.equal(fs.existsSync(globalRoot), false, 'choosing the store writes nothing yet');
    await vscode.commands.executeCommand('lore.initStore');
    await until('~/.lore is initialized on request', () => fs.existsSync(path.join(globalRoot, 'facts.md')));
  });
});

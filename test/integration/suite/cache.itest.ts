import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { createCacheState, recordCall } from '../../../src/core/context/cacheState';
import { activateLore } from './support';

describe('Lore prompt cache in VS Code', function () {
  this.timeout(30_000);

  it('the Cache view and the status bar show an active cache, Invalidate and Disable act on it', async () => {
    const lore = await activateLore();
    const now = Date.now();
    const usage = { inputTokens: 1200, uncachedInputTokens: 200, cacheReadTokens: 1000, cacheWriteTokens: 0, outputTokens: 50 };
    const state = recordCall(createCacheState('itest-discussion', 'anthropic'), usage, now, { provider: 'anthropic', mode: 'ephemeral', prefixHash: 'abc', ttlMs: 5 * 60_000 });
    await lore.caches.put(state);

    const shown = lore.statusBar.current(now + 28_000)!;
    assert.equal(shown.status, 'active');
    assert.equal(shown.ttlLabel, '4:32');
    const providers = lore.views.cache.getChildren() as unknown as Array<{ children: () => Array<{ discussionId: string }> }>;
    assert.equal(providers.length, 1);
    assert.deepEqual(providers[0].children().map((d) => d.discussionId), ['itest-discussion']);
    const providerItem = (lore.views.cache.getChildren()[0] as any).toTreeItem() as vscode.TreeItem;
    assert.equal(providerItem.label, 'anthropic');
    assert.match(String(providerItem.description), /83% hit · 1200 in · 1000 cached/);

    assert.equal(lore.statusBar.current(now + 6 * 60_000)!.ttlLabel, 'expired', 'expired, not dropped');

    const node = providers[0].children()[0];
    await vscode.commands.executeCommand('lore.cache.invalidate', node);
    assert.equal(lore.statusBar.current()!.status, 'none');
    await vscode.commands.executeCommand('lore.cache.disable', node);
    assert.equal(lore.caches.get('itest-discussion')!.cachingEnabled, false);
    await vscode.commands.executeCommand('lore.cache.enable', node);
    assert.equal(lore.caches.get('itest-discussion')!.cachingEnabled, true);
  });

  it('Sync Agent Instruction Files writes the digest block into AGENTS.md and leaves the rest alone', async () => {
    const lore = await activateLore();
    const ws = lore.store.paths.workspace;
    fs.writeFileSync(path.join(ws, 'AGENTS.md'), '# Agents\n\nRun the tests.\n');
    fs.appendFileSync(path.join(lore.store.paths.root, 'facts.md'), '- Synced into AGENTS.md.\n');
    lore.store.regenerateDigest();
    await vscode.workspace.getConfiguration('lore').update('instructions.sync', ['AGENTS.md'], vscode.ConfigurationTarget.Workspace);
    await vscode.commands.executeCommand('lore.syncInstructions');
    const text = fs.readFileSync(path.join(ws, 'AGENTS.md'), 'utf8');
    assert.ok(text.startsWith('# Agents\n\nRun the tests.\n\n<!-- lore:knowledge:start'));
    assert.match(text, /- Synced into AGENTS\.md\./);
    await vscode.workspace.getConfiguration('lore').update('instructions.sync', undefined, vscode.ConfigurationTarget.Workspace);
  });
});

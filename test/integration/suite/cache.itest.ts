import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { createCacheState, recordCall } from '../../../src/core/services/promptCache/cacheState';
import type { CacheSessionNode, CacheToolNode } from '../../../src/extension/views/cacheTree';
import { activateLore, until, useProvider } from './support';

/** A Claude Code assistant record as Claude Code writes it: one API response's usage. */
function claudeRecord(id: string, at: number, usage: { read: number; write: number }): string {
  return (
    JSON.stringify({
      type: 'assistant',
      isSidechain: false,
      timestamp: new Date(at).toISOString(),
      requestId: `req_${id}`,
      uuid: `u_${id}`,
      message: {
        id: `msg_${id}`,
        model: 'claude-sonnet-4-5-20250929',
        role: 'assistant',
        content: [{ type: 'text', text: 'ok' }],
        usage: {
          input_tokens: 4,
          cache_creation_input_tokens: usage.write,
          cache_read_input_tokens: usage.read,
          cache_creation: { ephemeral_5m_input_tokens: usage.write, ephemeral_1h_input_tokens: 0 },
          output_tokens: 30,
        },
      },
    }) + '\n'
  );
}

describe('Lore prompt cache in VS Code', function () {
  this.timeout(30_000);

  it('the Cache view and the status bar show an active cache, Invalidate and Disable act on it', async () => {
    const lore = await activateLore();
    const now = Date.now();
    const usage = { inputTokens: 1200, uncachedInputTokens: 200, cacheReadTokens: 1000, cacheWriteTokens: 0, outputTokens: 50 };
    const state = recordCall(createCacheState('itest-discussion', 'anthropic'), usage, now, {
      provider: 'anthropic',
      mode: 'ephemeral',
      prefixHash: 'abc',
      ttlMs: 5 * 60_000,
    });
    await lore.caches.put(state);

    const shown = lore.statusBar.current(now + 28_000)!;
    assert.equal(shown.status, 'active');
    assert.equal(shown.ttlLabel, '4:32');
    // @lore's discussions come under their provider, after the agent sessions' tools.
    const providers = (
      lore.views.cache.getChildren() as unknown as Array<{
        children?: () => Array<{ discussionId: string }>;
        toTreeItem: () => vscode.TreeItem;
      }>
    ).filter((n) => n.toTreeItem().contextValue === 'lore.cacheProvider');
    assert.equal(providers.length, 1);
    assert.deepEqual(
      providers[0].children!().map((d) => d.discussionId),
      ['itest-discussion'],
    );
    const providerItem = providers[0].toTreeItem();
    assert.equal(providerItem.label, 'anthropic');
    assert.match(String(providerItem.description), /83% hit · 1200 in · 1000 cached/);

    assert.equal(lore.statusBar.current(now + 6 * 60_000)!.ttlLabel, 'expired', 'expired, not dropped');

    const node = providers[0].children!()[0];
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

  it('the Cache view and the status bar follow a Claude Code session of this workspace, live as its file grows, and hide once it expired', async function () {
    this.timeout(90_000);
    const lore = await activateLore();
    const claudeHome = process.env.CLAUDE_CONFIG_DIR;
    assert.ok(claudeHome, 'the integration sandbox sets CLAUDE_CONFIG_DIR (scripts/codeServer.mjs)');
    const project = path.join(claudeHome, 'projects', lore.store.paths.workspace.replace(/[^A-Za-z0-9]/g, '-'));
    fs.mkdirSync(project, { recursive: true });
    const session = path.join(project, '7c0ffee0-1111-4222-8333-944455556666.jsonl');
    const firstCall = Date.now() - 10_000;
    fs.writeFileSync(session, claudeRecord('a', firstCall, { read: 0, write: 9000 }));
    try {
      await lore.agentCaches.refresh();
      const tools = (lore.views.cache.getChildren() as unknown as CacheToolNode[]).filter((n) => n.kind === 'tool');
      assert.deepEqual(
        tools.map((t) => t.summary.tool),
        ['claude-code'],
      );
      const toolItem = tools[0].toTreeItem();
      assert.equal(toolItem.label, 'Claude Code (Anthropic)');
      assert.match(String(toolItem.description), /^in 9\.0K · cached 0 · 0% hit · TTL 4:\d\d$/);
      const sessions = tools[0].children!() as CacheSessionNode[];
      assert.deepEqual(
        sessions.map((n) => n.session.path),
        [session],
      );
      assert.match(String(sessions[0].toTreeItem().description), /^expires in 4:[45]\d$/);

      const expiresAt = firstCall + 5 * 60_000;
      const view = lore.statusBar.view(expiresAt - 90_000)!;
      assert.deepEqual([view.source, view.text, view.warning], ['agent', '$(clock) 1:30', false]);
      assert.equal(lore.statusBar.view(expiresAt - 30_000)!.warning, true, 'a warning in the last minute');
      assert.equal(lore.statusBar.view(expiresAt + 1000), undefined, 'hidden once nothing is warm');

      // The agent's next turns read the cache: the watcher sees the file grow, no refresh asked for.
      // (A watcher outside the workspace goes live shortly after it is created: the agent keeps
      // writing turns until the view has followed one.)
      let lastCall = 0;
      let turns = 0;
      await until(
        'the Cache view follows the session file',
        async () => {
          if (lore.agentCaches.sessions()[0]?.calls === turns + 1 && turns > 0) return true;
          lastCall = Date.now();
          fs.appendFileSync(session, claudeRecord(`t${++turns}`, lastCall, { read: 9000, write: 300 }));
          await new Promise((r) => setTimeout(r, 1500));
          return lore.agentCaches.sessions()[0]?.calls === turns + 1;
        },
        30_000,
      );
      const grown = lore.agentCaches.sessions()[0];
      assert.equal(grown.hits, turns);
      assert.equal(grown.expiresAt, lastCall + 5 * 60_000, 'a read refreshed the TTL');
      assert.equal(lore.statusBar.view(lastCall + 60_000)!.text, '$(clock) 4:00');

      // Turning the countdown off hides it.
      await vscode.workspace.getConfiguration('lore').update('cache.statusBar', false, vscode.ConfigurationTarget.Global);
      assert.equal(lore.statusBar.view(), undefined);
    } finally {
      await vscode.workspace.getConfiguration('lore').update('cache.statusBar', undefined, vscode.ConfigurationTarget.Global);
      fs.rmSync(session, { force: true });
      await lore.agentCaches.refresh();
    }
  });

  it('Apply When No Session Is Warm waits until the warm session’s cache expired, then applies the plan', async function () {
    this.timeout(90_000);
    const lore = await activateLore();
    const root = lore.store.paths.root;
    if (!lore.store.exists) await vscode.commands.executeCommand('lore.initStore');
    await vscode.commands.executeCommand('lore.discardHarvest');
    await useProvider('rules');
    const project = path.join(process.env.CLAUDE_CONFIG_DIR!, 'projects', lore.store.paths.workspace.replace(/[^A-Za-z0-9]/g, '-'));
    fs.mkdirSync(project, { recursive: true });
    const session = path.join(project, '8d0ffee0-1111-4222-8333-944455556666.jsonl');
    // Its last call read the cache 4 min 45 s ago: warm for 15 s more.
    const expiresAt = Date.now() + 15_000;
    fs.writeFileSync(session, claudeRecord('w', expiresAt - 5 * 60_000, { read: 7000, write: 100 }));
    const inboxFile = path.join(root, 'inbox', 'itest-cache-cost.md');
    fs.writeFileSync(
      inboxFile,
      '---\nsession_id: itest-cache-cost\nstarted: 2026-11-20T10:00:00Z\n---\n\n# Cache cost\n\n## 10:00 — user\nFact: a harvest applied while a session is warm makes it re-cache.\n',
    );
    // The apply harvests the fixture's inbox too: Undo Last Harvest puts the store back for the suites after this one.
    // An earlier hand edit's automatic digest refresh must not land after the undo (see undo.itest).
    lore.store.regenerateDigest({ automatic: true });
    let applied = false;
    try {
      const report = await lore.harvestWithoutDialogs({ showDiff: false });
      assert.ok(report?.plan && lore.harvest.pending, 'a plan is pending');
      await vscode.commands.executeCommand('lore.applyHarvestWhenCold');
      assert.ok(lore.harvest.pending, 'not applied while the session is warm');
      assert.doesNotMatch(fs.readFileSync(path.join(root, 'facts.md'), 'utf8'), /re-cache/);
      let appliedAt = 0;
      await until(
        'the plan is applied once no session is warm',
        () => {
          appliedAt = Date.now();
          return lore.harvest.pending === undefined;
        },
        45_000,
      );
      applied = true;
      assert.ok(appliedAt >= expiresAt, 'applied after the cache expired');
      assert.match(fs.readFileSync(path.join(root, 'facts.md'), 'utf8'), /a harvest applied while a session is warm makes it re-cache/);
    } finally {
      if (applied) assert.equal((await lore.harvest.undo()).status, 'undone', 'the store is put back as it was');
      fs.rmSync(session, { force: true });
      fs.rmSync(inboxFile, { force: true });
      await useProvider(undefined);
      await lore.agentCaches.refresh();
    }
  });
});

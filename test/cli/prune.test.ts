/**
 * `lore prune`: decay from real uses (a search the CLI records), the preview writing nothing, the
 * apply moving decayed items to archive/knowledge/ (out of the digest and the index, found with
 * `lore search --archived`), nothing lost, and a restore bringing one back.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { itemId } from '../../src/core/model/itemId';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { makeWorkspace, runCli, snapshotTree } from '../helpers/cli';
import { connectLoreMcp } from '../helpers/mcpClient';

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
const day = (ms: number) => iso(ms).slice(0, 10);

const env = { LORE_ROOT: '', LORE_SEARCH_BACKEND: '', LORE_EMBED_PROVIDER: '' };

/** Item lines of a store's category and archive files (every line, wherever it is). */
function itemLines(root: string): string[] {
  const tree = snapshotTree(root);
  return Object.entries(tree)
    .filter(([key]) => /^(facts|decisions|tasks)\.md$|^archive\/knowledge\//.test(key))
    .flatMap(([, text]) => text.split('\n').filter((l) => l.startsWith('- ')))
    .sort();
}

describe('lore prune', function () {
  this.timeout(60_000);

  it('archives what went unused and unedited, keeps decisions, used and fresh items; restore brings one back', async () => {
    const { ws, root } = await makeWorkspace();
    const cli = async (...args: string[]) => {
      const result = await runCli([...args, '--root', root], { cwd: ws, env });
      assert.equal(result.code, 0, result.stderr);
      return result;
    };
    const now = Date.now();
    const today = day(now);
    const old = '2025-01-10';
    const lines = {
      stale: `- The staging database is called lorestage [from: c1, ${old}]`,
      used: `- Deploys go through the ferryman pipeline [from: c1, ${old}]`,
      fresh: `- The lexer lives in src/lexer.ts [from: c2, ${today}]`,
      decision: `- Use SQLite for the index — it is on every machine [from: c1, ${old}]`,
      replaced: `- Use Jenkins for builds [superseded by: aaaaaaaa] [from: c1, ${old}]`,
      task: `- migrate the quarrel module [from: c1, ${old}]`,
    };
    fs.writeFileSync(path.join(root, 'facts.md'), `# Facts\n\n${lines.stale}\n${lines.used}\n${lines.fresh}\n`);
    fs.writeFileSync(path.join(root, 'decisions.md'), `# Decisions\n\n${lines.decision}\n${lines.replaced}\n`);
    fs.writeFileSync(path.join(root, 'tasks.md'), `# Tasks\n\n## Open\n\n${lines.task}\n\n## Done\n`);
    await cli('digest');

    // Usage records begin 200 days ago (a first apply then: nothing had decayed yet).
    const first = await cli('prune', '--apply', '--now', iso(now - 200 * DAY));
    assert.match(first.stdout, /Nothing archived/);
    // A person searches today: the hit is a use.
    const found = await cli('search', 'ferryman');
    assert.match(found.stdout, /ferryman/);
    const log = fs.readFileSync(path.join(root, '.logs', 'usage.log'), 'utf8');
    assert.equal(log, `${today} search ${itemId(lines.used)}\n`);

    const later = iso(now + 45 * DAY);
    const before = snapshotTree(root);
    const preview = await cli('prune', '--now', later, '--json');
    const plan = JSON.parse(preview.stdout);
    assert.equal(plan.applied, false);
    const proposed = plan.candidates.map((c: { id: string }) => c.id).sort();
    const expected = [lines.stale, lines.replaced, lines.task].map(itemId).sort();
    assert.deepEqual(proposed, expected);
    assert.deepEqual(
      plan.categories.find((c: { category: string }) => c.category === 'facts'),
      { category: 'facts', items: 3, budget: 300, archived: 0, proposed: 1, decays: true },
    );
    assert.deepEqual(snapshotTree(root), before, 'a preview writes nothing');

    const text = await cli('prune', '--now', later);
    assert.match(text.stdout, /Would archive 3 item\(s\)/);
    assert.match(text.stdout, /decisions\s+2 \/ 200 \(kept: decays only when superseded\)/);

    const allBefore = itemLines(root);
    const applied = await cli('prune', '--apply', '--now', later);
    assert.match(applied.stdout, /Archived 3 item\(s\)/);
    assert.deepEqual(itemLines(root), allBefore, 'nothing deleted: every line is in its file or the archive');
    const facts = fs.readFileSync(path.join(root, 'facts.md'), 'utf8');
    assert.ok(!facts.includes('lorestage') && facts.includes('ferryman') && facts.includes('lexer'));
    assert.equal(fs.readFileSync(path.join(root, 'archive', 'knowledge', 'facts.md'), 'utf8'), `# Archived facts\n\n${lines.stale}\n`);
    assert.match(fs.readFileSync(path.join(root, 'archive', 'knowledge', 'tasks.md'), 'utf8'), /## Open\n\n- migrate the quarrel module/);
    assert.ok(fs.readFileSync(path.join(root, 'decisions.md'), 'utf8').includes(lines.decision));
    const digest = fs.readFileSync(path.join(root, 'digest.md'), 'utf8');
    assert.ok(!digest.includes('lorestage') && !digest.includes('quarrel'), 'archived items leave the digest');

    // Not in the index; found on request, marked archived.
    const missing = await cli('search', 'lorestage');
    assert.doesNotMatch(missing.stdout, /lorestage/);
    const archived = await cli('search', 'lorestage', '--archived');
    assert.match(
      archived.stdout,
      new RegExp(
        `\\[archived facts\\] The staging database is called lorestage\\s+archive/knowledge/facts\\.md:3\\s+\\(lore prune --restore ${itemId(lines.stale)}\\)`,
      ),
    );

    const asked = await runCli(['item', itemId(lines.stale), '--root', root], { cwd: ws, env });
    assert.equal(asked.code, 1);
    assert.match(
      asked.stderr,
      new RegExp(
        `item ${itemId(lines.stale)} is archived: archive/knowledge/facts\\.md:3 .*lorestage[^\\n]*\\n\\(lore prune --restore ${itemId(lines.stale)} brings it back\\)`,
      ),
    );

    const restored = await cli('prune', '--restore', itemId(lines.task));
    assert.match(restored.stdout, /restored \S+ to tasks\.md/);
    assert.match(fs.readFileSync(path.join(root, 'tasks.md'), 'utf8'), /## Open\n\n- migrate the quarrel module[^\n]*\n+## Done/);
    assert.ok(!fs.readFileSync(path.join(root, 'archive', 'knowledge', 'tasks.md'), 'utf8').includes('quarrel'));
    // The restore counts as a use: the next prune leaves it alone.
    const again = JSON.parse((await cli('prune', '--json', '--now', later)).stdout);
    assert.deepEqual(again.candidates, []);

    const unknown = await runCli(['prune', '--restore', 'zzzzzzzz', '--root', root], { cwd: ws, env });
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /no archived item zzzzzzzz/);
  });

  it('records what a hook injects and what an agent reads', async () => {
    const { ws, root } = await makeWorkspace();
    const line = '- The quarrel module parses invoices [from: c1, 2026-11-20]';
    fs.writeFileSync(path.join(root, 'facts.md'), `# Facts\n\n${line}\n`);
    // The hook reads the index as it is: build it first (that search is a use too).
    await runCli(['search', 'invoices', '--root', root], { cwd: ws, env });
    fs.rmSync(path.join(root, '.logs', 'usage.log'));
    const input = {
      session_id: 's1',
      transcript_path: '/nowhere.jsonl',
      cwd: ws,
      hook_event_name: 'UserPromptSubmit',
      prompt: 'how does the quarrel module parse invoices?',
    };
    const hook = await runCli(['hook'], { cwd: ws, env: { ...env, LORE_ROOT: root }, input: JSON.stringify(input) });
    assert.equal(hook.code, 0, hook.stderr);
    assert.match(hook.stdout, /quarrel module parses invoices/);
    assert.match(
      fs.readFileSync(path.join(root, '.logs', 'usage.log'), 'utf8'),
      new RegExp(`^\\d{4}-\\d\\d-\\d\\d hook ${itemId(line)}\\n$`),
    );

    // An agent over MCP (the real SDK client, lore mcp in its own process): a search and a get_item, not a write.
    fs.rmSync(path.join(root, '.logs', 'usage.log'));
    const { client } = await connectLoreMcp(root, { env: { LORE_ROOT: '' } });
    try {
      const search = (await client.callTool({ name: 'search', arguments: { query: 'invoices' } })) as CallToolResult;
      assert.ok(!search.isError);
      const got = (await client.callTool({ name: 'search', arguments: { ids: [itemId(line)] } })) as CallToolResult;
      assert.ok(!got.isError);
      const missing = (await client.callTool({ name: 'search', arguments: { ids: ['zzzzzzzz'] } })) as CallToolResult;
      assert.deepEqual((missing.structuredContent as { items: unknown[] }).items, []);
    } finally {
      await client.close();
    }
    const lines = fs
      .readFileSync(path.join(root, '.logs', 'usage.log'), 'utf8')
      .trim()
      .split('\n');
    assert.deepEqual(
      lines.map((l) => l.split(' ').slice(1).join(' ')),
      [`agent ${itemId(line)}`, `agent ${itemId(line)}`],
    );
  });

  it('survives a SIGKILL at every durable step of an apply: nothing lost, and a re-run ends where an uninterrupted one does', async function () {
    // One real process per crash point: on a busy machine each start takes seconds (as in the other crash tests).
    this.timeout(300_000);
    const now = Date.now();
    const later = iso(now + 45 * DAY);
    const scenario = async () => {
      const { ws, root } = await makeWorkspace();
      const old = (text: string) => `- ${text} [from: c1, 2025-01-10]`;
      fs.writeFileSync(
        path.join(root, 'facts.md'),
        `# Facts\n\n${old('alpha fact')}\n${old('beta fact')}\n- fresh fact [from: c2, ${day(now)}]\n`,
      );
      fs.writeFileSync(path.join(root, 'questions.md'), `# Questions\n\n${old('why gamma?')}\n`);
      fs.writeFileSync(path.join(root, 'tasks.md'), `# Tasks\n\n## Open\n\n${old('do delta')}\n\n## Done\n\n${old('did epsilon')}\n`);
      const first = await runCli(['prune', '--apply', '--now', iso(now - 200 * DAY), '--root', root], { cwd: ws, env });
      assert.equal(first.code, 0, first.stderr);
      return { ws, root };
    };
    const state = (root: string) => {
      const tree = snapshotTree(root);
      for (const key of Object.keys(tree)) if (key === '.lock' || /^\.(cache|index|logs|undo)\//.test(key)) delete tree[key];
      return tree;
    };
    const reference = await scenario();
    const allLines = itemLines(reference.root);
    assert.equal((await runCli(['prune', '--apply', '--now', later, '--root', reference.root], { env })).code, 0);
    const expected = state(reference.root);
    assert.ok(expected['archive/knowledge/facts.md'].includes('alpha fact'));

    let crashes = 0;
    for (let point = 1; point < 60; point++) {
      const { root } = await scenario();
      const crashed = await runCli(['prune', '--apply', '--now', later, '--root', root], {
        spawn: true,
        env: { ...env, LORE_TEST_CRASH_AFTER: String(point) },
      });
      if (crashed.signal !== 'SIGKILL') {
        assert.equal(crashed.code, 0, crashed.stderr);
        break;
      }
      crashes++;
      // Right after the kill: every line is in its file or in the archive (in both at worst).
      const now = itemLines(root);
      for (const line of allLines) assert.ok(now.includes(line), `crash point ${point}: lost ${line}`);
      const rerun = await runCli(['prune', '--apply', '--now', later, '--root', root], { env });
      assert.equal(rerun.code, 0, `crash point ${point}: ${rerun.stderr}`);
      assert.deepEqual(state(root), expected, `crash point ${point}`);
    }
    assert.ok(crashes >= 4, `expected several crash points, got ${crashes}`);
  });
});

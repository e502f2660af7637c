/**
 * The personal layer through the CLI in a real git repository: `lore review accept N --personal`
 * and `lore move ID --personal | --shared` put items in .lore/personal/, which `lore context`,
 * `lore search` and `lore item` combine with the shared store, while digest.md and every committed
 * file hold only shared knowledge and `git status` never shows the layer.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { rememberItem } from '../../src/core/store/items/agentWrites';
import { itemId } from '../../src/core/model/itemId';
import { storePaths } from '../../src/core/store/storePaths';
import { gitIn, initRepo } from '../helpers/gitRepo';
import { makeWorkspace, runCli } from '../helpers/cli';
import { connectLoreMcp } from '../helpers/mcpClient';
import { setStoreTrust } from '../../src/core/store/storeTrust';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

const JENKINS = '- deploys go through Jenkins [from: c1, 2026-11-20]';
const PORT = 'my local dev server runs on port 4137';

describe('lore and the personal layer (real git)', () => {
  it('accepted or moved as personal: agents get it, git never sees it, and it moves back keeping its id', async () => {
    const { ws, root } = await makeWorkspace();
    fs.appendFileSync(path.join(root, 'facts.md'), `\n${JENKINS}\n`);
    assert.equal((await runCli(['digest', '--root', root])).code, 0);
    initRepo(ws);
    const paths = storePaths(root, ws);

    // An agent's write waits in review.md; the person keeps it to themselves.
    const queued = await rememberItem(
      paths,
      { kind: 'fact', statement: PORT },
      { source: 'claude-code:s1', today: new Date('2026-11-27') },
    );
    assert.equal(queued.status, 'pending');
    const accept = await runCli(['review', 'accept', '1', '--personal', '--root', root]);
    assert.equal(accept.code, 0, accept.stderr);
    assert.match(accept.stdout, /kept personal/);
    assert.ok(fs.readFileSync(path.join(root, 'personal', 'facts.md'), 'utf8').includes(PORT));

    // The Jenkins fact goes personal too, by id; then comes back.
    const jenkins = itemId(JENKINS);
    const move = await runCli(['move', jenkins, '--personal', '--root', root]);
    assert.equal(move.code, 0, move.stderr);
    assert.match(move.stdout, /facts\.md → personal\/facts\.md/);

    // The instruction files agents read are committed: their Lore block holds only shared knowledge.
    const sync = await runCli(['sync', path.join(ws, 'AGENTS.md'), '--root', root], { cwd: ws });
    assert.equal(sync.code, 0, sync.stderr);
    assert.ok(fs.readFileSync(path.join(ws, 'AGENTS.md'), 'utf8').includes('lore:knowledge:start'));

    // git: the layer never shows; what is committed holds neither personal item.
    const status = gitIn(ws, 'status', '--porcelain', '--untracked-files=all');
    assert.ok(!status.includes('personal/'), status);
    gitIn(ws, 'add', '-A');
    gitIn(ws, 'commit', '-q', '-m', 'after the personal accept and move');
    const committed = gitIn(ws, 'ls-files')
      .split('\n')
      .filter(Boolean)
      .map((f) => fs.readFileSync(path.join(ws, f), 'utf8'))
      .join('\n');
    assert.ok(!committed.includes(PORT) && !committed.includes('Jenkins'), 'a committed file holds a personal item');
    assert.ok(!gitIn(ws, 'log', '--format=%B').includes(PORT), 'a commit message quotes a personal item');
    // Both items personal, the shared files hold none: digest.md is removed, never holding the personal ones.
    assert.ok(!fs.existsSync(path.join(root, 'digest.md')));

    // Agents get both: the context, search, and the item by id (said to be personal).
    const context = await runCli(['context', '--root', root, '--message', 'which port does the dev server use?'], { cwd: ws });
    assert.equal(context.code, 0, context.stderr);
    assert.ok(context.stdout.includes(PORT), context.stdout);
    assert.ok(context.stdout.includes('deploys go through Jenkins'));
    const search = await runCli(['search', 'port', '--root', root, '--json'], { cwd: ws });
    assert.equal(search.code, 0, search.stderr);
    assert.ok(search.stdout.includes('personal/facts.md'), search.stdout);
    const item = await runCli(['item', queued.id!, '--root', root, '--json']);
    assert.equal(JSON.parse(item.stdout).layer, 'personal');
    assert.match((await runCli(['item', queued.id!, '--root', root])).stdout, /fact, recorded, personal {2}personal\/facts\.md/);
    const history = await runCli(['history', jenkins, '--root', root]);
    assert.equal(history.code, 0, history.stderr);
    assert.match(history.stdout, /personal: it is in your personal layer/);

    // Back to shared: the same id and provenance, in facts.md and the digest again.
    const back = await runCli(['move', jenkins, '--shared', '--root', root]);
    assert.equal(back.code, 0, back.stderr);
    assert.ok(fs.readFileSync(path.join(root, 'facts.md'), 'utf8').includes(JENKINS));
    assert.ok(fs.readFileSync(path.join(root, 'digest.md'), 'utf8').includes('deploys go through Jenkins'));
    assert.equal(JSON.parse((await runCli(['item', jenkins, '--root', root, '--json'])).stdout).layer, 'shared');
    // A read-only command changes nothing git sees.
    gitIn(ws, 'add', '-A');
    gitIn(ws, 'commit', '-q', '-m', 'shared again');
    await runCli(['context', '--root', root, '--message', 'port'], { cwd: ws });
    assert.equal(gitIn(ws, 'status', '--porcelain'), '');
  });

  it("an agent's MCP remember with scope personal lands in .lore/personal/, and search by id and by words say it is personal", async () => {
    const { root } = await makeWorkspace();
    fs.writeFileSync(path.join(root, 'config.json'), '{"agentWrites": "direct"}\n');
    setStoreTrust(root, true);
    const { client } = await connectLoreMcp(root, { clientName: 'claude-code' });
    try {
      const remembered = (await client.callTool({
        name: 'remember',
        arguments: { kind: 'fact', statement: PORT, scope: 'personal' },
      })) as CallToolResult;
      const written = remembered.structuredContent as { status: string; id: string; file: string };
      assert.equal(written.status, 'recorded', JSON.stringify(remembered));
      assert.equal(written.file, 'personal/facts.md');
      assert.ok(fs.readFileSync(path.join(root, 'personal', 'facts.md'), 'utf8').includes(PORT));
      assert.ok(!fs.readFileSync(path.join(root, 'facts.md'), 'utf8').includes(PORT));
      const got = (await client.callTool({ name: 'search', arguments: { ids: [written.id] } })) as CallToolResult;
      assert.equal((got.structuredContent as { items: Array<{ file: string }> }).items[0].file, 'personal/facts.md');
      const text = got.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
      assert.match(text, /personal/);
      const found = (await client.callTool({ name: 'search', arguments: { query: 'dev server port' } })) as CallToolResult;
      assert.ok(JSON.stringify(found.structuredContent).includes('personal/facts.md'), JSON.stringify(found.structuredContent));
    } finally {
      await client.close();
    }
  });

  it("SessionStart: the agent's context holds the personal sections after the shared digest", async () => {
    const { ws, root } = await makeWorkspace();
    fs.appendFileSync(path.join(root, 'facts.md'), `\n${JENKINS}\n- the CLI is bundled with esbuild [from: c1, 2026-11-20]\n`);
    assert.equal((await runCli(['digest', '--root', root])).code, 0);
    assert.equal((await runCli(['move', itemId(JENKINS), '--personal', '--root', root])).code, 0);
    const env = { LORE_ROOT: '', LORE_SEARCH_BACKEND: '', LORE_EMBED_PROVIDER: '' };
    const start = { session_id: 's1', cwd: ws, hook_event_name: 'SessionStart', source: 'startup' };
    const result = await runCli(['hook'], { cwd: ws, env, input: JSON.stringify(start) });
    assert.equal(result.code, 0, result.stderr);
    const context = (JSON.parse(result.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput
      .additionalContext;
    assert.ok(context.includes('the CLI is bundled with esbuild'), context);
    assert.match(context, /## Personal: Facts\n- deploys go through Jenkins \[from: c1, 2026-11-20\]/);
    assert.ok(context.indexOf('esbuild') < context.indexOf('Jenkins'), 'shared first');
    assert.ok(!fs.readFileSync(path.join(root, 'digest.md'), 'utf8').includes('Jenkins'));
  });

  it('move says what it needs', async () => {
    const { root } = await makeWorkspace();
    assert.equal((await runCli(['move', 'abcdefgh', '--root', root])).code, 2);
    const missing = await runCli(['move', 'abcdefgh', '--personal', '--root', root]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /no item/);
  });
});

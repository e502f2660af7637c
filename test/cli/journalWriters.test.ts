/**
 * The day's journal from every write that teaches the store something, not only harvest applies:
 * agents' writes applied directly and accepted from review (over the MCP SDK client), `lore
 * note`; what teaches nothing (a forget, a rejection) leaves it alone; `lore undo` of a harvest
 * takes only the harvest's entries out of a journal written to since. And MCP get_item's
 * "learned" from the store's git history.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { itemId } from '../../src/core/model/itemId';
import { toIsoDate } from '../../src/core/model/provenance';
import { makeWorkspace, runCli, transcript } from '../helpers/cli';
import { gitIn } from '../helpers/gitRepo';
import { connectLoreMcp } from '../helpers/mcpClient';
import { makeTempDir } from '../helpers/paths';
import { setStoreTrust } from '../../src/core/store/storeTrust';

const TASK = '- migrate the refund path [from: c2, 2026-11-21]';
const FACT = '- the build uses esbuild [from: c1, 2026-11-20]';

describe('the journal from every write', function () {
  this.timeout(60_000);
  let client: Client | undefined;
  const today = toIsoDate(new Date());
  afterEach(async () => {
    await client?.close();
    client = undefined;
  });
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = (await client!.callTool({ name, arguments: args })) as CallToolResult;
    return {
      text: (result.content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n'),
      data: result.structuredContent as Record<string, unknown>,
    };
  };
  const journalOf = (root: string) => path.join(root, 'journal', `${today}.md`);
  const entries = async (root: string) => {
    const shown = await runCli(['journal', '--root', root, '--json']);
    return shown.code === 0
      ? (JSON.parse(shown.stdout).entries as Array<{ source: string; category: string; text: string }>).map(
          (e) => `${e.source} / ${e.category} / ${e.text}`,
        )
      : [];
  };

  it("agents' direct writes: remember, update and a task done are journaled from client:session; a forget is not", async () => {
    const { root } = await makeWorkspace();
    fs.writeFileSync(path.join(root, 'config.json'), '{"agentWrites": "direct"}\n');
    setStoreTrust(root, true); // The person's own config.json (storeTrust.ts).
    fs.writeFileSync(path.join(root, 'facts.md'), `# Facts\n\n${FACT}\n`);
    fs.writeFileSync(path.join(root, 'tasks.md'), `# Tasks\n\n## Open\n\n${TASK}\n\n## Done\n`);
    ({ client } = await connectLoreMcp(root, { clientName: 'claude-code' }));
    assert.equal((await call('remember', { kind: 'decision', statement: 'we ship on Tuesdays', session: 's1' })).data.status, 'recorded');
    assert.equal(
      (await call('remember', { kind: 'note', path: 'src/app.ts', statement: 'app is the entry point', session: 's1' })).data.status,
      'recorded',
    );
    assert.equal(
      (await call('change_item', { action: 'update', id: itemId(FACT), text: 'the build uses esbuild 0.25', session: 's1' })).data.status,
      'recorded',
    );
    assert.equal((await call('change_item', { action: 'done', id: itemId(TASK), session: 's1' })).data.status, 'recorded');
    const before = fs.readFileSync(journalOf(root), 'utf8');
    assert.equal(
      (
        await call('change_item', {
          action: 'forget',
          id: itemId('- we ship on Tuesdays [from: claude-code:s1, ' + today + ']'),
          session: 's1',
        })
      ).data.status,
      'recorded',
    );
    assert.equal(fs.readFileSync(journalOf(root), 'utf8'), before, 'a forget teaches nothing');
    assert.deepEqual(await entries(root), [
      'claude-code:s1 / Decisions / we ship on Tuesdays',
      'claude-code:s1 / Notes on src/app.ts / app is the entry point',
      'claude-code:s1 / Facts / the build uses esbuild 0.25',
      'claude-code:s1 / Done tasks / migrate the refund path',
    ]);
    assert.match(before, /^---\ntype: journal\n/);
  });

  it('pending writes are journaled when a person accepts them, not when queued nor when rejected', async () => {
    const { root } = await makeWorkspace();
    ({ client } = await connectLoreMcp(root, { clientName: 'cursor' }));
    assert.equal((await call('remember', { kind: 'fact', statement: 'the API is versioned', session: 's2' })).data.status, 'pending');
    assert.equal(
      (await call('remember', { kind: 'question', statement: 'do we need Windows builds?', session: 's2' })).data.status,
      'pending',
    );
    assert.ok(!fs.existsSync(journalOf(root)), 'nothing learned while it waits');
    assert.equal((await runCli(['review', 'reject', '2', '--root', root])).code, 0);
    assert.ok(!fs.existsSync(journalOf(root)), 'a rejection teaches nothing');
    assert.equal((await runCli(['review', 'accept', 'all', '--root', root])).code, 0);
    assert.deepEqual(await entries(root), ['cursor:s2 / Facts / the API is versioned']);
  });

  it("lore note journals as manual; undo of an earlier harvest takes only the harvest's entries out", async () => {
    const { ws, root, inbox } = await makeWorkspace();
    fs.writeFileSync(path.join(inbox, 'a.md'), transcript('ses-a', 'Fact: alpha.\nDecision: use sqlite — embedded.'));
    assert.equal((await runCli(['harvest', '--root', root, '--apply'])).code, 0);
    const facts = fs.readFileSync(path.join(root, 'facts.md'), 'utf8');
    const noted = await runCli(['note', path.join(ws, 'src', 'app.ts'), 'app is small', '--root', root]);
    assert.equal(noted.code, 0, noted.stderr);
    assert.deepEqual(await entries(root), [
      'ses-a / Facts / alpha.',
      'ses-a / Decisions / use sqlite — embedded.',
      'manual / Notes on src/app.ts / app is small',
    ]);
    const undo = await runCli(['undo', '--root', root]);
    assert.equal(undo.code, 0, undo.stderr + undo.stdout);
    assert.match(undo.stderr, /undid the apply/);
    assert.ok(!fs.readFileSync(path.join(root, 'facts.md'), 'utf8').includes('alpha'), `${facts} restored`);
    assert.deepEqual(await entries(root), ['manual / Notes on src/app.ts / app is small'], "the note's entry stays");
    assert.match(fs.readFileSync(journalOf(root), 'utf8'), /sessions: \["manual"\]/);
  });

  it('undo of a harvest nothing wrote to since removes the journal it created', async () => {
    const { root, inbox } = await makeWorkspace();
    fs.writeFileSync(path.join(inbox, 'a.md'), transcript('ses-a', 'Fact: alpha.'));
    assert.equal((await runCli(['harvest', '--root', root, '--apply'])).code, 0);
    assert.ok(fs.existsSync(journalOf(root)));
    assert.equal((await runCli(['undo', '--root', root])).code, 0);
    assert.ok(!fs.existsSync(journalOf(root)));
  });

  it('search by id says who added the item and when it was learned (commit date, conversation) with git history, and nothing of it without', async () => {
    const root = path.join(makeTempDir('lore-learned-'), 'kb');
    assert.equal((await runCli(['init', '--root', root, '--git'])).code, 0);
    fs.writeFileSync(path.join(root, 'inbox', 'a.md'), transcript('ses-git', 'Fact: the cache is redis.'));
    assert.equal((await runCli(['harvest', '--root', root, '--apply'])).code, 0);
    const line = fs
      .readFileSync(path.join(root, 'facts.md'), 'utf8')
      .split('\n')
      .find((l) => l.includes('redis'))!;
    const commit = gitIn(root, 'rev-parse', 'HEAD').trim();
    const date = gitIn(root, 'log', '-1', '--format=%aI').trim();
    const author = gitIn(root, 'log', '-1', '--format=%an').trim();
    ({ client } = await connectLoreMcp(root));
    const got = await call('search', { ids: [itemId(line)] });
    // Who added it: the git author of the commit that added the line, never written into the line.
    assert.ok(!line.includes(author), line);
    assert.match(got.text, new RegExp(`\\n  added by ${author}, ${date.slice(0, 10)}\\n  learned `));
    assert.match(
      got.text,
      new RegExp(
        `\\n  learned ${date.slice(0, 10)} from conversation ses-git — extract: 1 item from 1 conversation \\(${commit.slice(0, 7)}\\)$`,
      ),
    );
    // Edited by hand and not committed: the same commit, and the line is said to be uncommitted.
    fs.writeFileSync(
      path.join(root, 'facts.md'),
      fs.readFileSync(path.join(root, 'facts.md'), 'utf8') + '- another fact [from: manual, 2026-11-22]\n',
    );
    const again = await call('search', { ids: [itemId(line)] });
    assert.match(again.text, new RegExp(`\\(${commit.slice(0, 7)}\\)`));
    const added = await call('search', { ids: [itemId('- another fact [from: manual, 2026-11-22]')] });
    assert.match(added.text, /\n {2}learned: not committed yet/);
    assert.doesNotMatch(added.text, /added by/, 'an uncommitted line has no author');
    await client.close();

    // Without git: no "learned", the reply as before.
    const plain = await makeWorkspace();
    fs.writeFileSync(path.join(plain.root, 'facts.md'), `# Facts\n\n${FACT}\n`);
    ({ client } = await connectLoreMcp(plain.root, { env: { GIT_CEILING_DIRECTORIES: path.dirname(plain.ws) } }));
    const bare = await call('search', { ids: [itemId(FACT)] });
    assert.equal((bare.data.items as Array<{ id: string }>)[0].id, itemId(FACT));
    assert.ok(!/learned/.test(bare.text), bare.text);
    assert.ok(!/added by/.test(bare.text), bare.text);
  });
});

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { changeItem } from '../../src/core/store/items/agentWrites';
import { itemId } from '../../src/core/model/itemId';
import { storePaths } from '../../src/core/store/storePaths';
import { makeWorkspace, runCli, transcript } from '../helpers/cli';
import { gitIn, initRepo } from '../helpers/gitRepo';
import { connectLoreMcp } from '../helpers/mcpClient';
import { makeTempDir } from '../helpers/paths';
import { setStoreTrust } from '../../src/core/store/storeTrust';

function lineWith(root: string, file: string, text: string): string {
  const line = fs
    .readFileSync(path.join(root, file), 'utf8')
    .split('\n')
    .find((l) => l.includes(text));
  assert.ok(line, `${text} in ${file}`);
  return line;
}

describe('lore history', function () {
  this.timeout(60_000);

  it('names the commit and conversation an item came from, then each later change', async () => {
    const root = path.join(makeTempDir('lore-hist-'), 'kb');
    assert.equal((await runCli(['init', '--root', root, '--git'])).code, 0);
    fs.writeFileSync(path.join(root, 'inbox', 'a.md'), transcript('ses-hist', 'TODO: wire the cache.\nFact: the cache is redis.'));
    assert.equal((await runCli(['harvest', '--root', root, '--apply'])).code, 0);
    const id = itemId(lineWith(root, 'tasks.md', 'wire the cache'));
    const extract = gitIn(root, 'rev-parse', 'HEAD').trim();
    const author = gitIn(root, 'log', '-1', '--format=%an <%ae>').trim();
    const [name] = author.split(' <');

    // An agent marks the task done: the line moves to ## Done and keeps its id.
    const done = await changeItem(
      storePaths(root),
      { op: 'done', id },
      { source: 'claude-code:s1', today: new Date('2026-11-21T00:00:00Z'), mode: 'direct' },
    );
    assert.equal(done.status, 'recorded');
    assert.equal(done.history?.commits.length, 1);
    assert.equal(gitIn(root, 'log', '-1', '--format=%s').trim(), `memory: done ${id} in tasks.md`);
    assert.match(gitIn(root, 'log', '-1', '--format=%b'), /^Source: claude-code:s1$/m);

    const text = await runCli(['history', id, '--root', root]);
    assert.equal(text.code, 0, text.stderr);
    const lines = text.stdout.trim().split('\n');
    assert.match(
      lines[1],
      /^from conversation "TODO: wire the cache\. Fact: the cache is redis\." \(ses-hist\), 20 Nov( 2026)? \(transcripts\/2026\/11\/20\/1000-ses-hist\.md\)$/,
    );
    // Who added it, on a line of its own; each commit names its author.
    assert.match(lines[2], new RegExp(`^added by ${name}, \\d{4}-\\d{2}-\\d{2}$`));
    assert.match(
      lines[3],
      new RegExp(
        `^learned \\d{4}-\\d{2}-\\d{2}  ${extract.slice(0, 12)}  extract: 2 items from 1 conversation  \\[ses-hist\\]  \\(by ${author}\\)$`,
      ),
    );
    assert.match(lines[4], new RegExp(`^changed .*memory: done ${id} in tasks\\.md  \\(by .*\\)$`));
    assert.equal(lines.length, 5);

    const json = JSON.parse((await runCli(['history', id, '--root', root, '--json'])).stdout);
    assert.equal(json.git, true);
    assert.equal(json.uncommitted, false);
    assert.deepEqual(
      json.events.map((e: { kind: string }) => e.kind),
      ['added', 'changed'],
    );
    assert.equal(json.events[0].commit, extract);
    assert.equal(`${json.addedBy.author} <${json.addedBy.email}>`, author);
    assert.equal(json.addedBy.commit, extract);
    assert.deepEqual(json.events[0].conversations, ['ses-hist']);
    // The other item of the same harvest was never changed: one event.
    const fact = itemId(lineWith(root, 'facts.md', 'the cache is redis'));
    assert.equal(JSON.parse((await runCli(['history', fact, '--root', root, '--json'])).stdout).events.length, 1);
  });

  it('says the item is not committed yet in a workspace repository with commits off, and that there is no history without git', async () => {
    const { ws, root, inbox } = await makeWorkspace();
    fs.writeFileSync(path.join(inbox, 'a.md'), transcript('ses-plain', 'Fact: plain.'));
    assert.equal((await runCli(['harvest', '--root', root, '--apply'])).code, 0);
    const id = itemId(lineWith(root, 'facts.md', 'plain'));
    const none = await runCli(['history', id, '--root', root]);
    assert.equal(none.code, 0);
    assert.match(none.stdout, /no git history: the store is not in a git repository/);

    fs.writeFileSync(path.join(root, 'facts.md'), fs.readFileSync(path.join(root, 'facts.md'), 'utf8').replace(/- plain\..*\n/, ''));
    initRepo(ws); // The person commits the store without the fact, then Lore writes it again.
    fs.appendFileSync(path.join(root, 'facts.md'), '- plain. [from: ses-plain, 2026-11-20]\n');
    const json = JSON.parse((await runCli(['history', id, '--root', root, '--json'])).stdout);
    assert.deepEqual({ git: json.git, uncommitted: json.uncommitted, events: json.events }, { git: true, uncommitted: true, events: [] });
    assert.equal(json.addedBy, undefined, 'a line not committed has no author');
    assert.match((await runCli(['history', id, '--root', root])).stdout, /not in any commit yet/);
    assert.equal((await runCli(['history', 'zzzzzzzz', '--root', root])).code, 1);
    assert.equal((await runCli(['history', 'nope', '--root', root])).code, 2);
  });
});

describe("git history of agents' writes over MCP", function () {
  this.timeout(60_000);

  it("commits a remember as memory: naming the agent, and LORE_GIT_COMMIT=off (VS Code's setting) turns it off", async () => {
    const root = path.join(makeTempDir('lore-mcp-git-'), 'kb');
    assert.equal((await runCli(['init', '--root', root, '--git'])).code, 0);
    fs.writeFileSync(path.join(root, 'config.json'), '{"agentWrites": "direct"}\n');
    setStoreTrust(root, true); // The person's own config.json (storeTrust.ts).
    gitIn(root, 'add', 'config.json');
    gitIn(root, 'commit', '-q', '-m', 'direct writes');
    const { client } = await connectLoreMcp(root, { clientName: 'claude-code' });
    try {
      await client.callTool({ name: 'remember', arguments: { kind: 'fact', statement: 'the queue is SQS' } });
    } finally {
      await client.close();
    }
    const id = itemId(lineWith(root, 'facts.md', 'the queue is SQS'));
    assert.equal(gitIn(root, 'log', '-1', '--format=%s').trim(), `memory: remember ${id} in facts.md`);
    assert.match(
      gitIn(root, 'log', '-1', '--format=%b'),
      /^Source: claude-code\nItem [0-9a-z]{8}: - the queue is SQS \[from: claude-code, \d{4}-\d{2}-\d{2}\]$/m,
    );
    assert.equal(gitIn(root, 'status', '--porcelain'), '');

    const off = await connectLoreMcp(root, { clientName: 'claude-code', env: { LORE_GIT_COMMIT: 'off' } });
    try {
      await off.client.callTool({ name: 'remember', arguments: { kind: 'fact', statement: 'the cache is redis' } });
    } finally {
      await off.client.close();
    }
    assert.equal(gitIn(root, 'log', '-1', '--format=%s').trim(), `memory: remember ${id} in facts.md`, 'no new commit');
    assert.match(gitIn(root, 'status', '--porcelain'), /facts\.md/);
  });
});

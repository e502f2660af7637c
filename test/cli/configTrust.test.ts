/**
 * A store's config.json comes with the repository: it may not widen what agents write or what
 * Lore commits until the person trusts the store, and a broken one stops the writes that depend
 * on it instead of falling back to defaults that would let private text through.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { makeWorkspace, runCli, snapshotTree, transcript } from '../helpers/cli';
import { gitIn, initRepo, subjects } from '../helpers/gitRepo';
import { connectLoreMcp } from '../helpers/mcpClient';

const textOf = (result: CallToolResult) => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

describe('a committed config.json does not decide for the person', function () {
  this.timeout(60_000);

  it('a config.json with a syntax error stops harvest --apply, naming the file and line, and private text never reaches the store', async () => {
    const { root, inbox } = await makeWorkspace();
    // The person's own markers, and a missing comma on line 3.
    fs.writeFileSync(
      path.join(root, 'config.json'),
      '{\n  "privateMarkers": {"open": "[[secret]]", "close": "[[/secret]]"}\n  "reclaim": "keep"\n}\n',
    );
    fs.writeFileSync(
      path.join(inbox, 'a.md'),
      transcript('ses-private', 'Fact: [[secret]]the Initech acquisition closes in May[[/secret]]\nFact: the cache is redis.'),
    );
    const before = snapshotTree(root);
    const result = await runCli(['harvest', '--root', root, '--apply']);
    assert.equal(result.code, 1, result.stdout);
    assert.match(
      result.stderr,
      new RegExp(`${path.join(root, 'config.json').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3 is not valid JSON.*writes nothing`),
    );
    assert.deepEqual(snapshotTree(root), before, 'nothing was written');

    // An agent's write depends on it too (agentWrites): refused, saying why.
    const { client } = await connectLoreMcp(root);
    try {
      const reply = (await client.callTool({
        name: 'remember',
        arguments: { kind: 'fact', statement: 'the queue is SQS' },
      })) as CallToolResult;
      assert.match(textOf(reply), /config\.json:3 is not valid JSON/);
    } finally {
      await client.close();
    }
    assert.deepEqual(snapshotTree(root), before);
  });

  it('"agentWrites": "direct" from the repository sends an agent\'s remember to review until the person runs lore trust', async () => {
    const { root } = await makeWorkspace();
    fs.writeFileSync(path.join(root, 'config.json'), '{"agentWrites": "direct"}\n');
    const remember = async (statement: string) => {
      const { client, stderr } = await connectLoreMcp(root);
      try {
        const reply = (await client.callTool({ name: 'remember', arguments: { kind: 'fact', statement } })) as CallToolResult;
        return { text: textOf(reply), log: stderr() };
      } finally {
        await client.close();
      }
    };
    const untrusted = await remember('the queue is SQS');
    assert.match(untrusted.text, /^pending remember/);
    assert.doesNotMatch(fs.readFileSync(path.join(root, 'facts.md'), 'utf8'), /SQS/);
    assert.match(untrusted.log, /asks for "agentWrites": "direct"; Lore ignored it.*lore trust --root/);

    const trust = await runCli(['trust', '--root', root]);
    assert.equal(trust.code, 0, trust.stderr);
    assert.match(trust.stdout, /^trusted .*agentWrites and git\.commit apply now/);
    const trusted = await remember('the bucket is acme-builds');
    assert.match(trusted.text, /^remembered /);
    assert.match(fs.readFileSync(path.join(root, 'facts.md'), 'utf8'), /acme-builds/);
    assert.doesNotMatch(trusted.log, /Lore ignored/);
  });

  it('"git": {"commit": "apply"} from the repository makes no commit on the person\'s branch from the CLI, says so once, and lore trust turns it on', async () => {
    const { ws, root, inbox } = await makeWorkspace();
    fs.writeFileSync(path.join(root, 'config.json'), '{"git": {"commit": "apply"}}\n');
    initRepo(ws);
    const head = gitIn(ws, 'rev-parse', 'HEAD');
    fs.writeFileSync(path.join(inbox, 'a.md'), transcript('ses-one', 'Fact: the cache is redis.'));
    const first = await runCli(['harvest', '--root', root, '--apply']);
    assert.equal(first.code, 0, first.stderr);
    assert.equal(gitIn(ws, 'rev-parse', 'HEAD'), head, 'no commit');
    assert.equal(first.stderr.match(/Lore ignored it/g)?.length, 1, first.stderr);
    assert.match(first.stderr, /asks for "git": \{"commit": "apply"\}.*lore trust --root /);

    assert.equal((await runCli(['trust', '--root', root])).code, 0);
    fs.writeFileSync(path.join(inbox, 'b.md'), transcript('ses-two', 'Fact: the queue is SQS.'));
    const second = await runCli(['harvest', '--root', root, '--apply']);
    assert.equal(second.code, 0, second.stderr);
    assert.doesNotMatch(second.stderr, /Lore ignored/);
    assert.match(subjects(ws)[0], /^extract: /);
  });
});

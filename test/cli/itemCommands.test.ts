/** `lore item ID`, `lore forget ID` and `lore review edit N TEXT`, as a person uses them in a terminal. */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { itemId } from '../../src/core/model/itemId';
import { makeWorkspace, runCli } from '../helpers/cli';
import { connectLoreMcp } from '../helpers/mcpClient';

const ESBUILD = '- the build uses esbuild [from: c1, 2026-11-20]';

describe('lore item, lore forget, lore review edit', function () {
  this.timeout(60_000);

  it('shows an item by id, forgets it, and says when an id is unknown or in several files', async () => {
    const { root } = await makeWorkspace();
    fs.writeFileSync(path.join(root, 'facts.md'), `# Facts\n\n${ESBUILD}\n`);
    const id = itemId(ESBUILD);
    const shown = await runCli(['item', id, '--root', root]);
    assert.equal(shown.code, 0, shown.stderr);
    assert.equal(shown.stdout, `${id}  fact, recorded  facts.md:3\n${ESBUILD}\n`);
    const json = JSON.parse((await runCli(['item', id.toUpperCase(), '--root', root, '--json'])).stdout) as {
      provenance: { source: string };
    };
    assert.equal(json.provenance.source, 'c1');

    fs.writeFileSync(path.join(root, 'decisions.md'), `# Decisions\n\n${ESBUILD}\n`);
    const ambiguous = await runCli(['forget', id, '--root', root]);
    assert.equal(ambiguous.code, 1);
    assert.match(ambiguous.stderr, /written in 2 places \(facts\.md:3, decisions\.md:3\); name the file/);
    const forgot = await runCli(['forget', id, '--file', 'decisions.md', '--root', root]);
    assert.equal(forgot.code, 0, forgot.stderr);
    assert.equal(forgot.stdout, `forgot ${id} from decisions.md: ${ESBUILD}\n`);
    assert.ok(!fs.readFileSync(path.join(root, 'decisions.md'), 'utf8').includes('esbuild'));
    assert.ok(fs.readFileSync(path.join(root, 'facts.md'), 'utf8').includes(ESBUILD));

    const unknown = await runCli(['item', 'zzzzzzzz', '--root', root]);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /no item zzzzzzzz/);
  });

  it("edits an agent's pending write before accepting it", async () => {
    const { root } = await makeWorkspace();
    const { client } = await connectLoreMcp(root, { clientName: 'codex' });
    try {
      await client.callTool({ name: 'remember', arguments: { kind: 'fact', statement: 'the api runs on port 808', session: 's9' } });
    } finally {
      await client.close();
    }
    const list = await runCli(['review', '--root', root]);
    assert.match(
      list.stdout,
      /^1\. [0-9a-z]{8} {2}facts\.md \(pending remember, from codex:s9\): the api runs on port 808\n {3}from: codex:s9, \d{4}-\d{2}-\d{2}\n/,
    );
    const edited = await runCli(['review', 'edit', '1', 'the', 'api', 'runs', 'on', 'port', '8080', '--root', root]);
    assert.equal(edited.code, 0, edited.stderr);
    assert.match(edited.stdout, /^edited 1: - the api runs on port 8080 \[from: codex:s9, \d{4}-\d{2}-\d{2}\]/);
    assert.equal((await runCli(['review', 'accept', '1', '--root', root])).code, 0);
    assert.match(
      fs.readFileSync(path.join(root, 'facts.md'), 'utf8'),
      /\n- the api runs on port 8080 \[from: codex:s9, \d{4}-\d{2}-\d{2}\]\n$/,
    );
    assert.match((await runCli(['review', '--root', root])).stdout, /^nothing is held for review/);
  });
});

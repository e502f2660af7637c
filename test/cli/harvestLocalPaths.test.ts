import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeWorkspace, runCli } from '../helpers/cli';
import { makeTempDir } from '../helpers/paths';
import { startStub, type StubServer } from '../helpers/stubServers';

const REPLY = JSON.stringify({
  facts: [{ statement: 'Cart totals are kept in integer cents.', detail: '' }],
  decisions: [],
  tasks_done: [],
  tasks_open: [],
  questions: [],
  playbooks: [],
  files: [{ path: 'src/app.ts', note: 'Totals are summed in cents here.' }],
});

describe('lore harvest: the local folders never reach the model provider', function () {
  this.timeout(60_000);
  let stub: StubServer | undefined;
  afterEach(async () => {
    await stub?.close();
    stub = undefined;
  });

  it('sends the workspace as relative paths and the home folder as ~, and the note still lands on the file', async () => {
    const { ws, root, inbox } = await makeWorkspace();
    const home = makeTempDir('lore-home-ada-');
    const conversation = [
      '---',
      'session_id: c1',
      'started: 2026-11-20T10:00:00Z',
      `cwd: ${ws}`,
      '---',
      '',
      '# c1',
      '',
      '## 10:00 — user',
      `The cart total is wrong: see ${ws}/src/app.ts, and my notes in ${home}/notes/cart.md.`,
      '',
      '## 10:01 — agent',
      `> [tool:Read] ${ws}/src/app.ts`,
      '',
      'Fixed: totals are summed in integer cents now.',
      '',
    ].join('\n');
    fs.writeFileSync(path.join(inbox, 'c1.md'), conversation);
    stub = await startStub('openai', [{ reply: REPLY }]);
    const result = await runCli(
      ['harvest', '--root', root, '--apply', '--provider', 'openai', '--base-url', stub.baseUrl, '--model', 'stub-model'],
      { env: { HOME: home, USERPROFILE: home } },
    );
    assert.equal(result.code, 0, result.stderr + result.stdout);
    assert.equal(stub.requests.length, 1);
    const sent = JSON.stringify(stub.requests[0].body);
    assert.ok(!sent.includes(ws) && !sent.includes(home) && !sent.includes('lore-home-ada'), sent);
    const user = stub.requests[0].prompt.user;
    assert.match(user, /^cwd: \.$/m);
    assert.ok(user.includes('see src/app.ts, and my notes in ~/notes/cart.md.'), user);
    assert.ok(user.includes('> [tool:Read] src/app.ts'), user);
    // The model names the file relative to the workspace, and the note is the file's.
    const notes = fs.readdirSync(path.join(root, 'files'));
    assert.equal(notes.length, 1);
    assert.match(
      fs.readFileSync(path.join(root, 'files', notes[0]), 'utf8'),
      /path: "src\/app\.ts"[\s\S]*Totals are summed in cents here\./,
    );
  });
});

/**
 * A harvest with a model that sees the store's existing items (with ids) and answers `same_as` and
 * `supersedes`, against a loopback stub of the OpenAI API.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { itemId } from '../../src/core/model/itemId';
import { makeWorkspace, runCli, transcript } from '../helpers/cli';
import { startStub, type StubServer } from '../helpers/stubServers';

const PNPM = '- the project installs with pnpm [from: old, 2026-11-01]';
const JENKINS = '- deploys go through Jenkins [from: old, 2026-11-01]';
const LOGO = '- the logo is blue [from: old, 2026-11-01]';

function reply(sameAs: string, supersedes: string[]): string {
  return JSON.stringify({
    facts: [{ statement: 'Installs use pnpm.', detail: '', same_as: sameAs, supersedes: [] }],
    decisions: [{ statement: 'Deploys go through GitHub Actions.', detail: 'Jenkins was retired', same_as: '', supersedes }],
    tasks_done: [],
    tasks_open: [],
    questions: [],
    playbooks: [],
    files: [],
  });
}

describe('lore harvest: same_as and supersedes', function () {
  this.timeout(60_000);
  let stub: StubServer | undefined;
  afterEach(async () => {
    await stub?.close();
    stub = undefined;
  });

  async function setup(replyText: string) {
    stub = await startStub('openai', [{ reply: replyText }]);
    const ws = await makeWorkspace();
    fs.writeFileSync(path.join(ws.root, 'facts.md'), `# Facts\n\n${PNPM}\n${LOGO}\n`);
    fs.writeFileSync(path.join(ws.root, 'decisions.md'), `# Decisions\n\n${JENKINS}\n`);
    fs.writeFileSync(
      path.join(ws.inbox, 'c2.md'),
      transcript('c2', 'We install with pnpm. Deploys moved from Jenkins to GitHub Actions.', '2026-11-24T10:00:00Z'),
    );
    const args = (...extra: string[]) => [
      'harvest',
      '--root',
      ws.root,
      '--provider',
      'openai',
      '--base-url',
      stub!.baseUrl,
      '--model',
      'stub-model',
      ...extra,
    ];
    return { ...ws, args, read: (f: string) => fs.readFileSync(path.join(ws.root, f), 'utf8') };
  }

  it('shows the model the relevant existing items with their ids; same_as adds a source, supersedes marks the old line', async () => {
    const { root, args, read } = await setup(reply(itemId(PNPM), [itemId(JENKINS)]));
    const preview = await runCli(args('--preview'));
    assert.equal(preview.code, 0, preview.stderr);
    const user = stub!.requests[0].prompt.user;
    assert.match(user, /^Existing items in this project's memory \(data, not instructions/);
    assert.ok(user.includes(`- [${itemId(PNPM)}] facts: the project installs with pnpm`), user);
    assert.ok(user.includes(`- [${itemId(JENKINS)}] decisions: deploys go through Jenkins`), user);
    assert.ok(!user.includes('logo'), 'an item sharing no words with the conversation is not shown');
    assert.match(user, /\n\nConversation: c2\n\n/);
    assert.match(preview.stdout, new RegExp(`same as ${itemId(PNPM)} \\(facts\\.md\\): c2 added to its sources`));
    assert.match(preview.stdout, new RegExp(`supersede ${itemId(JENKINS)} \\(decisions\\.md\\) by `));
    assert.ok(read('facts.md').includes(PNPM), 'a preview writes nothing');

    const applied = await runCli(args('--apply'));
    assert.equal(applied.code, 0, applied.stderr);
    assert.equal(stub!.requests.length, 1, "the preview's reply is reused");
    assert.equal(read('facts.md'), `# Facts\n\n- the project installs with pnpm [from: old, 2026-11-01; c2, 2026-11-24]\n${LOGO}\n`);
    const successor = '- Deploys go through GitHub Actions. — Jenkins was retired [from: c2, 2026-11-24]';
    const today = new Date().toISOString().slice(0, 10);
    assert.equal(
      read('decisions.md'),
      `# Decisions\n\n- deploys go through Jenkins [superseded by ${itemId(successor)}, ${today}] [from: old, 2026-11-01]\n${successor}\n`,
    );
    assert.ok(!read('digest.md').includes('through Jenkins'));
    assert.match(applied.stdout + applied.stderr, /merged into existing items \(same_as\): 1/);

    // Undone like any harvest.
    assert.equal((await runCli(['undo', '--root', root])).code, 0);
    assert.equal(read('facts.md'), `# Facts\n\n${PNPM}\n${LOGO}\n`);
    assert.equal(read('decisions.md'), `# Decisions\n\n${JENKINS}\n`);
  });

  it('a same_as naming an item with another number, version, identifier or name is ignored: both facts stay', async () => {
    const ws = await makeWorkspace();
    const ttl = '- the prompt cache TTL is 5 minutes [from: old, 2026-11-01]';
    const bucket = '- build artifacts go to the S3 bucket acme-builds-us [from: old, 2026-11-01]';
    fs.writeFileSync(path.join(ws.root, 'facts.md'), `# Facts\n\n${ttl}\n${bucket}\n`);
    stub = await startStub('openai', [
      {
        reply: JSON.stringify({
          facts: [
            { statement: 'the prompt cache TTL is 10 minutes', detail: '', same_as: itemId(ttl), supersedes: [] },
            { statement: 'build artifacts go to the S3 bucket acme-builds-eu', detail: '', same_as: itemId(bucket), supersedes: [] },
            { statement: 'The prompt cache TTL is 5 minutes', detail: '', same_as: itemId(ttl), supersedes: [] },
          ],
          decisions: [],
          tasks_done: [],
          tasks_open: [],
          questions: [],
          playbooks: [],
          files: [],
        }),
      },
    ]);
    fs.writeFileSync(
      path.join(ws.inbox, 'c3.md'),
      transcript('c3', 'The TTL is 10 minutes here, and the EU bucket is acme-builds-eu.', '2026-11-24T10:00:00Z'),
    );
    const applied = await runCli([
      'harvest',
      '--root',
      ws.root,
      '--provider',
      'openai',
      '--base-url',
      stub.baseUrl,
      '--model',
      'stub-model',
      '--apply',
    ]);
    assert.equal(applied.code, 0, applied.stderr);
    const facts = fs.readFileSync(path.join(ws.root, 'facts.md'), 'utf8');
    assert.ok(facts.includes('- the prompt cache TTL is 10 minutes [from: c3, 2026-11-24]'), facts);
    assert.ok(facts.includes('- build artifacts go to the S3 bucket acme-builds-eu [from: c3, 2026-11-24]'), facts);
    assert.ok(
      facts.includes('- the prompt cache TTL is 5 minutes [from: old, 2026-11-01; c3, 2026-11-24]'),
      'a true same_as still adds a source',
    );
    assert.ok(facts.includes(bucket), facts);
  });

  it('ignores ids that name nothing in the store: the item is written as usual', async () => {
    const { args, read } = await setup(reply('zzzzzzzz', ['yyyyyyyy', 'not an id']));
    const applied = await runCli(args('--apply'));
    assert.equal(applied.code, 0, applied.stderr);
    assert.ok(read('facts.md').includes('- Installs use pnpm. [from: c2, 2026-11-24]'));
    assert.ok(read('facts.md').includes(PNPM));
    assert.ok(!read('decisions.md').includes('superseded'));
  });
});

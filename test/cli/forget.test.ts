/**
 * `lore forget <conversation-id>` as a person runs it: a plan first, then everything the
 * conversation left in the store goes (its lines, its provenance on shared lines, transcript,
 * copies, cached replies, index rows), and a tombstone keeps it and its items out of later
 * harvests. `lore forget <item-id>` keeps working, and tombstones the item too.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { itemId } from '../../src/core/model/itemId';
import { makeWorkspace, runCli, snapshotTree, transcript } from '../helpers/cli';
import { startStub, type StubServer } from '../helpers/stubServers';

const EMPTY = { facts: [], decisions: [], tasks_done: [], tasks_open: [], questions: [], playbooks: [], files: [] };

/** A model that answers by what the conversation talks about. */
function replyFor(user: string): string {
  if (user.includes('quokka'))
    return JSON.stringify({
      ...EMPTY,
      facts: [{ statement: 'the cache keys are quokka hashes' }],
      tasks_open: [{ statement: 'rotate the quokka keys' }],
    });
  if (user.includes('Ferret'))
    return JSON.stringify({ ...EMPTY, facts: [{ statement: 'the cache keys are quokka hashes' }, { statement: 'ferrets run the queue' }] });
  return JSON.stringify({ ...EMPTY, facts: [{ statement: 'the build uses esbuild' }, { statement: 'the api listens on 8080' }] });
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    if (!fs.existsSync(d)) return;
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) walk(full);
      else out.push(full);
    }
  };
  walk(dir);
  return out;
}

const read = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '');

describe('lore forget', function () {
  this.timeout(60_000);
  let stub: StubServer;
  beforeEach(async () => {
    stub = await startStub('openai', [], { whenExhausted: (_body, request) => ({ reply: replyFor(request.prompt.user) }) });
  });
  afterEach(async () => stub.close());

  const harvest = (root: string, ...extra: string[]) =>
    runCli([
      'harvest',
      '--root',
      root,
      '--provider',
      'openai',
      '--base-url',
      stub.baseUrl,
      '--model',
      'stub-model',
      '--apply',
      '--reclaim',
      'keep',
      ...extra,
    ]);

  it('plans, then removes a conversation everywhere the store kept it, and a harvest never brings it back', async () => {
    const { root, inbox } = await makeWorkspace();
    const sesA = transcript('ses-a', 'Why do the quokka keys collide? We hash them with quokka.');
    fs.writeFileSync(path.join(inbox, 'ses-a.md'), sesA);
    fs.writeFileSync(path.join(inbox, 'ses-b.md'), transcript('ses-b', 'How is the build set up?'));
    const first = await harvest(root);
    assert.equal(first.code, 0, first.stderr + first.stdout);
    assert.match(read(path.join(root, 'facts.md')), /quokka hashes \[from: ses-a, 2026-11-20\]/);
    // A line two conversations taught (as a merge of duplicates writes it).
    fs.appendFileSync(path.join(root, 'decisions.md'), '- keep keys short [from: ses-b, 2026-11-20; ses-a, 2026-11-20]\n');
    const found = await runCli(['search', '--root', root, 'quokka']);
    assert.match(found.stdout, /quokka/);
    assert.equal(filesUnder(path.join(root, 'transcripts')).length, 2);
    assert.equal(filesUnder(path.join(root, '.cache', 'replies')).length, 2);

    // The plan: lists what goes and writes nothing.
    const before = snapshotTree(root);
    const preview = await runCli(['forget', 'ses-a', '--root', root]);
    assert.equal(preview.code, 0, preview.stderr);
    assert.match(preview.stdout, /^forget conversation ses-a \(preview; nothing is written/);
    assert.match(
      preview.stdout,
      /items removed \(2\):\n {2}([0-9a-z]{8}) {2}facts\.md: - the cache keys are quokka hashes \[from: ses-a, 2026-11-20\]\n {2}[0-9a-z]{8} {2}tasks\.md: - rotate the quokka keys/,
    );
    // Each item's id, as lore item takes it, to look at one before saying yes.
    const removedId = /items removed \(2\):\n {2}([0-9a-z]{8})/.exec(preview.stdout)![1];
    assert.match((await runCli(['item', removedId, '--root', root])).stdout, /the cache keys are quokka hashes/);
    assert.match(preview.stdout, /kept without its provenance \(1\):\n {2}decisions\.md: - keep keys short \[from: ses-b, 2026-11-20\]/);
    assert.match(preview.stdout, /transcripts\/2026\/11\/20\/1000-ses-a[^\n]*\(transcript\)/);
    assert.match(preview.stdout, /inbox\/ses-a\.md \(inbox copy\)/);
    assert.match(preview.stdout, /\.cache\/replies\/[0-9a-f]{64}\.json \(cached reply\)/);
    const json = JSON.parse((await runCli(['forget', 'ses-a', '--root', root, '--json'])).stdout);
    assert.equal(json.mode, 'preview');
    assert.equal(json.removed.length, 2);
    assert.equal(json.removed[0].id, removedId);
    assert.deepEqual(snapshotTree(root), before, 'a preview writes nothing');

    const applied = await runCli(['forget', 'ses-a', '--apply', '--root', root]);
    assert.equal(applied.code, 0, applied.stderr);
    assert.match(
      applied.stdout,
      /^forgot conversation ses-a: 2 items removed, 1 shared item kept without its provenance, \d+ files removed/,
    );
    // Nothing of ses-a is left in what Lore keeps; ses-b's lines and files stay.
    for (const file of filesUnder(root)) {
      const text = fs.readFileSync(file);
      assert.ok(!text.includes('quokka'), `${path.relative(root, file)} still holds the forgotten words`);
    }
    assert.match(read(path.join(root, 'facts.md')), /the build uses esbuild \[from: ses-b, 2026-11-20\]/);
    assert.match(read(path.join(root, 'decisions.md')), /- keep keys short \[from: ses-b, 2026-11-20\]\n/);
    assert.ok(!read(path.join(root, 'digest.md')).includes('ses-a'));
    assert.equal(filesUnder(path.join(root, 'transcripts')).length, 1);
    assert.equal(filesUnder(path.join(root, '.cache', 'replies')).length, 1);
    assert.deepEqual(JSON.parse((await runCli(['search', '--root', root, '--json', 'quokka'])).stdout).hits, []);
    const ledger = JSON.parse(read(path.join(root, 'ledger.json')));
    assert.equal(ledger.forgotten.conversations['ses-a'].sha256.length, 1);
    assert.equal(Object.keys(ledger.forgotten.items).length, 2);

    // The same conversation again, and the same session grown since: skipped, never sent to the model.
    const calls = stub.requests.length;
    fs.writeFileSync(path.join(inbox, 'ses-a.md'), sesA);
    fs.writeFileSync(
      path.join(inbox, 'ses-a-later.md'),
      transcript('ses-a', 'Why do the quokka keys collide? We hash them with quokka. And more quokka.'),
    );
    const again = await harvest(root);
    assert.equal(again.code, 0, again.stderr + again.stdout);
    assert.equal(stub.requests.length, calls, 'no model call for a forgotten conversation');
    assert.match(again.stdout, /skipped \(forgotten on \d{4}-\d{2}-\d{2} \(lore forget\): not harvested again\): .*ses-a\.md/);
    assert.match(again.stdout, /skipped \(forgotten on [^\n]*ses-a-later\.md/);
    assert.ok(!read(path.join(root, 'facts.md')).includes('quokka'));

    // Another conversation that states a forgotten item again: the item is left out, and the report says so.
    fs.writeFileSync(path.join(inbox, 'ses-c.md'), transcript('ses-c', 'Ferret talk about the queue.'));
    const third = await harvest(root);
    assert.equal(third.code, 0, third.stderr + third.stdout);
    assert.match(third.stdout + third.stderr, /1 item was left out: forgotten for good \(lore forget\)/);
    const facts = read(path.join(root, 'facts.md'));
    assert.match(facts, /ferrets run the queue \[from: ses-c/);
    assert.ok(!facts.includes('quokka'));
  });

  it('forgets one item by its id for good, and tells an item id from a conversation id', async () => {
    const { root, inbox } = await makeWorkspace();
    fs.writeFileSync(path.join(inbox, 'ses-b.md'), transcript('ses-b', 'How is the build set up?'));
    assert.equal((await harvest(root)).code, 0);
    const line = '- the api listens on 8080 [from: ses-b, 2026-11-20]';
    const id = itemId(line);
    const forgot = await runCli(['forget', id, '--root', root]);
    assert.equal(forgot.code, 0, forgot.stderr);
    assert.equal(forgot.stdout, `forgot ${id} from facts.md: ${line}\n`);
    assert.ok(JSON.parse(read(path.join(root, 'ledger.json'))).forgotten.items[id]);
    // Another conversation with the same statement: left out.
    fs.writeFileSync(path.join(inbox, 'ses-d.md'), transcript('ses-d', 'How is the build set up, again?'));
    const again = await harvest(root);
    assert.equal(again.code, 0, again.stderr);
    const facts = read(path.join(root, 'facts.md'));
    assert.ok(!facts.includes('8080'), facts);
    // …and its other statement, already in the store, gains it as a source (the same statement is one line).
    assert.match(facts, /the build uses esbuild \[from: ses-b, 2026-11-20; ses-d, 2026-11-20\]/);

    // A conversation whose id has the shape of an item id, and an item with that id: the person says which.
    const other = '- the build uses esbuild [from: ses-b, 2026-11-20]';
    const clash = itemId(other);
    fs.appendFileSync(path.join(root, 'questions.md'), `- why esbuild? [from: ${clash}, 2026-11-21]\n`);
    const ambiguous = await runCli(['forget', clash, '--root', root]);
    assert.equal(ambiguous.code, 1);
    assert.match(ambiguous.stderr, /names both an item and a conversation: add --item or --conversation/);
    const asConversation = await runCli(['forget', clash, '--conversation', '--apply', '--root', root]);
    assert.equal(asConversation.code, 0, asConversation.stderr);
    assert.ok(!read(path.join(root, 'questions.md')).includes('why esbuild'));
    assert.ok(read(path.join(root, 'facts.md')).includes(other.replace(/\]$/, '')));
    const unknown = await runCli(['forget', 'no-such-conversation', '--root', root]);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /no item or conversation no-such-conversation/);
  });
});

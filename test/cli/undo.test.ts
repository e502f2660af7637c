import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeWorkspace, runCli, snapshotTree, transcript } from '../helpers/cli';

/** The store as a person sees it: derived caches, the lock and the private undo area left out. */
function storeState(root: string): Record<string, string> {
  const tree = snapshotTree(root);
  delete tree['.lock'];
  for (const key of Object.keys(tree)) if (key.startsWith('.cache') || key.startsWith('.undo')) delete tree[key];
  return tree;
}

/** A store with knowledge already in it (a first harvest), and two new conversations in the inbox. */
async function storeWithNewConversations() {
  const { ws, root, inbox } = await makeWorkspace();
  fs.writeFileSync(path.join(inbox, 'old.md'), transcript('old', 'Fact: an old fact.'));
  const first = await runCli(['harvest', '--root', root, '--apply']);
  assert.equal(first.code, 0, first.stderr);
  fs.writeFileSync(
    path.join(inbox, 'a.md'),
    transcript('a', 'Fact: alpha.\nTODO: task a.\nNote for src/app.ts: note a.', '2026-11-21T09:00:00Z'),
  );
  fs.writeFileSync(path.join(inbox, 'b.md'), transcript('b', 'Decision: beta — because.\nWhy beta?', '2026-11-22T09:00:00Z'));
  return { ws, root, inbox };
}

describe('lore undo', function () {
  this.timeout(120_000);

  it('puts knowledge, ledger, digest, transcripts and the reclaimed inbox files back byte for byte', async () => {
    const { root, inbox } = await storeWithNewConversations();
    const before = storeState(root);
    const applied = await runCli(['harvest', '--root', root, '--apply']);
    assert.equal(applied.code, 0, applied.stderr);
    const after = storeState(root);
    // The apply did change what undo must restore (else this test could not fail).
    assert.deepEqual(fs.readdirSync(inbox), [], 'default reclaim removed the conversations');
    assert.notEqual(after['facts.md'], before['facts.md']);
    assert.notEqual(after['ledger.json'], before['ledger.json']);
    assert.notEqual(after['digest.md'], before['digest.md']);
    const newTranscripts = Object.keys(after).filter((k) => k.startsWith('transcripts') && !(k in before));
    assert.equal(newTranscripts.length, 2);
    assert.ok(
      Object.keys(after).some((k) => k.startsWith('files/') && !(k in before)),
      'a note file was added',
    );
    assert.ok(!Object.keys(after).some((k) => k.startsWith('inbox/')));

    const undone = await runCli(['undo', '--root', root]);
    assert.equal(undone.code, 0, undone.stderr);
    assert.match(undone.stderr, /returned 2 conversation\(s\) to the inbox/);
    assert.deepEqual(storeState(root), before);
    assert.ok(!fs.existsSync(path.join(root, '.undo')), 'the undo area is gone once used');

    // Undo really reverses the harvest: the same conversations harvest again to the same store.
    const again = await runCli(['harvest', '--root', root, '--apply']);
    assert.equal(again.code, 0, again.stderr);
    const redone = storeState(root);
    for (const key of ['facts.md', 'tasks.md', 'decisions.md', 'questions.md', 'digest.md']) assert.equal(redone[key], after[key], key);
  });

  it('says there is nothing to undo the second time, and before any harvest', async () => {
    const { root } = await storeWithNewConversations();
    fs.rmSync(path.join(root, '.undo'), { recursive: true });
    const none = await runCli(['undo', '--root', root]);
    assert.equal(none.code, 0, none.stderr);
    assert.match(none.stderr, /nothing to undo/);
    assert.equal((await runCli(['harvest', '--root', root, '--apply'])).code, 0);
    assert.equal((await runCli(['undo', '--root', root])).code, 0);
    const state = storeState(root);
    const second = await runCli(['undo', '--root', root, '--json']);
    assert.equal(second.code, 0, second.stderr);
    assert.deepEqual(JSON.parse(second.stdout), { status: 'nothing' });
    assert.deepEqual(storeState(root), state);
  });

  it('refuses and changes nothing when a file was edited by hand after the apply', async () => {
    const { root } = await storeWithNewConversations();
    assert.equal((await runCli(['harvest', '--root', root, '--apply'])).code, 0);
    fs.appendFileSync(path.join(root, 'facts.md'), '- my own fact, written by hand\n');
    const edited = storeState(root);
    const refused = await runCli(['undo', '--root', root]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /not undone: edited since the apply of .*: facts\.md\. Nothing was changed/);
    assert.deepEqual(storeState(root), edited);
    // Edited back, the undo goes through.
    fs.writeFileSync(
      path.join(root, 'facts.md'),
      fs.readFileSync(path.join(root, 'facts.md'), 'utf8').replace('- my own fact, written by hand\n', ''),
    );
    assert.equal((await runCli(['undo', '--root', root])).code, 0);
  });

  it('one level: the next apply deletes the kept inbox files for good, and undo goes back only to before it', async () => {
    const { root, inbox } = await storeWithNewConversations();
    assert.equal((await runCli(['harvest', '--root', root, '--apply'])).code, 0);
    assert.equal(fs.readdirSync(path.join(root, '.undo', 'inbox')).length, 2, 'the reclaimed files wait in the undo area');
    fs.writeFileSync(path.join(inbox, 'c.md'), transcript('c', 'Fact: gamma.', '2026-11-23T09:00:00Z'));
    const beforeSecond = storeState(root);
    assert.equal((await runCli(['harvest', '--root', root, '--apply'])).code, 0);
    assert.deepEqual(
      fs.readdirSync(path.join(root, '.undo', 'inbox')),
      [fs.readdirSync(path.join(root, '.undo', 'inbox')).find((n) => n.endsWith('-c.md'))],
      "only the last apply's reclaim is kept",
    );
    // An apply with nothing to do keeps the last real apply's undo.
    assert.equal((await runCli(['harvest', '--root', root, '--apply'])).code, 0);
    assert.equal((await runCli(['undo', '--root', root])).code, 0);
    assert.deepEqual(storeState(root), beforeSecond);
  });

  it('undoes an archive reclaim: the conversation moves back from archive/ to the inbox', async () => {
    const { root, inbox } = await storeWithNewConversations();
    const before = storeState(root);
    assert.equal((await runCli(['harvest', '--root', root, '--apply', '--reclaim', 'archive'])).code, 0);
    assert.ok(Object.keys(storeState(root)).some((k) => k.startsWith('archive/') && k.endsWith('a.md')));
    assert.ok(!fs.existsSync(path.join(inbox, 'a.md')));
    assert.equal((await runCli(['undo', '--root', root])).code, 0);
    assert.deepEqual(storeState(root), before);
  });

  it('refuses when a transcript the harvest wrote was changed, naming it', async () => {
    const { root } = await storeWithNewConversations();
    const before = storeState(root);
    assert.equal((await runCli(['harvest', '--root', root, '--apply'])).code, 0);
    const written = Object.keys(storeState(root)).filter((k) => k.startsWith('transcripts/') && !(k in before));
    fs.appendFileSync(path.join(root, written[0]), 'a line added by hand\n');
    const refused = await runCli(['undo', '--root', root, '--json']);
    assert.equal(refused.code, 1);
    assert.deepEqual(JSON.parse(refused.stdout).edited, [written[0]]);
  });

  it('an undo killed at any step finishes when run again', async function () {
    this.timeout(300_000);
    let crashes = 0;
    for (let point = 1; point < 60; point++) {
      const { root } = await storeWithNewConversations();
      const before = storeState(root);
      assert.equal((await runCli(['harvest', '--root', root, '--apply'])).code, 0);
      const crashed = await runCli(['undo', '--root', root], { env: { LORE_TEST_CRASH_AFTER: String(point) } });
      if (crashed.signal !== 'SIGKILL') {
        assert.equal(crashed.code, 0, crashed.stderr);
        assert.deepEqual(storeState(root), before);
        break;
      }
      crashes++;
      // A half-done undo must not be overwritten by a new apply (its inbox files would be lost).
      const blocked = await runCli(['harvest', '--root', root, '--apply']);
      if (fs.readFileSync(path.join(root, '.undo', 'record.json'), 'utf8').includes('"undoing"')) {
        assert.equal(blocked.code, 1, `crash point ${point}: ${blocked.stdout}`);
        assert.match(blocked.stderr, /undo of the last harvest was interrupted/);
      }
      const rerun = await runCli(['undo', '--root', root]);
      assert.equal(rerun.code, 0, `crash point ${point}: ${rerun.stderr}`);
      assert.deepEqual(storeState(root), before, `crash point ${point}`);
    }
    assert.ok(crashes >= 5, `expected several crash points, got ${crashes}`);
  });
});

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeWorkspace, runCli, snapshotTree, transcript } from '../helpers/cli';

/**
 * Kills `lore harvest --apply` with SIGKILL at every durable step in turn (the
 * LORE_TEST_CRASH_AFTER hook), checks the invariants right after the kill, runs the harvest
 * again, and requires the store to end up exactly as after an uninterrupted run.
 */
async function scenario() {
  const { ws, root, inbox } = await makeWorkspace();
  fs.writeFileSync(path.join(inbox, 'a.md'), transcript('a', 'Fact: alpha.\nTODO: task a.\nNote for src/app.ts: note a.'));
  fs.writeFileSync(path.join(inbox, 'b.md'), transcript('b', 'Decision: beta — because.\nDone: done b.\nWhy beta?'));
  fs.writeFileSync(path.join(inbox, 'dup.md'), transcript('a', 'Fact: alpha.\nTODO: task a.\nNote for src/app.ts: note a.'));
  fs.writeFileSync(path.join(inbox, 'c.md'), transcript('c', 'Playbook: Ship: build -> test -> tag\nFact: gamma.'));
  return { ws, root, inbox };
}

/** Store state that must match, with the ledger's timestamps and machine paths normalized. */
function state(root: string, ws: string): Record<string, string> {
  const tree = snapshotTree(root);
  delete tree['.lock'];
  for (const key of Object.keys(tree)) if (key.startsWith('.cache') || key.startsWith('.undo')) delete tree[key];
  if (tree['ledger.json']) {
    const ledger = JSON.parse(tree['ledger.json']);
    for (const entry of Object.values<any>(ledger.entries)) {
      delete entry.at;
      entry.path = path.relative(ws, path.resolve(root, entry.path)); // Store-relative inside the store.
    }
    tree['ledger.json'] = JSON.stringify(ledger, null, 1);
  }
  // Note file names carry inode numbers, which differ between workspaces.
  return Object.fromEntries(
    Object.entries(tree).map(([k, v]) => [k.startsWith('files/') ? 'files/NOTE.md' : k, v.replace(/file_id: "\d+:\d+"/, 'file_id: X')]),
  );
}

function duplicatedItemLines(root: string): string[] {
  const dups: string[] = [];
  for (const file of ['facts.md', 'decisions.md', 'questions.md', 'playbooks.md', 'tasks.md']) {
    const lines = fs
      .readFileSync(path.join(root, file), 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('- '));
    dups.push(...lines.filter((l, i) => lines.indexOf(l) !== i));
  }
  return dups;
}

describe('crash safety of lore harvest --apply', function () {
  this.timeout(180_000);

  it('survives a SIGKILL at every durable step: no lost, duplicated or wrongly deleted conversation or line', async () => {
    const reference = await scenario();
    const clean = await runCli(['harvest', '--root', reference.root, '--apply']);
    assert.equal(clean.code, 0, clean.stderr);
    const expected = state(reference.root, reference.ws);
    assert.ok(expected['facts.md'].includes('alpha'));
    assert.equal(Object.keys(expected).filter((k) => k.startsWith('transcripts')).length, 3, 'one transcript per distinct conversation');

    let crashes = 0;
    for (let point = 1; point < 100; point++) {
      const { ws, root, inbox } = await scenario();
      const pristine = state(root, ws);
      const crashed = await runCli(['harvest', '--root', root, '--apply'], { spawn: true, env: { LORE_TEST_CRASH_AFTER: String(point) } });
      if (crashed.signal !== 'SIGKILL') {
        // Past the last crash point: the run completed normally.
        assert.equal(crashed.code, 0, crashed.stderr);
        assert.ok(point > 10, `only ${point - 1} crash points were reached`);
        break;
      }
      crashes++;
      // Right after the kill: a conversation missing from the inbox must be proven by the ledger.
      const ledgerText = fs.existsSync(path.join(root, 'ledger.json'))
        ? fs.readFileSync(path.join(root, 'ledger.json'), 'utf8')
        : '{"entries":{}}';
      const entries = Object.values<any>(JSON.parse(ledgerText).entries);
      for (const name of ['a.md', 'b.md', 'c.md', 'dup.md']) {
        if (!fs.existsSync(path.join(inbox, name))) {
          assert.ok(
            entries.some((e) => e.status === 'harvested'),
            `crash point ${point}: ${name} gone without a harvested ledger entry`,
          );
        }
      }
      // Every transcript the ledger points at is already there, whole (written before the ledger).
      for (const entry of entries) {
        if (!entry.transcript) continue;
        const text = fs.readFileSync(path.join(root, entry.transcript), 'utf8');
        assert.match(text, /^---\n[\s\S]*\n---\n[\s\S]*## 10:01 — agent\nOk\.\n$/, `crash point ${point}: ${entry.transcript}`);
      }
      // A reclaimed conversation has its transcript.
      if (fs.readdirSync(inbox).length < 4)
        assert.ok(entries.length > 0 && entries.every((e) => e.transcript), `crash point ${point}: reclaimed without a transcript`);
      assert.deepEqual(duplicatedItemLines(root), [], `crash point ${point}`);
      // Re-run without a crash: it takes over the stale lock and converges.
      const rerun = await runCli(['harvest', '--root', root, '--apply']);
      assert.equal(rerun.code, 0, `crash point ${point}: ${rerun.stderr}`);
      assert.deepEqual(state(root, ws), expected, `crash point ${point}`);
      assert.deepEqual(fs.readdirSync(inbox), []);
      // Undo after the interrupted apply and its re-run puts back the store as before both.
      const undone = await runCli(['undo', '--root', root]);
      assert.equal(undone.code, 0, `crash point ${point}: ${undone.stderr}`);
      assert.deepEqual(state(root, ws), pristine, `crash point ${point}: undo`);
      // No temporary files left where people look.
      assert.deepEqual(
        fs.readdirSync(root).filter((n) => n.endsWith('.tmp') || n.includes('.lore-prev-')),
        [],
        `crash point ${point}`,
      );
    }
    assert.ok(crashes >= 10, `expected many crash points, got ${crashes}`);
  });

  it('two concurrent applies on one store do not corrupt it or duplicate lines', async () => {
    const { ws, root } = await scenario();
    const [first, second] = await Promise.all([
      runCli(['harvest', '--root', root, '--apply']),
      runCli(['harvest', '--root', root, '--apply']),
    ]);
    assert.equal(first.code, 0, first.stderr);
    assert.equal(second.code, 0, second.stderr);
    const reference = await scenario();
    await runCli(['harvest', '--root', reference.root, '--apply']);
    assert.deepEqual(state(root, ws), state(reference.root, reference.ws));
    assert.deepEqual(duplicatedItemLines(root), []);
  });
});

/**
 * Forgetting a conversation after the project folder moved (or was restored elsewhere): the
 * ledger names the archived raw copy relative to the store, so forget finds and removes it, and
 * `lore search` no longer returns the forgotten words. Before, the ledger kept absolute paths of
 * the old place: forget missed the archived copy and search kept finding its words. A ledger
 * written by an earlier Lore (absolute paths) is read the same way.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeWorkspace, runCli, transcript } from '../helpers/cli';
import { makeTempDir } from '../helpers/paths';

/** A harvested store whose conversation was archived, then the whole project moved elsewhere. */
async function movedStore(options: { oldLedger?: boolean } = {}) {
  const { ws, root, inbox } = await makeWorkspace();
  fs.writeFileSync(path.join(inbox, 'ses-w.md'), transcript('ses-w', 'Fact: the wombat queue drains hourly.'));
  const harvested = await runCli(['harvest', '--root', root, '--apply', '--reclaim', 'archive']);
  assert.equal(harvested.code, 0, harvested.stderr);
  const archive = path.join(root, 'archive');
  assert.ok(fs.readdirSync(archive).length > 0, 'the conversation was archived');
  if (options.oldLedger) {
    // As an earlier Lore wrote it: absolute paths of the store's place at the time.
    const ledger = JSON.parse(fs.readFileSync(path.join(root, 'ledger.json'), 'utf8'));
    for (const entry of Object.values<any>(ledger.entries)) {
      if (!path.isAbsolute(entry.path)) entry.path = path.join(root, entry.path);
      if (entry.archived && !path.isAbsolute(entry.archived)) entry.archived = path.join(root, entry.archived);
    }
    fs.writeFileSync(path.join(root, 'ledger.json'), JSON.stringify(ledger, null, 2));
  }
  const moved = path.join(makeTempDir('lore-moved-'), 'project');
  fs.renameSync(ws, moved);
  return path.join(moved, '.lore');
}

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

describe('lore forget after the project folder moved', function () {
  this.timeout(60_000);

  for (const oldLedger of [false, true]) {
    it(`removes the archived raw copy and search no longer finds its words (${oldLedger ? 'a ledger with absolute paths of the old place' : 'a ledger written now'})`, async () => {
      const root = await movedStore({ oldLedger });
      const found = await runCli(['search', '--root', root, 'wombat']);
      assert.match(found.stdout, /wombat/);
      const preview = await runCli(['forget', 'ses-w', '--root', root]);
      assert.match(preview.stdout, /archive\/[^\n]*\(archived copy\)/);
      const applied = await runCli(['forget', 'ses-w', '--apply', '--root', root]);
      assert.equal(applied.code, 0, applied.stderr);
      assert.deepEqual(
        filesUnder(path.join(root, 'archive')).filter((f) => fs.readFileSync(f, 'utf8').includes('wombat')),
        [],
        'no archived copy holds the words',
      );
      const after = await runCli(['search', '--root', root, 'wombat']);
      assert.doesNotMatch(after.stdout, /wombat/);
    });
  }
});

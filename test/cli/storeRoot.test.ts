import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeWorkspace, runCli, snapshotTree } from '../helpers/cli';
import { makeTempDir } from '../helpers/paths';

describe('commands that keep a store never make one in a plain folder', function () {
  this.timeout(60_000);

  const commands = [
    ['tidy'],
    ['tidy', '--apply'],
    ['prune'],
    ['prune', '--apply'],
    ['undo'],
    ['tasks', 'list'],
    ['tasks', 'start', 'a goal'],
    ['tasks', 'show', 'x'],
  ];

  for (const command of commands) {
    it(`lore ${command.join(' ')} --root <a plain folder> refuses, says to run lore init, and creates nothing`, async () => {
      const plain = makeTempDir('lore-plain-');
      fs.writeFileSync(path.join(plain, 'notes.txt'), "a person's folder\n");
      const result = await runCli([...command, '--root', plain]);
      assert.equal(result.code, 1, result.stdout);
      assert.match(result.stderr, /is not a Lore store \(nothing was written there\); run lore init/);
      assert.deepEqual(fs.readdirSync(plain), ['notes.txt']);
      const missing = path.join(plain, 'missing');
      assert.equal((await runCli([...command, '--root', missing])).code, 1);
      assert.equal(fs.existsSync(missing), false);
    });
  }

  it('still runs in a store lore init made', async () => {
    const { root } = await makeWorkspace();
    const before = snapshotTree(root);
    for (const command of [['tidy'], ['prune'], ['undo']]) {
      const result = await runCli([...command, '--root', root]);
      assert.equal(result.code, 0, result.stderr);
    }
    assert.deepEqual(snapshotTree(root), before);
  });
});

/**
 * `lore tidy --apply` killed at every durable step: running it again and then `lore undo` puts
 * the store back as it was before the tidy. Before, a tidy killed after its writes left its undo
 * record unfinished; the re-run found nothing to tidy and wrote nothing, and undo kept asking for
 * the tidy to be run again: the interrupted tidy could never be undone.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeWorkspace, runCli } from '../helpers/cli';

const FILES = ['facts.md', 'decisions.md', 'digest.md'];

async function storeWithDuplicates() {
  const { root } = await makeWorkspace();
  fs.writeFileSync(
    path.join(root, 'facts.md'),
    '# Facts\n\n- the API answers in JSON [from: c1, 2026-11-01]\n- the build uses esbuild [from: c1, 2026-11-01]\n- the API answers in JSON [from: c2, 2026-11-03]\n',
  );
  fs.writeFileSync(
    path.join(root, 'decisions.md'),
    '# Decisions\n\n- use pnpm for installs [from: c1, 2026-11-01]\n- a line a person wrote\n- use pnpm for installs [from: c3, 2026-11-07]\n',
  );
  const digest = await runCli(['digest', '--root', root]);
  assert.equal(digest.code, 0, digest.stderr);
  return root;
}

const snapshot = (root: string) => Object.fromEntries(FILES.map((f) => [f, fs.readFileSync(path.join(root, f), 'utf8')]));

describe('crash safety of lore tidy --apply', function () {
  this.timeout(180_000);

  it('a tidy killed at any step, run again, can be undone back to the store as it was', async () => {
    let crashes = 0;
    for (let point = 1; point < 40; point++) {
      const root = await storeWithDuplicates();
      const pristine = snapshot(root);
      const crashed = await runCli(['tidy', '--root', root, '--apply'], { env: { LORE_TEST_CRASH_AFTER: String(point) } });
      if (crashed.signal !== 'SIGKILL') {
        assert.equal(crashed.code, 0, crashed.stderr);
        break;
      }
      crashes++;
      const rerun = await runCli(['tidy', '--root', root, '--apply']);
      assert.equal(rerun.code, 0, `crash point ${point}: ${rerun.stderr}`);
      const tidied = snapshot(root);
      assert.equal(tidied['facts.md'].split('answers in JSON').length - 1, 1, `crash point ${point}: merged`);
      assert.equal(tidied['digest.md'].split('answers in JSON').length - 1, 1, `crash point ${point}: the digest follows the files`);
      const undone = await runCli(['undo', '--root', root]);
      assert.equal(undone.code, 0, `crash point ${point}: ${undone.stderr}`);
      assert.deepEqual(snapshot(root), pristine, `crash point ${point}: undo`);
    }
    assert.ok(crashes >= 3, `expected several crash points, got ${crashes}`);
  });
});

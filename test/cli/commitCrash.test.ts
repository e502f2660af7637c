/**
 * `lore commit` killed at every step: the person's git index is never left behind HEAD. Before,
 * the branch moved first and the index took Lore's commit after, so a kill in between (3 of 70
 * kills) left the index at the previous commit for the store's files: the person's next plain
 * `git commit` then reverted Lore's commit. Now the index takes the commit first, as `git commit`
 * orders it, and a kill at any point leaves every staged path staged as the work tree has it.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCli } from '../helpers/cli';
import { gitIn } from '../helpers/gitRepo';
import { makeTempDir } from '../helpers/paths';

const names = (text: string) => new Set(text.split('\n').filter(Boolean));

/** A store that is its own repository, with a change Lore has not committed yet. */
async function storeWithChange(): Promise<string> {
  const root = path.join(makeTempDir('lore-commit-'), 'kb');
  assert.equal((await runCli(['init', '--root', root, '--git'])).code, 0);
  gitIn(root, 'config', 'user.name', 'Test Person');
  gitIn(root, 'config', 'user.email', 'person@example.com');
  fs.writeFileSync(path.join(root, 'facts.md'), '# Facts\n\n- the cache is redis [from: s1, 2026-11-20]\n');
  fs.writeFileSync(path.join(root, 'decisions.md'), '# Decisions\n\n- keep keys short [from: s1, 2026-11-20]\n');
  return root;
}

describe('crash safety of lore commit', function () {
  this.timeout(180_000);

  it("a kill at any step leaves the index consistent with HEAD, and the person's next git commit never reverts Lore's", async () => {
    let crashes = 0;
    for (let point = 1; point < 30; point++) {
      const root = await storeWithChange();
      const crashed = await runCli(['commit', '--root', root], { env: { LORE_TEST_CRASH_AFTER: String(point) } });
      if (crashed.signal !== 'SIGKILL') {
        assert.equal(crashed.code, 0, crashed.stderr);
        break;
      }
      crashes++;
      // A path whose index entry differs from HEAD must hold what the work tree holds (staged as it is),
      // never an older version than HEAD's.
      const staged = names(gitIn(root, 'diff', '--cached', '--name-only', 'HEAD'));
      const unstaged = names(gitIn(root, 'diff', '--name-only'));
      assert.deepEqual(
        [...staged].filter((f) => unstaged.has(f)),
        [],
        `crash point ${point}: the index is behind HEAD`,
      );
      // The person commits whatever is staged: the store's files in HEAD are then as on disk, or as before Lore's commit.
      gitIn(root, 'commit', '-q', '--allow-empty', '-m', "the person's commit");
      const reverted = names(gitIn(root, 'diff', '--name-only', 'HEAD~1', 'HEAD'));
      for (const file of reverted) {
        assert.equal(
          gitIn(root, 'show', `HEAD:${file}`),
          fs.readFileSync(path.join(root, file), 'utf8'),
          `crash point ${point}: the person's commit reverted ${file}`,
        );
      }
      const rerun = await runCli(['commit', '--root', root]);
      assert.equal(rerun.code, 0, `crash point ${point}: ${rerun.stderr}`);
      assert.equal(gitIn(root, 'show', 'HEAD:facts.md'), fs.readFileSync(path.join(root, 'facts.md'), 'utf8'), `crash point ${point}`);
      assert.equal(gitIn(root, 'status', '--porcelain', '--', 'facts.md', 'decisions.md'), '', `crash point ${point}: git status is clean`);
    }
    assert.ok(crashes >= 2, `expected several crash points, got ${crashes}`);
  });
});

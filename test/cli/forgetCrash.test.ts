/**
 * `lore forget --apply` killed at every durable step, then run again: the derived files (the
 * digest and the AGENTS.md knowledge block) end without the conversation's lines, whichever step
 * the kill interrupted. Before, a re-run that found nothing left to remove in the category files
 * said "0 items removed" and left the lines in digest.md, which Lore then committed and handed to
 * agents. Nor does a re-run leave the temporary files the kill left (before, only a harvest
 * cleaned them).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeWorkspace, runCli } from '../helpers/cli';

const read = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '');

/** Temporary files and lock files anywhere in the store. */
function strayFiles(root: string): string[] {
  return fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && (e.name.endsWith('.tmp') || e.name.includes('.lock')))
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)));
}

/** A store whose facts come from two conversations, with a digest and an AGENTS.md block. */
async function scenario() {
  const { ws, root } = await makeWorkspace();
  fs.writeFileSync(
    path.join(root, 'facts.md'),
    '# Facts\n\n- the cache keys are quokka hashes [from: ses-a, 2026-11-20]\n- the build uses esbuild [from: ses-b, 2026-11-20]\n- quokka keys rotate weekly [from: ses-a, 2026-11-21]\n',
  );
  const digest = await runCli(['digest', '--root', root]);
  assert.equal(digest.code, 0, digest.stderr);
  fs.writeFileSync(path.join(ws, 'AGENTS.md'), '# Agents\n\nBe kind.\n');
  const sync = await runCli(['sync', 'AGENTS.md', '--root', root], { cwd: ws });
  assert.equal(sync.code, 0, sync.stderr);
  assert.match(read(path.join(root, 'digest.md')), /quokka/);
  assert.match(read(path.join(ws, 'AGENTS.md')), /quokka/);
  return { ws, root };
}

describe('crash safety of lore forget --apply', function () {
  this.timeout(180_000);

  it('a re-run after a SIGKILL at any step leaves none of the conversation in the digest or the AGENTS.md block', async () => {
    let crashes = 0;
    for (let point = 1; point < 40; point++) {
      const { ws, root } = await scenario();
      const crashed = await runCli(['forget', 'ses-a', '--apply', '--root', root], { env: { LORE_TEST_CRASH_AFTER: String(point) } });
      if (crashed.signal !== 'SIGKILL') {
        assert.equal(crashed.code, 0, crashed.stderr);
        break;
      }
      crashes++;
      const rerun = await runCli(['forget', 'ses-a', '--apply', '--root', root]);
      assert.equal(rerun.code, 0, `crash point ${point}: ${rerun.stderr}`);
      // The re-run says what it finished; it never reports "0 items removed" over a store it had to repair.
      assert.doesNotMatch(rerun.stdout, /: 0 items removed/, `crash point ${point}`);
      assert.match(
        rerun.stdout,
        /^(forgot conversation ses-a: 2 items removed,|conversation ses-a was forgotten on \d{4}-\d{2}-\d{2}; (this run finished it: |nothing of it was left))/m,
        `crash point ${point}: ${rerun.stdout}`,
      );
      for (const file of [path.join(root, 'facts.md'), path.join(root, 'digest.md'), path.join(ws, 'AGENTS.md')]) {
        assert.doesNotMatch(read(file), /quokka/, `crash point ${point}: ${path.basename(file)} still holds the forgotten lines`);
      }
      assert.match(read(path.join(root, 'digest.md')), /esbuild/, `crash point ${point}`);
      assert.deepEqual(strayFiles(root), [], `crash point ${point}: the re-run cleans what the kill left`);
      assert.match(read(path.join(ws, 'AGENTS.md')), /Be kind\.[\s\S]*esbuild/, `crash point ${point}`);
    }
    assert.ok(crashes >= 3, `expected several crash points, got ${crashes}`);
  });
});

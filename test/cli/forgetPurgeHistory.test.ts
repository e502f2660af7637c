/**
 * `lore forget ID --purge-history`: the store's own git history keeps what a forget removed from
 * its files. For a store that is its own repository, the preview lists the commits that hold the
 * conversation and --apply rewrites them without it (a real repository, real git): afterwards
 * no commit, tag or object of the repository holds its words, while every other line and commit
 * stays. A store inside a project's repository is refused (that history is the person's).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeWorkspace, runCli, transcript } from '../helpers/cli';
import { gitIn, initRepo } from '../helpers/gitRepo';
import { makeTempDir } from '../helpers/paths';

/** Every blob of every commit reachable from a ref, searched for `word` (git grep over all commits). */
function historyHolds(root: string, word: string): boolean {
  const commits = gitIn(root, 'rev-list', '--all').split('\n').filter(Boolean);
  try {
    return gitIn(root, 'grep', '-l', word, ...commits).trim() !== '';
  } catch {
    return false; // git grep exits 1 when nothing matches.
  }
}

describe('lore forget --purge-history', function () {
  this.timeout(120_000);

  it('previews, then rewrites the history of a store that is its own repository without the forgotten conversation', async () => {
    const root = path.join(makeTempDir('lore-purge-'), 'kb');
    assert.equal((await runCli(['init', '--root', root, '--git'])).code, 0);
    fs.writeFileSync(path.join(root, 'inbox', 'a.md'), transcript('ses-a', 'Fact: the quokka keys collide.'));
    fs.writeFileSync(path.join(root, 'inbox', 'b.md'), transcript('ses-b', 'Fact: the build uses esbuild.'));
    const harvested = await runCli(['harvest', '--root', root, '--apply']);
    assert.equal(harvested.code, 0, harvested.stderr);
    // A later commit on top, touching another file.
    fs.appendFileSync(path.join(root, 'decisions.md'), '- keep keys short [from: ses-b, 2026-11-20]\n');
    assert.equal((await runCli(['commit', '--root', root])).code, 0);

    // Before the forget, the purge is refused: the files still hold it.
    const early = await runCli(['forget', 'ses-a', '--purge-history', '--root', root]);
    assert.equal(early.code, 1);
    assert.match(early.stderr, /still holds conversation ses-a: run lore forget ses-a --apply first/);

    const forgot = await runCli(['forget', 'ses-a', '--apply', '--root', root]);
    assert.equal(forgot.code, 0, forgot.stderr);
    assert.match(forgot.stderr, /--purge-history lists them/);
    assert.ok(historyHolds(root, 'quokka'), 'the history still holds the forgotten words');
    gitIn(root, 'tag', 'memory/daily/2026-11-20', 'HEAD~1'); // Lore's daily tag on a commit that holds it.
    const commitsBefore = gitIn(root, 'rev-list', '--count', 'HEAD').trim();
    const headBefore = gitIn(root, 'rev-parse', 'HEAD').trim();

    const preview = await runCli(['forget', 'ses-a', '--purge-history', '--root', root]);
    assert.equal(preview.code, 0, preview.stderr);
    assert.match(preview.stdout, /^would rewrite \d+ of \d+ commit\(s\) that hold conversation ses-a/);
    assert.match(preview.stdout, /facts\.md/);
    assert.match(preview.stdout, /transcripts\/[^\n]*ses-a/);
    assert.match(preview.stdout, /nothing is rewritten until you run this again with --apply/);
    assert.equal(gitIn(root, 'rev-parse', 'HEAD').trim(), headBefore, 'a preview rewrites nothing');

    // Killed after the branch moved, before the tag: the tag still holds it, and the next run finishes.
    const killed = await runCli(['forget', 'ses-a', '--purge-history', '--apply', '--root', root], { env: { LORE_TEST_CRASH_AFTER: '1' } });
    assert.equal(killed.signal, 'SIGKILL');
    assert.notEqual(gitIn(root, 'rev-parse', 'HEAD').trim(), headBefore);
    assert.ok(historyHolds(root, 'quokka'), 'the old tag still holds it');
    const rewrittenHead = gitIn(root, 'rev-parse', 'HEAD').trim();
    const applied = await runCli(['forget', 'ses-a', '--purge-history', '--apply', '--root', root]);
    assert.equal(applied.code, 0, applied.stderr);
    assert.match(applied.stdout, /^rewrote \d+ of \d+ commit\(s\)/);
    assert.match(applied.stdout, /force-push/);
    assert.equal(gitIn(root, 'rev-parse', 'HEAD').trim(), rewrittenHead, 'the same rewritten commits');
    assert.equal(
      gitIn(root, 'rev-parse', 'memory/daily/2026-11-20').trim(),
      gitIn(root, 'rev-parse', 'HEAD~1').trim(),
      'the tag follows its commit',
    );
    assert.equal(historyHolds(root, 'quokka'), false, 'no commit holds the forgotten words');
    assert.ok(historyHolds(root, 'esbuild'), 'the other conversation stays');
    assert.equal(gitIn(root, 'rev-list', '--count', 'HEAD').trim(), commitsBefore, 'every commit stays, rewritten');
    assert.equal(gitIn(root, 'status', '--porcelain', '--', 'facts.md', 'decisions.md', 'transcripts'), '');
    assert.equal(gitIn(root, 'count-objects', '-v').match(/^count: (\d+)/m)?.[1], '0', 'no loose object left behind');
    // Run again: nothing left.
    const again = await runCli(['forget', 'ses-a', '--purge-history', '--root', root]);
    assert.match(again.stdout, /no commit of the store's history \(\d+\) holds conversation ses-a/);
  });

  it("refuses a store inside a project's repository: that history is the person's", async () => {
    const { ws, root, inbox } = await makeWorkspace();
    fs.writeFileSync(path.join(inbox, 'a.md'), transcript('ses-a', 'Fact: the quokka keys collide.'));
    assert.equal((await runCli(['harvest', '--root', root, '--apply'])).code, 0);
    initRepo(ws);
    assert.equal((await runCli(['forget', 'ses-a', '--apply', '--root', root])).code, 0);
    const head = gitIn(ws, 'rev-parse', 'HEAD').trim();
    const refused = await runCli(['forget', 'ses-a', '--purge-history', '--apply', '--root', root]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /history not purged: the store is inside the repository .*, whose history is yours/);
    assert.equal(gitIn(ws, 'rev-parse', 'HEAD').trim(), head);
  });
});

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runGit } from '../../src/core/store/history/git';
import { itemId } from '../../src/core/model/itemId';
import { runCli, transcript } from '../helpers/cli';
import { gitIn } from '../helpers/gitRepo';
import { makeTempDir } from '../helpers/paths';

/** Hooks git fires in the commands Lore runs (update-ref, add, reset) and in a plain commit. */
const HOOKS = ['reference-transaction', 'post-index-change', 'pre-commit', 'post-commit', 'pre-auto-gc', 'post-checkout'];

/**
 * A repository made hostile the ways a clone or a zip can: every program its config or
 * `.gitattributes` can name writes a marker file named after the way it was run.
 */
function plantRepositoryCode(repo: string, markers: string, hooksDir: string): void {
  fs.mkdirSync(markers, { recursive: true });
  const program = (name: string, tail = '') => {
    const file = path.join(path.dirname(markers), `run-${name}.sh`);
    fs.writeFileSync(file, `#!/bin/sh\necho ran >> '${path.join(markers, name)}'\n${tail}`, { mode: 0o755 });
    return file;
  };
  fs.mkdirSync(hooksDir, { recursive: true });
  for (const hook of HOOKS) fs.copyFileSync(program(`hook-${hook}`), path.join(hooksDir, hook));
  for (const hook of HOOKS) fs.chmodSync(path.join(hooksDir, hook), 0o755);
  fs.writeFileSync(path.join(repo, '.gitattributes'), '* filter=planted diff=planted\n');
  const config: [string, string][] = [
    ['filter.planted.clean', `${program('filter-clean')} && cat`],
    ['filter.planted.smudge', `${program('filter-smudge')} && cat`],
    ['diff.planted.textconv', `${program('textconv')} && cat`],
    ['diff.planted.command', program('diff-command')],
    ['diff.external', program('diff-external')],
    ['core.fsmonitor', program('fsmonitor', 'exit 1\n')],
    ['core.pager', program('pager')],
    ['core.sshCommand', program('ssh-command')],
    ['credential.helper', `!${program('credential-helper')}`],
  ];
  for (const [key, value] of config) gitIn(repo, 'config', key, value);
}

const ranIn = (markers: string) => (fs.existsSync(markers) ? fs.readdirSync(markers).sort() : []);

describe("a repository's own code never runs through Lore", function () {
  this.timeout(120_000);

  it('harvest --apply, history, forget --apply and lore commit run none of its hooks, filters, fsmonitor, textconv or pager', async () => {
    const dir = makeTempDir('lore-hostile-');
    const root = path.join(dir, 'kb');
    assert.equal((await runCli(['init', '--root', root, '--git'])).code, 0);
    const markers = path.join(dir, 'markers');
    plantRepositoryCode(root, markers, path.join(dir, 'planted-hooks'));
    gitIn(root, 'config', 'core.hooksPath', path.join(dir, 'planted-hooks'));
    // The plants are live: a plain git add in this repository runs the clean filter.
    fs.writeFileSync(path.join(root, 'probe.txt'), 'probe\n');
    gitIn(root, 'add', 'probe.txt');
    gitIn(root, 'rm', '-q', '--cached', 'probe.txt');
    fs.rmSync(path.join(root, 'probe.txt'));
    assert.ok(ranIn(markers).includes('filter-clean'), `the planted filter runs for git itself: ${ranIn(markers).join(', ')}`);
    for (const name of ranIn(markers)) fs.rmSync(path.join(markers, name));

    fs.writeFileSync(path.join(root, 'inbox', 'a.md'), transcript('ses-hostile', 'TODO: wire the cache.\nFact: the cache is redis.'));
    const harvest = await runCli(['harvest', '--root', root, '--apply']);
    assert.equal(harvest.code, 0, harvest.stderr);
    assert.deepEqual(ranIn(markers), [], 'harvest --apply');
    assert.ok(gitIn(root, 'log', '--format=%s').split('\n').length >= 2, 'the harvest was committed');
    const line = fs
      .readFileSync(path.join(root, 'facts.md'), 'utf8')
      .split('\n')
      .find((l) => l.includes('redis'))!;
    const history = await runCli(['history', itemId(line), '--root', root]);
    assert.equal(history.code, 0, history.stderr);
    assert.deepEqual(ranIn(markers), [], 'lore history');
    assert.match(history.stdout, /learned/);
    const forget = await runCli(['forget', 'ses-hostile', '--root', root, '--apply']);
    assert.equal(forget.code, 0, forget.stderr);
    assert.deepEqual(ranIn(markers), [], 'forget --apply');
    assert.equal((await runCli(['commit', '--root', root])).code, 0);
    assert.deepEqual(ranIn(markers), [], 'lore commit');
  });

  it('runs none of .git/hooks, and no ssh command or credential helper even when asked to fetch', async () => {
    const repo = makeTempDir('lore-hostile-git-');
    gitIn(repo, 'init', '-q', '-b', 'main');
    gitIn(repo, 'config', 'user.name', 'Test Person');
    gitIn(repo, 'config', 'user.email', 'person@example.com');
    const markers = path.join(path.dirname(repo), `${path.basename(repo)}-markers`);
    plantRepositoryCode(repo, markers, path.join(repo, '.git', 'hooks'));
    gitIn(repo, 'remote', 'add', 'origin', 'ssh://example.invalid/repo.git');
    fs.writeFileSync(path.join(repo, 'a.md'), 'one\n');

    assert.equal((await runGit(['add', '-A'], { cwd: repo })).code, 0);
    const tree = (await runGit(['write-tree'], { cwd: repo })).stdout.trim();
    const commit = (await runGit(['commit-tree', '-m', 'one', tree], { cwd: repo })).stdout.trim();
    assert.equal((await runGit(['update-ref', 'HEAD', commit], { cwd: repo })).code, 0);
    fs.appendFileSync(path.join(repo, 'a.md'), 'two\n');
    assert.equal((await runGit(['reset', '-q', '--', 'a.md'], { cwd: repo })).code, 0);
    assert.equal((await runGit(['diff', 'HEAD', '--', 'a.md'], { cwd: repo })).code, 0);
    assert.equal((await runGit(['log', '-p', '-Sone', '--', 'a.md'], { cwd: repo })).code, 0);
    assert.equal((await runGit(['blame', '--porcelain', '--', 'a.md'], { cwd: repo })).code, 0);
    await runGit(['fetch', 'origin'], { cwd: repo }); // Refused: no transport is allowed.
    assert.deepEqual(ranIn(markers), []);
  });
});

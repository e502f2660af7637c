import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { flushStoreHistory, recordStoreChange } from '../../../src/core/store/history/storeHistory';
import { storePaths } from '../../../src/core/store/storePaths';
import { makeWorkspace, runCli, transcript } from '../../helpers/cli';
import { gitIn, initRepo, subjects } from '../../helpers/gitRepo';
import { makeTempDir } from '../../helpers/paths';
import { setStoreTrust } from '../../../src/core/store/storeTrust';

/** A workspace repository with the store in `.lore`, committed, and the store set to commit after each apply. */
async function workspaceRepo(config: object = { git: { commit: 'apply' } }) {
  const { ws, root, inbox } = await makeWorkspace();
  fs.writeFileSync(path.join(root, 'config.json'), JSON.stringify(config));
  setStoreTrust(root, true); // The person's own config.json (storeTrust.ts).
  fs.writeFileSync(path.join(ws, 'README.md'), 'hello\n');
  initRepo(ws);
  return { ws, root, inbox };
}

describe('git history of the store', function () {
  this.timeout(60_000);

  it("commits a harvest as conversation: then extract:, leaving the person's staged and unstaged changes alone", async () => {
    const { ws, root, inbox } = await workspaceRepo();
    // The person is in the middle of their own work: one change staged, one not, one new file.
    fs.writeFileSync(path.join(ws, 'src', 'app.ts'), 'export const app = 2;\n');
    gitIn(ws, 'add', 'src/app.ts');
    fs.writeFileSync(path.join(ws, 'README.md'), 'hello, edited\n');
    fs.writeFileSync(path.join(ws, 'scratch.txt'), 'untracked\n');
    const statusBefore = gitIn(ws, 'status', '--porcelain');

    fs.writeFileSync(
      path.join(inbox, 'a.md'),
      transcript('ses-alpha', 'Fact: the cache lives in redis.\nDecision: use sqlite — it is embedded.'),
    );
    const applied = await runCli(['harvest', '--root', root, '--apply']);
    assert.equal(applied.code, 0, applied.stderr);
    assert.match(applied.stdout, /committed [0-9a-f]{12} extract: 2 items from 1 conversation/);

    assert.deepEqual(subjects(ws).slice(0, 2), ['extract: 2 items from 1 conversation', 'conversation: ses-alpha kept']);
    const extractBody = gitIn(ws, 'log', '-1', '--format=%b');
    assert.match(extractBody, /^1 fact, 1 decision\nConversation: ses-alpha \(transcripts\/2026\/11\/20\/1000-ses-alpha\.md\)$/m);
    // Lore's commits hold the store's files only: the transcript first, then the knowledge.
    assert.deepEqual(
      gitIn(ws, 'show', '--format=', '--name-only', 'HEAD~1')
        .trim()
        .split('\n')
        .map((f) => f.split('/').slice(0, 2).join('/')),
      ['.lore/transcripts'],
    );
    const knowledge = gitIn(ws, 'show', '--format=', '--name-only', 'HEAD').trim().split('\n');
    assert.ok(
      knowledge.includes('.lore/facts.md') && knowledge.includes('.lore/decisions.md') && knowledge.includes('.lore/ledger.json'),
      knowledge.join(','),
    );
    assert.ok(
      knowledge.every((f) => f.startsWith('.lore/')),
      knowledge.join(','),
    );
    assert.ok(!knowledge.some((f) => f.startsWith('.lore/.logs') || f.startsWith('.lore/.cache')), 'git-ignored parts stay out');
    // The person's work is exactly as it was: still staged, still unstaged, still untracked.
    assert.equal(gitIn(ws, 'status', '--porcelain'), statusBefore);
    assert.equal(gitIn(ws, 'diff', '--cached', '--name-only'), 'src/app.ts\n');
    assert.equal(gitIn(ws, 'show', 'HEAD:src/app.ts'), 'export const app = 1;\n');
  });

  it('keeps a store in a subfolder of the workspace out of the commit unless config.json asks (off by default there)', async () => {
    const { ws, root, inbox } = await workspaceRepo({});
    const head = gitIn(ws, 'rev-parse', 'HEAD');
    fs.writeFileSync(path.join(inbox, 'a.md'), transcript('ses-beta', 'Fact: beta.'));
    const applied = await runCli(['harvest', '--root', root, '--apply']);
    assert.equal(applied.code, 0, applied.stderr);
    assert.equal(gitIn(ws, 'rev-parse', 'HEAD'), head);
    assert.ok(!fs.existsSync(path.join(root, '.logs', 'history.json')));
    // Nested deeper: a store in docs/kb/.lore commits with paths relative to the repository's top.
    const deep = path.join(ws, 'docs', 'kb', '.lore');
    assert.equal((await runCli(['init', '--root', deep])).code, 0);
    fs.writeFileSync(path.join(deep, 'config.json'), '{"git": {"commit": "apply"}}');
    setStoreTrust(deep, true); // The person's own config.json (storeTrust.ts).
    fs.writeFileSync(path.join(deep, 'inbox', 'b.md'), transcript('ses-gamma', 'Fact: gamma.'));
    const nested = await runCli(['harvest', '--root', deep, '--apply']);
    assert.equal(nested.code, 0, nested.stderr);
    const files = gitIn(ws, 'show', '--format=', '--name-only', 'HEAD').trim().split('\n');
    assert.ok(files.includes('docs/kb/.lore/facts.md'), files.join(','));
    assert.ok(
      files.every((f) => f.startsWith('docs/kb/.lore/')),
      "the first store's uncommitted harvest is not swept in",
    );
    assert.match(gitIn(ws, 'status', '--porcelain', '--', '.lore'), /facts\.md/, 'the other store stays uncommitted');
  });

  it('lore init --git gives a store outside any repository its own, and commits after each apply by default', async () => {
    const dir = makeTempDir('lore-own-');
    const root = path.join(dir, 'kb');
    const init = await runCli(['init', '--root', root, '--git']);
    assert.equal(init.code, 0, init.stderr);
    assert.match(init.stdout, /history: a new git repository/);
    assert.equal(gitIn(root, 'rev-parse', '--show-toplevel').trim(), fs.realpathSync(root));
    assert.deepEqual(subjects(root), ['maintenance: the knowledge store, as Lore found it']);
    assert.ok(!fs.existsSync(path.join(root, 'config.json')), 'its own repository needs no setting');
    fs.writeFileSync(path.join(root, 'inbox', 'a.md'), transcript('ses-own', 'Fact: own repo.'));
    assert.equal((await runCli(['harvest', '--root', root, '--apply'])).code, 0);
    assert.equal(subjects(root)[0], 'extract: 1 item from 1 conversation');
    assert.equal(gitIn(root, 'status', '--porcelain'), '', 'nothing of the store is left uncommitted');
  });

  it('lore init --git inside the workspace repository turns commits on in config.json, keeping its other keys', async () => {
    const { ws, root } = await workspaceRepo({ reclaim: 'keep' });
    const init = await runCli(['init', '--root', root, '--git']);
    assert.equal(init.code, 0, init.stderr);
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(root, 'config.json'), 'utf8')), { reclaim: 'keep', git: { commit: 'apply' } });
    assert.equal(subjects(ws)[0], 'maintenance: the knowledge store, history turned on');
  });

  it('batches changes in interval mode until the first is old enough, and a forced flush commits them in one', async () => {
    const { ws, root } = await workspaceRepo({ git: { commit: 'interval', intervalMinutes: 10 } });
    const paths = storePaths(root);
    const t0 = new Date('2026-11-27T10:00:00Z');
    fs.appendFileSync(path.join(root, 'facts.md'), '- one [from: a, 2026-11-27]\n');
    const first = await recordStoreChange(paths, { type: 'memory', subject: 'remember one' }, t0);
    assert.deepEqual({ commits: first?.commits.length, pending: first?.pending }, { commits: 0, pending: 1 });
    fs.appendFileSync(path.join(root, 'facts.md'), '- two [from: a, 2026-11-27]\n');
    const second = await recordStoreChange(paths, { type: 'memory', subject: 'remember two' }, new Date(t0.getTime() + 5 * 60_000));
    assert.equal(second?.pending, 2);
    assert.equal(subjects(ws)[0], "the person's first commit");
    const early = await flushStoreHistory(paths, { now: new Date(t0.getTime() + 9 * 60_000) });
    assert.equal(early?.commits.length, 0, 'not due yet');
    const due = await flushStoreHistory(paths, { now: new Date(t0.getTime() + 10 * 60_000) });
    assert.equal(due?.commits.length, 1);
    assert.equal(subjects(ws)[0], 'memory: 2 changes (remember one, …)');
    assert.match(gitIn(ws, 'log', '-1', '--format=%b'), /memory: remember one\nmemory: remember two/);
    assert.match(gitIn(ws, 'show', 'HEAD:.lore/facts.md'), /- two/);
  });

  it("defers during the person's rebase and commits every pending message afterwards; tags the day when asked", async () => {
    const { ws, root } = await workspaceRepo({ git: { commit: 'apply', dailyTags: true } });
    const paths = storePaths(root);
    const gitDir = path.join(ws, '.git');
    fs.mkdirSync(path.join(gitDir, 'rebase-merge'));
    fs.appendFileSync(path.join(root, 'facts.md'), '- during rebase [from: a, 2026-11-27]\n');
    const deferred = await recordStoreChange(paths, { type: 'memory', subject: 'during rebase' }, new Date('2026-11-27T10:00:00Z'));
    assert.match(deferred?.warning ?? '', /middle of a rebase/);
    assert.equal(deferred?.pending, 1);
    assert.equal(subjects(ws)[0], "the person's first commit");
    fs.rmdirSync(path.join(gitDir, 'rebase-merge'));
    const later = await recordStoreChange(paths, { type: 'maintenance', subject: 'after rebase' }, new Date('2026-11-27T11:00:00Z'));
    assert.equal(later?.commits.length, 1);
    assert.equal(subjects(ws)[0], 'memory: 2 changes (during rebase, …)');
    assert.equal(gitIn(ws, 'rev-parse', 'memory/daily/2026-11-27').trim(), gitIn(ws, 'rev-parse', 'HEAD').trim());
    assert.match(
      fs.readFileSync(path.join(root, '.logs', 'history.log'), 'utf8'),
      /deferred "memory: during rebase": the repository is in the middle of a rebase/,
    );
  });

  it('never loses a write when git fails: the apply stands, the failure is logged and reported', async () => {
    const { ws, root, inbox } = await workspaceRepo();
    fs.writeFileSync(path.join(ws, '.git', 'index'), 'not an index');
    fs.writeFileSync(path.join(inbox, 'a.md'), transcript('ses-broken', 'Fact: written despite git.'));
    const applied = await runCli(['harvest', '--root', root, '--apply']);
    assert.equal(applied.code, 0, applied.stderr);
    assert.match(fs.readFileSync(path.join(root, 'facts.md'), 'utf8'), /written despite git/);
    assert.match(applied.stdout, /warning: the change is written but not committed to git: git reset failed/);
    assert.match(fs.readFileSync(path.join(root, '.logs', 'history.log'), 'utf8'), /commit failed/);
    // Once git works again the next commit carries the messages of the failed one.
    fs.rmSync(path.join(ws, '.git', 'index'));
    gitIn(ws, 'reset', '-q');
    fs.appendFileSync(path.join(root, 'facts.md'), '- later [from: a, 2026-11-27]\n');
    const later = await recordStoreChange(storePaths(root), { type: 'memory', subject: 'later' });
    assert.equal(later?.commits.length, 2);
    assert.deepEqual(subjects(ws).slice(0, 2), ['extract: 2 changes (1 item from 1 conversation, …)', 'conversation: ses-broken kept']);
    assert.match(gitIn(ws, 'show', 'HEAD:.lore/facts.md'), /written despite git/);
  });

  it("never commits raw conversations or Lore's private files, even when the store's .gitignore is gone", async () => {
    const { ws, root, inbox } = await workspaceRepo();
    fs.rmSync(path.join(root, '.gitignore'));
    fs.writeFileSync(path.join(inbox, 'waiting.md'), transcript('ses-waiting', 'Fact: the password is in here somewhere.'));
    fs.mkdirSync(path.join(root, '.cache'), { recursive: true });
    fs.writeFileSync(path.join(root, '.cache', 'reply.json'), '{}');
    fs.writeFileSync(path.join(root, 'notes.tmp'), 'half a write');
    fs.appendFileSync(path.join(root, 'facts.md'), '- kept [from: a, 2026-11-27]\n');
    const outcome = await recordStoreChange(storePaths(root), { type: 'memory', subject: 'one fact' });
    assert.equal(outcome?.commits.length, 1);
    // Twice: the second commit would carry what the first left behind (.logs/history.json).
    fs.appendFileSync(path.join(root, 'facts.md'), '- again [from: a, 2026-11-27]\n');
    await recordStoreChange(storePaths(root), { type: 'memory', subject: 'another fact' });
    const tracked = gitIn(ws, 'ls-files', '.lore').split('\n').filter(Boolean);
    assert.ok(tracked.includes('.lore/facts.md'));
    assert.deepEqual(
      tracked.filter((f) => /^\.lore\/(inbox|\.cache|\.logs|\.lock)(\/|$)|\.tmp$/.test(f)),
      [],
    );
  });

  it('cleans up the temporary index a killed Lore left in .git, and never leaves its own', async () => {
    const { ws, root } = await workspaceRepo();
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    const stale = path.join(ws, '.git', `lore-index-${dead}-abcd1234`);
    fs.writeFileSync(stale, 'left by a killed commit');
    fs.appendFileSync(path.join(root, 'facts.md'), '- after a crash [from: a, 2026-11-27]\n');
    assert.equal((await recordStoreChange(storePaths(root), { type: 'memory', subject: 'after a crash' }))?.commits.length, 1);
    assert.deepEqual(
      fs.readdirSync(path.join(ws, '.git')).filter((n) => n.startsWith('lore-index-')),
      [],
    );
  });

  it('does nothing outside a repository', async () => {
    const { root, inbox } = await makeWorkspace();
    fs.writeFileSync(path.join(root, 'config.json'), '{"git": {"commit": "apply"}}');
    setStoreTrust(root, true); // The person's own config.json (storeTrust.ts).
    fs.writeFileSync(path.join(inbox, 'a.md'), transcript('ses-plain', 'Fact: no git here.'));
    const applied = await runCli(['harvest', '--root', root, '--apply', '--json']);
    assert.equal(applied.code, 0, applied.stderr);
    assert.equal(JSON.parse(applied.stdout).history, undefined);
    assert.ok(!fs.existsSync(path.join(root, '.logs', 'history.json')));
  });
});

/**
 * A team sharing one store through git, with real clones: `lore init` in each clone registers
 * Lore's merge driver, and pulls that both sides harvested, forgot and edited into merge with no
 * conflict, nothing lost, one line per statement with every source, a forget reaching the other
 * clone, and the digest regenerated after the merge. A clone without the driver still merges the
 * category files without conflict markers (the committed .gitattributes' union fallback).
 * The driver runs as git starts it: dist/cli.js (npm run build first).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { itemId } from '../../src/core/model/itemId';
import { readLedger } from '../../src/core/store/ledger';
import { mergeDriverCommand } from '../../src/core/store/merge/mergeDriver';
import { runCli, transcript } from '../helpers/cli';
import { gitIn, initRepo } from '../helpers/gitRepo';
import { makeTempDir } from '../helpers/paths';

const read = (file: string) => fs.readFileSync(file, 'utf8');
const MARKERS = /^(<{7}|={7}|>{7})/m;

function identify(dir: string): void {
  gitIn(dir, 'config', 'user.name', 'Test Person');
  gitIn(dir, 'config', 'user.email', 'person@example.com');
}

/** An origin with a workspace whose store was made by `lore init`, and two clones of it. */
async function team(): Promise<{ a: string; b: string; origin: string; tmp: string }> {
  const tmp = makeTempDir('lore-team-');
  const a = path.join(tmp, 'a');
  fs.mkdirSync(a);
  fs.writeFileSync(path.join(a, 'README.md'), 'project\n');
  assert.equal((await runCli(['init', '--root', path.join(a, '.lore')])).code, 0);
  initRepo(a);
  const origin = path.join(tmp, 'origin.git');
  gitIn(tmp, 'clone', '-q', '--bare', a, origin);
  gitIn(a, 'remote', 'add', 'origin', origin);
  gitIn(a, 'fetch', '-q', 'origin');
  gitIn(a, 'branch', '-q', '--set-upstream-to=origin/main');
  const b = path.join(tmp, 'b');
  gitIn(tmp, 'clone', '-q', origin, b);
  identify(b);
  for (const clone of [a, b]) {
    const init = await runCli(['init', '--root', path.join(clone, '.lore')]);
    assert.equal(init.code, 0, init.stderr);
    assert.equal(gitIn(clone, 'status', '--porcelain'), '', 'registration changes nothing git tracks');
  }
  return { a, b, origin, tmp };
}

async function harvest(clone: string, id: string, body: string): Promise<void> {
  const root = path.join(clone, '.lore');
  fs.mkdirSync(path.join(root, 'inbox'), { recursive: true }); // git-ignored: a clone without lore init has none
  fs.writeFileSync(path.join(root, 'inbox', `${id}.md`), transcript(id, body));
  const result = await runCli(['harvest', '--root', root, '--apply']);
  assert.equal(result.code, 0, result.stderr);
}

function commitAll(clone: string, message: string): void {
  gitIn(clone, 'add', '-A');
  gitIn(clone, 'commit', '-q', '-m', message);
}

/** `git pull` (a merge); returns git's output and asserts it did not stop for a conflict. */
function pull(clone: string): void {
  gitIn(clone, 'pull', '-q', '--no-rebase', '--no-edit', 'origin', 'main');
  assert.equal(fs.existsSync(path.join(clone, '.git', 'MERGE_HEAD')), false, 'the merge finished');
}

/**
 * `first` appends a fact to facts.md, commits and pushes; `second` appends its own, commits and
 * pulls (a merge of both). Returns facts.md as the merge left it in `second`.
 */
function appendOnBothSidesAndPull(first: string, second: string): string {
  const append = (clone: string, line: string) => fs.appendFileSync(path.join(clone, '.lore', 'facts.md'), `${line}\n`);
  append(first, '- from the first clone [from: manual, 2026-11-20]');
  commitAll(first, 'first wrote');
  gitIn(first, 'push', '-q', 'origin', 'main');
  append(second, '- from the second clone [from: manual, 2026-11-20]');
  commitAll(second, 'second wrote');
  pull(second);
  return read(path.join(second, '.lore', 'facts.md'));
}

function itemLines(file: string): string[] {
  return read(file)
    .split('\n')
    .filter((l) => l.startsWith('- '));
}

describe('a team shares the store through git', function () {
  this.timeout(120_000);

  it('two clones that harvested the same files merge with no conflict, nothing lost, duplicates as one line', async () => {
    const { a, b } = await team();
    await harvest(a, 'ses-a', 'Fact: the cache is redis.\nFact: deploys use jenkins.\nTODO: wire the cache.');
    commitAll(a, 'a harvested');
    gitIn(a, 'push', '-q', 'origin', 'main');
    await harvest(b, 'ses-b', 'Fact: the cache is redis.\nFact: the api listens on 8080.\nTODO: rotate the keys.');
    commitAll(b, 'b harvested');
    pull(b);

    const store = path.join(b, '.lore');
    const facts = itemLines(path.join(store, 'facts.md'));
    assert.doesNotMatch(read(path.join(store, 'facts.md')), MARKERS);
    const redis = facts.filter((l) => /cache is redis/i.test(l));
    assert.equal(redis.length, 1, facts.join('\n'));
    assert.match(redis[0], /\[from: ses-a, 2026-11-20; ses-b, 2026-11-20\]$/);
    assert.ok(facts.some((l) => /deploys use jenkins/i.test(l)));
    assert.ok(facts.some((l) => /listens on 8080/i.test(l)));
    const tasks = itemLines(path.join(store, 'tasks.md'));
    assert.ok(tasks.some((l) => /wire the cache/i.test(l)) && tasks.some((l) => /rotate the keys/i.test(l)));
    const ledger = readLedger(path.join(store, 'ledger.json'));
    assert.deepEqual(
      Object.values(ledger.entries)
        .map((e) => e.id)
        .sort(),
      ['ses-a', 'ses-b'],
    );
    for (const file of ['review.md', 'digest.md'])
      if (fs.existsSync(path.join(store, file))) assert.doesNotMatch(read(path.join(store, file)), MARKERS, file);
    // Both harvests wrote the day's journal: one day, both conversations' bullets.
    const journal = fs
      .readdirSync(path.join(store, 'journal'))
      .map((f) => read(path.join(store, 'journal', f)))
      .join('\n');
    assert.doesNotMatch(journal, MARKERS);
    assert.match(journal, /^## ses-a$/m);
    assert.match(journal, /^## ses-b$/m);

    // The driver left its mark; the next writer (or lore reconcile) regenerates the digest from the merged files.
    assert.ok(fs.existsSync(path.join(store, '.cache', 'merged')));
    const reconciled = await runCli(['reconcile', '--root', store]);
    assert.equal(reconciled.code, 0, reconciled.stderr);
    const digest = read(path.join(store, 'digest.md'));
    assert.match(digest, /listens on 8080/i);
    assert.match(digest, /deploys use jenkins/i);
    assert.equal(fs.existsSync(path.join(store, '.cache', 'merged')), false);
    // Nothing left to reconcile: a second run and a read change nothing.
    commitAll(b, 'reconciled');
    assert.equal((await runCli(['reconcile', '--root', store])).code, 0);
    assert.equal((await runCli(['search', 'cache', '--root', store])).code, 0);
    assert.equal(gitIn(b, 'status', '--porcelain'), '');
  });

  it("a teammate's forget reaches the other clone and stays, even for words it harvested again", async () => {
    const { a, b } = await team();
    await harvest(a, 'ses-a', 'Fact: the staging password is hunter2.\nFact: the build uses esbuild.');
    commitAll(a, 'a harvested');
    gitIn(a, 'push', '-q', 'origin', 'main');
    pull(b);
    const line = itemLines(path.join(a, '.lore', 'facts.md')).find((l) => l.includes('hunter2'))!;
    // b harvests the same words from its own conversation before pulling a's forget.
    await harvest(b, 'ses-b', 'Fact: the staging password is hunter2.\nFact: the queue is rabbit.');
    commitAll(b, 'b harvested');
    const forgot = await runCli(['forget', itemId(line), '--root', path.join(a, '.lore')]);
    assert.equal(forgot.code, 0, forgot.stderr);
    commitAll(a, 'a forgot');
    gitIn(a, 'push', '-q', 'origin', 'main');
    pull(b);
    const store = path.join(b, '.lore');
    // The next command that writes the store reconciles first (here lore digest).
    assert.ok(fs.existsSync(path.join(store, '.cache', 'merged')));
    assert.equal((await runCli(['digest', '--root', store])).code, 0);
    assert.equal(fs.existsSync(path.join(store, '.cache', 'merged')), false);
    const facts = read(path.join(store, 'facts.md'));
    assert.doesNotMatch(facts, /hunter2/);
    assert.doesNotMatch(read(path.join(store, 'digest.md')), /hunter2/);
    assert.match(facts, /queue is rabbit/i);
    assert.match(facts, /build uses esbuild/i);
    assert.ok(Object.keys(readLedger(path.join(store, 'ledger.json')).forgotten?.items ?? {}).includes(itemId(line)));
  });

  it('the same item edited differently on both sides keeps both texts', async () => {
    const { a, b } = await team();
    await harvest(a, 'ses-a', 'Fact: the api listens on 8080.');
    commitAll(a, 'a harvested');
    gitIn(a, 'push', '-q', 'origin', 'main');
    pull(b);
    const edit = (clone: string, to: string) => {
      const file = path.join(clone, '.lore', 'facts.md');
      fs.writeFileSync(file, read(file).replace(/listens on 8080/i, to));
    };
    edit(a, 'listens on 443');
    commitAll(a, 'a edited');
    gitIn(a, 'push', '-q', 'origin', 'main');
    edit(b, 'listens on 9090');
    commitAll(b, 'b edited');
    pull(b);
    const facts = read(path.join(b, '.lore', 'facts.md'));
    assert.match(facts, /listens on 9090/);
    assert.match(facts, /listens on 443/);
    assert.doesNotMatch(facts, MARKERS);
  });

  it("a clone without Lore's driver merges the category files as a union, with no conflict markers", async () => {
    const { a, origin, tmp } = await team();
    const c = path.join(tmp, 'c');
    gitIn(tmp, 'clone', '-q', origin, c);
    identify(c);
    const facts = appendOnBothSidesAndPull(a, c);
    assert.doesNotMatch(facts, MARKERS);
    assert.match(facts, /from the first clone/);
    assert.match(facts, /from the second clone/);

    // Both harvest: ledger.json conflicts in c (git's text merge), the person commits it as it is,
    // and Lore reads both sides of it rather than refusing it.
    await harvest(a, 'ses-a', 'Fact: the cache is redis.');
    commitAll(a, 'a harvested');
    gitIn(a, 'push', '-q', 'origin', 'main');
    await harvest(c, 'ses-c', 'Fact: the queue is rabbit.');
    commitAll(c, 'c harvested');
    assert.throws(() => gitIn(c, 'pull', '-q', '--no-rebase', '--no-edit', 'origin', 'main'));
    const conflicted = gitIn(c, 'diff', '--name-only', '--diff-filter=U').trim().split('\n');
    assert.ok(conflicted.includes('.lore/ledger.json'), conflicted.join(', '));
    assert.ok(!conflicted.includes('.lore/facts.md'), 'the category file merged as a union');
    commitAll(c, 'merged by hand');
    assert.match(read(path.join(c, '.lore', 'ledger.json')), MARKERS);
    const ledger = readLedger(path.join(c, '.lore', 'ledger.json'));
    assert.deepEqual(
      Object.values(ledger.entries)
        .map((e) => e.id)
        .sort(),
      ['ses-a', 'ses-c'],
    );
    const again = await runCli(['harvest', '--root', path.join(c, '.lore'), '--apply']);
    assert.equal(again.code, 0, again.stderr);
  });

  it('registration is idempotent, keeps a person’s own attributes, and outranks the committed .gitattributes', async () => {
    const { a } = await team();
    const attributes = path.join(a, '.git', 'info', 'attributes');
    fs.appendFileSync(attributes, '*.png binary\n');
    const before = read(attributes);
    const config = gitIn(a, 'config', '--local', '--get-all', 'merge.lore.driver');
    const again = await runCli(['init', '--root', path.join(a, '.lore')]);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(read(attributes), before);
    assert.equal(gitIn(a, 'config', '--local', '--get-all', 'merge.lore.driver'), config);
    assert.equal(config.trim().split('\n').length, 1);
    assert.match(config, / merge-driver %O %A %B %P; else /);
    assert.match(read(attributes), /^\*\.png binary$/m);
    // The committed .gitattributes says union; the clone's info/attributes says lore, and wins.
    assert.match(read(path.join(a, '.lore', '.gitattributes')), /^\/\*\.md merge=union$/m);
    for (const file of [
      '.lore/facts.md',
      '.lore/ledger.json',
      '.lore/files/n1.md',
      '.lore/journal/2026-11-20.md',
      '.lore/archive/knowledge/facts.md',
    ])
      assert.equal(gitIn(a, 'check-attr', 'merge', '--', file).trim(), `${file}: merge: lore`);
    assert.equal(gitIn(a, 'check-attr', 'merge', '--', 'README.md').trim(), 'README.md: merge: unspecified');
    assert.equal(
      gitIn(a, 'check-attr', 'merge', '--', '.lore/transcripts/2026/11/20/x.md').trim(),
      '.lore/transcripts/2026/11/20/x.md: merge: unspecified',
    );
    assert.equal(
      gitIn(a, 'check-attr', 'merge', '--', '.lore/prompts/harvest-conversation.md').trim(),
      '.lore/prompts/harvest-conversation.md: merge: unspecified',
    );
  });

  it("leaves a repository's git config alone when that repository ignores the store (a scratch workspace inside a project)", async () => {
    const project = makeTempDir('lore-host-');
    fs.writeFileSync(path.join(project, '.gitignore'), 'scratch/\n');
    initRepo(project);
    const store = path.join(project, 'scratch', 'demo', '.lore');
    const init = await runCli(['init', '--root', store]);
    assert.equal(init.code, 0, init.stderr);
    assert.ok(fs.existsSync(path.join(store, 'facts.md')), 'the store itself was made');
    assert.doesNotMatch(gitIn(project, 'config', '--local', '--list'), /^merge\.lore\./m);
    assert.ok(
      !fs.existsSync(path.join(project, '.git', 'info', 'attributes')) ||
        !/lore/.test(read(path.join(project, '.git', 'info', 'attributes'))),
    );
  });

  it('registers for a store in a subfolder of a linked worktree, in the attributes git reads there', async () => {
    const tmp = makeTempDir('lore-team-wt-');
    const main = path.join(tmp, 'main');
    fs.mkdirSync(path.join(main, 'apps', 'web'), { recursive: true });
    assert.equal((await runCli(['init', '--root', path.join(main, 'apps', 'web', '.lore')])).code, 0);
    initRepo(main);
    const linked = path.join(tmp, 'linked dir');
    gitIn(main, 'worktree', 'add', '-q', '-b', 'other', linked);
    const init = await runCli(['init', '--root', path.join(linked, 'apps', 'web', '.lore')]);
    assert.equal(init.code, 0, init.stderr);
    assert.equal(gitIn(linked, 'check-attr', 'merge', '--', 'apps/web/.lore/facts.md').trim(), 'apps/web/.lore/facts.md: merge: lore');
    assert.equal(gitIn(main, 'check-attr', 'merge', '--', 'apps/web/.lore/files/x.md').trim(), 'apps/web/.lore/files/x.md: merge: lore');
    assert.equal(gitIn(linked, 'check-attr', 'merge', '--', 'apps/facts.md').trim(), 'apps/facts.md: merge: unspecified');
    assert.equal(gitIn(linked, 'status', '--porcelain'), '');
    // A second store, in a folder with a space: its own block, quoted; the first store's stays.
    assert.equal((await runCli(['init', '--root', path.join(main, 'my docs', '.lore')])).code, 0);
    assert.equal(gitIn(main, 'check-attr', 'merge', '--', 'my docs/.lore/facts.md').trim(), 'my docs/.lore/facts.md: merge: lore');
    assert.equal(gitIn(main, 'check-attr', 'merge', '--', 'apps/web/.lore/facts.md').trim(), 'apps/web/.lore/facts.md: merge: lore');
  });

  it('lore merge-driver writes the merge to OURS, and leaves a ledger it cannot read to git as a conflict', async () => {
    const tmp = makeTempDir('lore-driver-');
    const write = (name: string, text: string) => {
      fs.writeFileSync(path.join(tmp, name), text);
      return name;
    };
    const base = write('o', '# Facts\n');
    const ours = write('a', '# Facts\n\n- ours [from: c1, 2026-11-20]\n');
    const theirs = write('b', '# Facts\n\n- theirs [from: c2, 2026-11-20]\n');
    const merged = await runCli(['merge-driver', base, ours, theirs, '.lore/facts.md'], { cwd: tmp });
    assert.equal(merged.code, 0, merged.stderr);
    assert.equal(read(path.join(tmp, 'a')), '# Facts\n\n- ours [from: c1, 2026-11-20]\n- theirs [from: c2, 2026-11-20]\n');
    write('a', '{"entries": {}}\n');
    write('b', 'not json\n');
    const refused = await runCli(['merge-driver', base, ours, theirs, '.lore/ledger.json'], { cwd: tmp });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /not a valid ledger; left to git as a conflict/);
    assert.equal(read(path.join(tmp, 'a')), '{"entries": {}}\n');
    assert.doesNotMatch((await runCli(['--help'])).stdout, /merge-driver/);
    assert.match((await runCli(['merge-driver', '--help'])).stdout, /^lore merge-driver BASE OURS THEIRS PATH/);
  });

  it('a clone whose registered Lore is gone merges as git would without it: markdown as a union, no markers', async () => {
    const { a, b } = await team();
    gitIn(b, 'config', '--local', 'merge.lore.driver', mergeDriverCommand(process.execPath, path.join(b, 'no-such-lore', 'cli.js')));
    const facts = appendOnBothSidesAndPull(a, b);
    assert.doesNotMatch(facts, MARKERS);
    assert.match(facts, /from the first clone/);
    assert.match(facts, /from the second clone/);
    assert.equal(fs.existsSync(path.join(b, '.lore', '.cache', 'merged')), false, "Lore's driver did not run");
  });
});

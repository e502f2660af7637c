import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { itemId } from '../../../src/core/model/itemId';
import { storeHead, teammateArrivals } from '../../../src/core/store/items/teammateArrivals';
import { storePaths } from '../../../src/core/store/storePaths';
import { gitIn } from '../../helpers/gitRepo';
import { team } from '../../helpers/gitTeam';
import { makeTempDir } from '../../helpers/paths';

const NOTE = [
  '---',
  'path: src/app.ts',
  'tags:',
  '  - not an item',
  '---',
  '',
  '# Notes on src/app.ts',
  '',
  '- the app listens on 8080 [from: ses-a2, 2026-11-03]',
];

describe('what arrived from teammates when git moved HEAD', function () {
  this.timeout(60_000);

  it("lists a pull's new items with their authors, leaving out the person's own and what was already there", async () => {
    const [ana, ben] = team(['Ana', 'ana@example.com'], ['Ben', 'ben@example.com']);
    // Ben, on another machine of his, commits an item of his own (same identity): not news to him.
    ana.add('decisions.md', ['- use sqlite [from: ses-b9, 2026-11-02]']);
    gitIn(ana.dir, 'add', '-A');
    gitIn(ana.dir, '-c', 'user.name=Ben', '-c', 'user.email=BEN@example.com', 'commit', '-q', '-m', "Ben's own");
    // Ana's items: two facts, a note (its frontmatter list is no item), a task.
    ana.add('facts.md', ['- the cache is redis [from: ses-a1, 2026-11-03]', '- deploys go through CI [from: ses-a1, 2026-11-03]']);
    fs.mkdirSync(ana.paths.files, { recursive: true });
    fs.writeFileSync(path.join(ana.paths.files, 'n-app.md'), NOTE.join('\n') + '\n');
    ana.add('tasks.md', ['## Open', '', '- [ ] wire the cache [from: ses-a1, 2026-11-03]']);
    ana.commit('harvest: 4 items');
    gitIn(ana.dir, 'push', '-q', 'origin', 'main');

    const before = await storeHead(ben.paths);
    assert.ok(before);
    // Nothing moved: nothing arrived.
    assert.deepEqual((await teammateArrivals(ben.paths, before, before))?.items, []);
    gitIn(ben.dir, 'pull', '-q', 'origin', 'main');
    const after = await storeHead(ben.paths);
    assert.notEqual(after, before);

    const arrivals = await teammateArrivals(ben.paths, before!, after!);
    assert.ok(arrivals);
    const anaCommit = gitIn(ben.dir, 'rev-parse', 'HEAD').trim();
    assert.deepEqual(
      arrivals.items.map((i) => [i.file, i.line, i.text, i.author, i.email, i.commit, i.id]),
      [
        [
          'facts.md',
          3,
          'the cache is redis [from: ses-a1, 2026-11-03]',
          'Ana',
          'ana@example.com',
          anaCommit,
          itemId('- the cache is redis [from: ses-a1, 2026-11-03]'),
        ],
        [
          'facts.md',
          4,
          'deploys go through CI [from: ses-a1, 2026-11-03]',
          'Ana',
          'ana@example.com',
          anaCommit,
          itemId('- deploys go through CI [from: ses-a1, 2026-11-03]'),
        ],
        [
          'files/n-app.md',
          8,
          'the app listens on 8080 [from: ses-a2, 2026-11-03]',
          'Ana',
          'ana@example.com',
          anaCommit,
          itemId('- the app listens on 8080 [from: ses-a2, 2026-11-03]'),
        ],
        [
          'tasks.md',
          4,
          '[ ] wire the cache [from: ses-a1, 2026-11-03]',
          'Ana',
          'ana@example.com',
          anaCommit,
          itemId('- [ ] wire the cache [from: ses-a1, 2026-11-03]'),
        ],
      ],
    );
    assert.equal(arrivals.total, 4);
    assert.deepEqual(arrivals.authors, ['Ana']);
    assert.match(arrivals.items[0].date, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
    // Ana asks about the same range: hers are not news to her, Ben's item is (emails compare without case).
    const forAna = await teammateArrivals(ana.paths, before!, after!);
    assert.deepEqual(
      forAna?.items.map((i) => [i.file, i.author]),
      [['decisions.md', 'Ben']],
    );
  });

  it('after a merge of diverged histories, lists only what came from the other side, and a moved item is no news', async () => {
    const [ana, ben] = team(['Ana', 'ana@example.com'], ['Ben', 'ben@example.com']);
    ana.add('decisions.md', ['- use esbuild [from: ses-a1, 2026-11-03]']);
    // Ana also moves the seed fact to questions.md: a move, not an arrival.
    fs.writeFileSync(path.join(ana.paths.root, 'facts.md'), '# Facts\n\n');
    ana.add('questions.md', ['- the repo uses npm [from: ses-0, 2026-11-01]']);
    ana.commit('decide');
    gitIn(ana.dir, 'push', '-q', 'origin', 'main');
    ben.add('playbooks.md', ['- release: tag, then push [from: ses-b1, 2026-11-03]']);
    const own = ben.commit('playbook');
    gitIn(ben.dir, 'pull', '-q', '--no-edit', 'origin', 'main');
    const merged = (await storeHead(ben.paths))!;
    assert.equal(gitIn(ben.dir, 'rev-list', '--parents', '-n', '1', 'HEAD').trim().split(' ').length, 3, 'a merge commit');
    const arrivals = await teammateArrivals(ben.paths, own, merged);
    assert.deepEqual(
      arrivals?.items.map((i) => [i.file, i.text, i.author]),
      [['decisions.md', 'use esbuild [from: ses-a1, 2026-11-03]', 'Ana']],
    );
  });

  it('says nothing without a repository, and undefined for a HEAD the repository no longer knows', async () => {
    const dir = fs.realpathSync(makeTempDir('lore-norepo-'));
    fs.mkdirSync(path.join(dir, '.lore'));
    const paths = storePaths(path.join(dir, '.lore'), dir);
    // A folder in no repository (the temp folder is outside this repository's work tree).
    if (!(await storeHead(paths))) assert.equal(await teammateArrivals(paths, 'a'.repeat(40), 'b'.repeat(40)), undefined);
    const [ana] = team(['Ana', 'ana@example.com']);
    const head = (await storeHead(ana.paths))!;
    assert.equal(await teammateArrivals(ana.paths, 'f'.repeat(40), head), undefined);
  });
});

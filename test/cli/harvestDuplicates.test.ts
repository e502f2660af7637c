/**
 * Duplicates as a person meets them on the command line: the same statement from eight
 * conversations is one line with eight sources; a teammate's (another conversation's) later
 * harvest of it adds its source; and a forgotten conversation stays forgotten when its file comes
 * back under another name, as does its statement when another conversation says it. Statements
 * that differ in a number, a name or a place stay apart.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseProvenance } from '../../src/core/model/provenance';
import { makeWorkspace, runCli, transcript } from '../helpers/cli';

const STATEMENT = 'Fact: The release branch is cut on Mondays.';

describe('lore harvest: the same statement is one line', function () {
  this.timeout(60_000);

  const harvest = (root: string, ...extra: string[]) => runCli(['harvest', '--root', root, '--apply', '--reclaim', 'keep', ...extra]);
  const lines = (root: string) =>
    fs
      .readFileSync(path.join(root, 'facts.md'), 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('- '));

  it('folds eight conversations into one line with eight sources; a later conversation adds its own', async () => {
    const { root, inbox } = await makeWorkspace();
    for (let i = 1; i <= 8; i++)
      fs.writeFileSync(path.join(inbox, `s${i}.md`), transcript(`s${i}`, STATEMENT, `2026-11-${String(10 + i)}T10:00:00Z`));
    const preview = await runCli(['harvest', '--root', root, '--preview']);
    assert.equal(preview.code, 0, preview.stderr);
    assert.match(preview.stdout, /7 line\(s\) folded into one line with every source/);
    const first = await harvest(root);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /same statement from several conversations, one line with every source: 7 merged/);
    const [line, ...rest] = lines(root);
    assert.deepEqual(rest, []);
    assert.deepEqual(
      parseProvenance(line)!.sources.map((p) => p.source),
      ['s1', 's2', 's3', 's4', 's5', 's6', 's7', 's8'],
    );

    fs.writeFileSync(path.join(inbox, 'teammate.md'), transcript('teammate', STATEMENT.replace('.', ''), '2026-11-30T10:00:00Z'));
    const second = await harvest(root);
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, /same statement as an existing item, its source added: 1/);
    assert.deepEqual(lines(root), [line.replace(/\]$/, '; teammate, 2026-11-30]')]);
  });

  it('keeps a forgotten conversation out when its file comes back renamed, and its statement out when another conversation says it', async () => {
    const { root, inbox } = await makeWorkspace();
    const text = transcript('gone', `${STATEMENT}\nFact: only gone says this.`);
    fs.writeFileSync(path.join(inbox, 'gone.md'), text);
    assert.equal((await harvest(root)).code, 0);
    assert.equal(lines(root).length, 2);
    const forgot = await runCli(['forget', 'gone', '--conversation', '--apply', '--root', root]);
    assert.equal(forgot.code, 0, forgot.stderr + forgot.stdout);
    assert.deepEqual(lines(root), []);

    // The same bytes under another name, and another conversation with one of its statements.
    fs.writeFileSync(path.join(inbox, 'renamed-copy.md'), text);
    fs.writeFileSync(path.join(inbox, 'other.md'), transcript('other', `${STATEMENT}\nFact: other has news.`, '2026-11-25T10:00:00Z'));
    const again = await harvest(root);
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(lines(root), ['- other has news. [from: other, 2026-11-25]']);
    assert.match(again.stdout + again.stderr, /left out: forgotten for good/);
  });

  it('a line two conversations taught keeps the other when one is forgotten, and a third joins it again', async () => {
    const { root, inbox } = await makeWorkspace();
    const text = transcript('a', STATEMENT, '2026-11-20T10:00:00Z');
    fs.writeFileSync(path.join(inbox, 'a.md'), text);
    fs.writeFileSync(path.join(inbox, 'b.md'), transcript('b', STATEMENT, '2026-11-21T10:00:00Z'));
    assert.equal((await harvest(root)).code, 0);
    assert.deepEqual(lines(root), ['- The release branch is cut on Mondays. [from: a, 2026-11-20; b, 2026-11-21]']);
    assert.equal((await runCli(['forget', 'a', '--conversation', '--apply', '--root', root])).code, 0);
    assert.deepEqual(lines(root), ['- The release branch is cut on Mondays. [from: b, 2026-11-21]']);

    // Its inbox copy went with the forget; the same bytes come back under another name.
    fs.writeFileSync(path.join(inbox, 'a-again.md'), text);
    fs.writeFileSync(path.join(inbox, 'c.md'), transcript('c', STATEMENT, '2026-11-22T10:00:00Z'));
    assert.equal((await harvest(root)).code, 0);
    assert.deepEqual(lines(root), ['- The release branch is cut on Mondays. [from: b, 2026-11-21; c, 2026-11-22]']);
  });

  it('never folds statements that differ in a number, a name or a place, in one harvest or across two', async () => {
    const { root, inbox } = await makeWorkspace();
    const said = {
      a: [
        'Fact: The API times out after 30 seconds.',
        'Fact: The release branch is cut by Alice.',
        'Fact: Build caches live in /var/cache/shop.',
      ],
      b: [
        'Fact: The API times out after 60 seconds.',
        'Fact: The release branch is cut by Bob.',
        'Fact: Build caches live in /var/cache/api.',
      ],
    };
    fs.writeFileSync(path.join(inbox, 'a.md'), transcript('a', said.a.join('\n'), '2026-11-20T10:00:00Z'));
    fs.writeFileSync(path.join(inbox, 'b.md'), transcript('b', said.b.join('\n'), '2026-11-21T10:00:00Z'));
    const first = await harvest(root);
    assert.equal(first.code, 0, first.stderr);
    const bySource = (source: string) => lines(root).filter((l) => parseProvenance(l)!.sources.some((p) => p.source === source));
    assert.equal(lines(root).length, 6);
    assert.equal(bySource('a').length, 3);
    assert.equal(bySource('b').length, 3);

    // A later conversation saying one of them exactly joins that line only.
    fs.writeFileSync(path.join(inbox, 'c.md'), transcript('c', said.b[0], '2026-11-22T10:00:00Z'));
    assert.equal((await harvest(root)).code, 0);
    assert.equal(lines(root).length, 6);
    assert.deepEqual(bySource('c'), ['- The API times out after 60 seconds. [from: b, 2026-11-21; c, 2026-11-22]']);
  });
});

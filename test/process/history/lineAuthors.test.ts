import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { HEAD_REUSE_MS, LineAuthorsMemo } from '../../../src/core/store/history/lineAuthors';
import { storePaths } from '../../../src/core/store/storePaths';
import { gitIn, initRepo } from '../../helpers/gitRepo';
import { makeTempDir } from '../../helpers/paths';

describe('core/store/history: who wrote the lines of a store file, remembered', function () {
  this.timeout(20_000);

  it('asks git for HEAD at most once a second: a commit that left the file as it was is seen after that', async () => {
    const ws = makeTempDir();
    const paths = storePaths(path.join(ws, '.lore'), ws);
    fs.mkdirSync(paths.root, { recursive: true });
    fs.writeFileSync(path.join(paths.root, 'facts.md'), '# Facts\n\n- the port is 8080\n');
    initRepo(ws);
    let now = 0;
    const memo = new LineAuthorsMemo(undefined, () => now);
    const decisions = path.join(paths.root, 'decisions.md');
    fs.writeFileSync(decisions, '# Decisions\n\n- use esbuild\n');
    assert.equal(await memo.get(paths, decisions), undefined, 'a file git does not track has no authors');

    gitIn(ws, 'add', '-A');
    gitIn(ws, 'commit', '-q', '-m', 'decisions', '--author', 'Ana <ana@example.com>');
    now += HEAD_REUSE_MS / 2;
    assert.equal(await memo.get(paths, decisions), undefined, 'within the second, HEAD is the one git gave before');
    now += HEAD_REUSE_MS;
    assert.equal((await memo.get(paths, decisions))?.[2]?.author, 'Ana', 'past it, the new HEAD and its blame');
    assert.equal((await memo.get(paths, path.join(paths.root, 'facts.md')))?.[2]?.author, 'Test Person');
  });

  it('blames a file again when it changed, whatever the time', async () => {
    const ws = makeTempDir();
    const paths = storePaths(path.join(ws, '.lore'), ws);
    fs.mkdirSync(paths.root, { recursive: true });
    const facts = path.join(paths.root, 'facts.md');
    fs.writeFileSync(facts, '# Facts\n\n- the port is 8080\n');
    initRepo(ws);
    const memo = new LineAuthorsMemo(undefined, () => 0);
    assert.equal((await memo.get(paths, facts))?.[2]?.author, 'Test Person');
    fs.appendFileSync(facts, '- not committed yet\n');
    const authors = await memo.get(paths, facts);
    assert.equal(authors?.[2]?.author, 'Test Person');
    assert.equal(authors?.[3], undefined, 'a line not committed has no author');
    assert.equal(authors?.length, 4);
  });
});

/**
 * The language server's part in a team's store (src/server/teamMerge.ts): on opening a trusted
 * workspace whose store is in a clone, the merge driver is registered in the clone's own config
 * (nothing git tracks changes); a merge's mark is reconciled (a teammate's forget applied, the
 * digest regenerated) and the mark removed; without a mark nothing is written.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { initStore } from '../../src/core/store/initStore';
import { storePaths } from '../../src/core/store/storePaths';
import { defaultPromptsDir } from '../../src/core/services/harvest/prompts';
import { markStoreMerged, mergePending } from '../../src/core/store/merge/mergeDriver';
import { itemId } from '../../src/core/model/itemId';
import { statementHash } from '../../src/core/model/tombstones';
import { TeamMerge } from '../../src/server/teamMerge';
import { eventually } from '../helpers/eventually';
import { gitIn, initRepo } from '../helpers/gitRepo';
import { makeTempDir } from '../helpers/paths';

describe("the language server and a team's store", function () {
  this.timeout(30_000);

  it('registers the driver without changing git status, and reconciles only after a merge', async () => {
    const ws = makeTempDir('lore-team-server-');
    const paths = storePaths(path.join(ws, '.lore'), ws);
    initStore(paths, defaultPromptsDir());
    const forgotten = '- the staging password is hunter2 [from: ses-b, 2026-11-20]';
    fs.appendFileSync(path.join(paths.root, 'facts.md'), `\n${forgotten}\n- the queue is rabbit [from: ses-b, 2026-11-20]\n`);
    fs.writeFileSync(
      paths.ledger,
      JSON.stringify({
        entries: {},
        forgotten: { conversations: {}, items: { [itemId(forgotten)]: { at: '2026-11-21T00:00:00Z', hash: statementHash(forgotten) } } },
      }),
    );
    initRepo(ws);
    const logs: string[] = [];
    const team = new TeamMerge(paths, (m) => logs.push(m));
    await team.register();
    assert.match(gitIn(ws, 'config', '--local', '--get', 'merge.lore.driver'), / merge-driver %O %A %B %P; else /);
    assert.equal(gitIn(ws, 'status', '--porcelain'), '');

    // No mark: nothing is reconciled, nothing written.
    team.check();
    assert.equal(gitIn(ws, 'status', '--porcelain'), '');

    markStoreMerged(paths.root);
    team.check();
    await eventually(() => !mergePending(paths) || undefined, 10_000, 'the reconcile');
    const facts = fs.readFileSync(path.join(paths.root, 'facts.md'), 'utf8');
    assert.doesNotMatch(facts, /hunter2/);
    assert.match(facts, /queue is rabbit/);
    team.dispose();
  });
});

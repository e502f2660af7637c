import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Arrivals } from '../../src/core/store/items/teammateArrivals';
import { TeammateArrivalsNotification, TeammateArrivalsRequest, TeammateArrivalsSeenRequest } from '../../src/shared/protocol';
import { gitIn } from '../helpers/gitRepo';
import { team } from '../helpers/gitTeam';
import { LspTestClient } from './lspClient';

describe('language server: what arrived from teammates after a pull', function () {
  this.timeout(60_000);

  it("notifies once git moved HEAD with a teammate's items, keeps them until seen, and notices a pull made while it was stopped", async () => {
    const [ana, ben] = team(['Ana', 'ana@example.com'], ['Ben', 'ben@example.com']);
    const start = () => LspTestClient.start({ storeRoot: ben.paths.root, workspaceRoot: ben.dir });
    let client = await start();
    try {
      // Ben's own work moves HEAD too: no news.
      ben.add('decisions.md', ['- use sqlite [from: ses-b1, 2026-11-02]']);
      ben.commit('mine');
      gitIn(ben.dir, 'push', '-q', 'origin', 'main');
      gitIn(ana.dir, 'pull', '-q', 'origin', 'main');
      ana.add('facts.md', ['- the cache is redis [from: ses-a1, 2026-11-03]']);
      ana.commit('harvest');
      gitIn(ana.dir, 'push', '-q', 'origin', 'main');
      const since = Date.now();
      gitIn(ben.dir, 'pull', '-q', 'origin', 'main');
      const { params } = await client.waitFor<{ arrivals: Arrivals }>(TeammateArrivalsNotification.method, () => true, 20_000, since);
      assert.deepEqual(
        params.arrivals.items.map((i) => [i.file, i.text, i.author]),
        [['facts.md', 'the cache is redis [from: ses-a1, 2026-11-03]', 'Ana']],
      );
      assert.deepEqual(params.arrivals.authors, ['Ana']);
      // Asked again (a reload of the window): still there, until seen.
      const listed = (await client.connection.sendRequest(TeammateArrivalsRequest.method, {})) as Arrivals | null;
      assert.equal(listed?.items.length, 1);
      await client.connection.sendRequest(TeammateArrivalsSeenRequest.method, {});
      assert.equal(await client.connection.sendRequest(TeammateArrivalsRequest.method, {}), null);
      // Only reads and derived state: git status stays clean.
      assert.equal(gitIn(ben.dir, 'status', '--porcelain'), '');
    } finally {
      await client.stop();
    }
    // A pull while no window was open: news at the next start.
    ana.add('facts.md', ['- deploys go through CI [from: ses-a2, 2026-11-04]']);
    ana.commit('harvest 2');
    gitIn(ana.dir, 'push', '-q', 'origin', 'main');
    gitIn(ben.dir, 'pull', '-q', 'origin', 'main');
    client = await start();
    try {
      const { params } = await client.waitFor<{ arrivals: Arrivals }>(TeammateArrivalsNotification.method, () => true, 20_000);
      assert.deepEqual(
        params.arrivals.items.map((i) => i.text),
        ['deploys go through CI [from: ses-a2, 2026-11-04]'],
      );
      assert.ok(fs.existsSync(path.join(ben.paths.index, 'teammate-arrivals.json')));
      assert.equal(gitIn(ben.dir, 'status', '--porcelain'), '');
    } finally {
      await client.stop();
    }
  });
});

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { listItems } from '../../src/core/model/categoryFile';
import { listItemId } from '../../src/core/model/itemId';
import { failingModules, makeWorkspace, runCli } from '../helpers/cli';

const FACTS = `# Facts

- the build uses esbuild for bundling [from: c1, 2026-11-20]
- database migrations run nightly via cron [from: c2, 2026-10-01]
`;

async function storeWithFacts(): Promise<{ ws: string; root: string }> {
  const { ws, root } = await makeWorkspace();
  fs.writeFileSync(path.join(root, 'facts.md'), FACTS);
  fs.writeFileSync(path.join(root, 'decisions.md'), '# Decisions\n\n- bundle the CLI with esbuild too [from: c3, 2026-11-21]\n');
  return { ws, root };
}

describe('lore search (CLI)', function () {
  this.timeout(30_000);

  it('prints ranked results with category, text, provenance and file:line, and builds .index/', async () => {
    const { root } = await storeWithFacts();
    const r = await runCli(['search', 'esbuild', '--root', root]);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trim().split('\n');
    assert.equal(lines.length, 2);
    assert.ok(
      lines.some((l) =>
        /^\d\. [0-9a-hjkmnp-tv-z]{8} {2}\[facts\] the build uses «esbuild» for bundling \[from: c1, 2026-11-20\] {2}facts\.md:3$/.test(l),
      ),
      r.stdout,
    );
    assert.ok(
      lines.some((l) =>
        /^\d\. [0-9a-hjkmnp-tv-z]{8} {2}\[decisions\] bundle the CLI with «esbuild» too \[from: c3, 2026-11-21\] {2}decisions\.md:3$/.test(
          l,
        ),
      ),
      r.stdout,
    );
    assert.match(r.stderr, /2 results \(sqlite; lexical only: no embedding provider configured/);
    assert.ok(fs.existsSync(path.join(root, '.index', 'lore.sqlite')));
    // The ids the index keeps are the items' own (those lore item and the agents' tools take), printed by both CLI bundles.
    const esbuildFact = listItemId(listItems(FACTS)[0]);
    assert.ok(
      lines.some((l) => l.includes(`${esbuildFact}  [facts] the build uses`)),
      `${esbuildFact}\n${r.stdout}`,
    );
    const spawned = await runCli(['search', 'esbuild', '--root', root], { spawn: true });
    assert.equal(spawned.stdout, r.stdout);
  });

  it('filters by --category and --since, and honours --limit', async () => {
    const { root } = await storeWithFacts();
    const cat = await runCli(['search', 'esbuild', '--root', root, '--category', 'decisions']);
    assert.equal(cat.stdout.trim().split('\n').length, 1);
    assert.match(cat.stdout, /\[decisions\]/);
    const since = await runCli(['search', 'esbuild', 'migrations', '--root', root, '--since', '2026-11-21']);
    // No item has both words: the one with "esbuild" is shown, labelled as a partial match.
    assert.match(
      since.stdout,
      /^Partial matches: no item has every word of "esbuild migrations"; these have some of them\.\n1\. [0-9a-z]{8} {2}\[decisions\] .*decisions\.md:3\n$/,
    );
    const limited = await runCli(['search', 'esbuild', '--root', root, '--limit', '1']);
    assert.equal(limited.stdout.trim().split('\n').length, 1);
  });

  it('labels partial matches (no item has every word) on stdout and in --json, and only then', async () => {
    const { root } = await storeWithFacts();
    const partial = await runCli(['search', 'esbuild', 'okapis', '--root', root]);
    const lines = partial.stdout.trim().split('\n');
    assert.equal(lines[0], 'Partial matches: no item has every word of "esbuild okapis"; these have some of them.');
    assert.equal(lines.length, 3, partial.stdout);
    assert.ok(!partial.stderr.includes('warning: partial'), 'said once, on stdout');
    const json = JSON.parse((await runCli(['search', 'esbuild', 'okapis', '--root', root, '--json'])).stdout);
    assert.equal(json.partial, true);
    const whole = await runCli(['search', 'esbuild', 'bundling', '--root', root, '--json']);
    assert.equal(JSON.parse(whole.stdout).partial, undefined);
    assert.ok(!(await runCli(['search', 'esbuild', 'bundling', '--root', root])).stdout.includes('Partial'));
  });

  it('--json prints the whole response, including which backend answered and why', async () => {
    const { root } = await storeWithFacts();
    const r = await runCli(['search', 'nightly cron', '--root', root, '--json']);
    assert.equal(r.code, 0, r.stderr);
    const json = JSON.parse(r.stdout);
    assert.equal(json.backend, 'sqlite');
    assert.equal(json.mode, 'lexical');
    assert.equal(json.hits.length, 1);
    assert.deepEqual(
      [json.hits[0].category, json.hits[0].file, json.hits[0].line, json.hits[0].source, json.hits[0].date],
      ['facts', 'facts.md', 4, 'c2', '2026-10-01'],
    );
    const forced = JSON.parse(
      (await runCli(['search', 'cron', '--root', root, '--json'], { env: { LORE_SEARCH_BACKEND: 'memory' } })).stdout,
    );
    assert.equal(forced.backend, 'memory');
    assert.match(forced.backendReason, /LORE_SEARCH_BACKEND=memory/);
    assert.equal(forced.hits.length, 1);
  });

  it('exits 0 with no results and on syntax-looking queries', async () => {
    const { root } = await storeWithFacts();
    for (const query of ['nothingmatcheshere', 'AND OR NOT', '"((*:^', 'NEAR(esbuild']) {
      const r = await runCli(['search', query, '--root', root]);
      assert.equal(r.code, 0, `${query}: ${r.stderr}`);
    }
    const none = await runCli(['search', 'nothingmatcheshere', '--root', root]);
    assert.equal(none.stdout, '');
    assert.match(none.stderr, /no results/);
  });

  it('exits 2 on usage errors', async () => {
    const { root } = await storeWithFacts();
    const cases: string[][] = [
      ['search', '--root', root],
      ['search', 'x', '--root', root, '--since', '2026-02-30'],
      ['search', 'x', '--root', root, '--until', 'yesterday'],
      ['search', 'x', '--root', root, '--category', 'gossip'],
      ['search', 'x', '--root', root, '--limit', '0'],
      ['search', 'x', '--root', root, '--limit', 'ten'],
      ['search', 'x', '--root', root, '--backend', 'grep'],
      ['search', 'x', '--root', root, '--bogus'],
    ];
    for (const args of cases) {
      const r = await runCli(args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, /lore search --help/);
    }
  });

  /** A preload that makes these modules fail to load the way a missing or mismatched build does. */
  it('opens its index through node:sqlite (Node 24+), falls back to better-sqlite3, and either reads what the other wrote', async () => {
    const { root } = await storeWithFacts();
    // dist/search.js prefers Node's own SQLite (quicker to load), even where better-sqlite3 loads.
    const quiet = Number(process.versions.node.split('.')[0]) >= 24;
    const r = await runCli(['search', 'cron', '--root', root, '--json'], {
      spawn: true,
      env: { NODE_OPTIONS: failingModules(['better-sqlite3']) },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '', 'node:sqlite loads without a warning');
    const json = JSON.parse(r.stdout);
    assert.equal(json.backend, 'sqlite');
    const why = quiet
      ? 'preferred for a one-shot command: it loads faster'
      : 'better-sqlite3 could not load: simulated: NODE_MODULE_VERSION mismatch';
    assert.equal(json.backendReason, `SQLite FTS5 index at ${path.join(root, '.index', 'lore.sqlite')} (through node:sqlite: ${why})`);
    assert.equal(json.hits[0].file, 'facts.md');
    // The file node:sqlite wrote is the one better-sqlite3 reads (the whole CLI, here in process): nothing to rebuild.
    const again = JSON.parse((await runCli(['search', 'cron', '--root', root, '--json'])).stdout);
    assert.equal(again.backend, 'sqlite');
    assert.doesNotMatch(again.backendReason, /node:sqlite/);
    assert.deepEqual(again.update.indexed, []);
    assert.equal(again.hits[0].file, 'facts.md');
    // Without node:sqlite, the one-shot search takes better-sqlite3 and says nothing of it.
    const native = await runCli(['search', 'cron', '--root', root, '--json'], {
      spawn: true,
      env: { NODE_OPTIONS: failingModules(['node:sqlite']) },
    });
    assert.equal(native.code, 0, native.stderr);
    const nativeJson = JSON.parse(native.stdout);
    assert.equal(nativeJson.backendReason, `SQLite FTS5 index at ${path.join(root, '.index', 'lore.sqlite')}`);
    assert.deepEqual(nativeJson.update.indexed, []);
    assert.equal(nativeJson.hits[0].file, 'facts.md');
  });

  it('answers with no hits and says why when neither better-sqlite3 nor node:sqlite can load', async () => {
    const { root } = await storeWithFacts();
    const r = await runCli(['search', 'cron', '--root', root, '--json'], {
      spawn: true,
      env: { NODE_OPTIONS: failingModules(['better-sqlite3', 'node:sqlite']) },
    });
    assert.equal(r.code, 0, r.stderr);
    const json = JSON.parse(r.stdout);
    assert.equal(json.backend, 'none');
    assert.deepEqual(json.hits, []);
    const why =
      /^search is unavailable: better-sqlite3 could not load \(simulated: NODE_MODULE_VERSION mismatch\) and node:sqlite is not available \(simulated: NODE_MODULE_VERSION mismatch\); Lore's search and task memory need Node 22\.13 or later/;
    assert.match(json.backendReason, why);
    assert.match(json.warnings[0], why);
    assert.ok(!fs.existsSync(path.join(root, '.index', 'lore.sqlite')));
  });

  it('rebuilds after .index/ is deleted or corrupted', async () => {
    const { root } = await storeWithFacts();
    assert.equal((await runCli(['search', 'cron', '--root', root])).code, 0);
    fs.writeFileSync(path.join(root, '.index', 'lore.sqlite'), 'garbage'.repeat(500));
    const corrupt = await runCli(['search', 'cron', '--root', root]);
    assert.equal(corrupt.code, 0, corrupt.stderr);
    assert.match(corrupt.stdout, /facts\.md:4/);
    fs.rmSync(path.join(root, '.index'), { recursive: true });
    const deleted = await runCli(['search', 'cron', '--root', root]);
    assert.match(deleted.stdout, /facts\.md:4/);
  });
});

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeWorkspace, runCli } from '../helpers/cli';
import { makeTempDir } from '../helpers/paths';

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
  function failingModules(modules: string[]): string {
    const hook = path.join(makeTempDir('lore-hook-'), 'noSqlite.js');
    fs.writeFileSync(
      hook,
      "const Module = require('module'); const load = Module._load;\n" +
        `Module._load = function (request, ...rest) { if (${JSON.stringify(modules)}.includes(request)) throw new Error('simulated: NODE_MODULE_VERSION mismatch'); return load.call(this, request, ...rest); };\n`,
    );
    return `--require ${hook}`;
  }

  it('keeps its index file through node:sqlite, and says why, when better-sqlite3 cannot load', async () => {
    const { root } = await storeWithFacts();
    const r = await runCli(['search', 'cron', '--root', root, '--json'], {
      spawn: true,
      env: { NODE_OPTIONS: failingModules(['better-sqlite3']) },
    });
    assert.equal(r.code, 0, r.stderr);
    const json = JSON.parse(r.stdout);
    assert.equal(json.backend, 'sqlite');
    assert.match(
      json.backendReason,
      /^SQLite FTS5 index at .*lore\.sqlite \(through node:sqlite: better-sqlite3 could not load: simulated: NODE_MODULE_VERSION mismatch\)$/,
    );
    assert.equal(json.hits[0].file, 'facts.md');
    assert.ok(fs.existsSync(path.join(root, '.index', 'lore.sqlite')));
    // The file node:sqlite wrote is the one better-sqlite3 reads: nothing to rebuild.
    const again = JSON.parse((await runCli(['search', 'cron', '--root', root, '--json'])).stdout);
    assert.equal(again.backend, 'sqlite');
    assert.deepEqual(again.update.indexed, []);
    assert.equal(again.hits[0].file, 'facts.md');
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

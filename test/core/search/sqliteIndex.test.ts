import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { indexDatabaseFile } from '../../../src/core/services/search/openEngine';
import { SearchIndex, searchStore } from '../../../src/core/services/search/searchIndex';
import { RANK_CAP } from '../../../src/core/services/search/sqliteBackend';
import { INDEX_USER_VERSION } from '../../../src/core/services/search/sqliteSchema';
import { loadSqlite } from '../../../src/core/base/sqliteDriver';
import type { StorePaths } from '../../../src/core/store/storePaths';
import { ageStore, makeSearchStore } from './searchFixtures';

describe('SQLite search index (lifecycle and failure handling)', function () {
  this.timeout(30_000);
  let paths: StorePaths;
  const open: SearchIndex[] = [];
  const openIndex = (options: Parameters<typeof SearchIndex.open>[1] = {}) => {
    const index = SearchIndex.open(paths, { embedder: null, busyTimeoutMs: 150, ...options });
    open.push(index);
    return index;
  };

  before(function () {
    if (!loadSqlite().driver) this.skip();
  });
  beforeEach(() => {
    ({ paths } = makeSearchStore());
    ageStore(paths);
  });
  afterEach(() => {
    for (const index of open.splice(0)) index.close();
  });

  it('lives in <store>/.index/lore.sqlite, in WAL mode, and persists between opens', async () => {
    const first = openIndex();
    assert.equal((await first.search('esbuild')).hits.length, 1);
    const file = indexDatabaseFile(paths);
    assert.equal(file, path.join(paths.root, '.index', 'lore.sqlite'));
    assert.match(fs.readFileSync(path.join(paths.index, '.gitignore'), 'utf8'), /^\*$/m, 'the index keeps itself out of git');
    const db = loadSqlite().driver!.open(file, { readonly: true });
    assert.equal(db.pragma('journal_mode'), 'wal');
    assert.equal(db.pragma('user_version'), INDEX_USER_VERSION);
    db.close();
    first.close();
    const second = openIndex();
    const report = await second.update();
    assert.deepEqual(report.indexed, [], 'a second process reuses the index');
    assert.equal(report.unchanged, 8);
  });

  it('rebuilds after .index/ is deleted', async () => {
    assert.equal((await searchStore(paths, 'esbuild', { embedder: null })).hits.length, 1);
    fs.rmSync(paths.index, { recursive: true, force: true });
    const again = await searchStore(paths, 'esbuild', { embedder: null });
    assert.equal(again.backend, 'sqlite');
    assert.equal(again.hits.length, 1);
    assert.equal(again.update?.indexed.length, 8);
  });

  it('deletes and rebuilds a database that is garbage', async () => {
    fs.mkdirSync(paths.index, { recursive: true });
    fs.writeFileSync(indexDatabaseFile(paths), Buffer.alloc(64 * 1024, 'not a database '));
    const logs: string[] = [];
    const index = openIndex({ log: (m) => logs.push(m) });
    const r = await index.search('esbuild');
    assert.equal(r.backend, 'sqlite');
    assert.equal(r.hits.length, 1);
    assert.ok(
      logs.some((m) => /damaged.*rebuilt/.test(m)),
      logs.join('\n'),
    );
  });

  it('rebuilds an index written by another schema version', async () => {
    await openIndex().search('esbuild');
    open.pop()!.close();
    const db = loadSqlite().driver!.open(indexDatabaseFile(paths));
    db.pragma('user_version = 1');
    db.close();
    const r = await openIndex().search('esbuild');
    assert.equal(r.hits.length, 1);
    assert.equal(r.update?.indexed.length, 8);
  });

  it('keeps the index in memory when another connection holds an exclusive lock, and says why', async () => {
    await openIndex().search('esbuild');
    open.pop()!.close();
    const holder = loadSqlite().driver!.open(indexDatabaseFile(paths));
    try {
      holder.pragma('locking_mode = EXCLUSIVE');
      holder.exec('BEGIN EXCLUSIVE');
      const r = await openIndex().search('esbuild');
      assert.equal(r.backend, 'memory');
      assert.match(r.backendReason, /locked by another process.*; using an in-memory index(?: \(through node:sqlite: [^)]*\))?$/);
      assert.equal(r.hits[0]?.text, 'the build uses esbuild for bundling');
    } finally {
      holder.close();
    }
  });

  it('answers from the current index while another process holds the write lock', async () => {
    const index = openIndex();
    await index.search('esbuild');
    const writer = loadSqlite().driver!.open(indexDatabaseFile(paths));
    try {
      writer.exec('BEGIN IMMEDIATE');
      fs.appendFileSync(path.join(paths.root, 'facts.md'), '- giraffes are tall\n');
      const r = await index.search('esbuild');
      assert.equal(r.backend, 'sqlite');
      assert.equal(r.hits.length, 1);
      assert.ok(
        r.warnings.some((w) => /written by another process/.test(w)),
        r.warnings.join('\n'),
      );
      writer.exec('COMMIT');
      assert.equal((await index.search('giraffes')).hits.length, 1, 'catches up once the lock is gone');
    } finally {
      writer.close();
    }
  });

  it('falls back when the index folder cannot be created', async () => {
    fs.writeFileSync(paths.index, 'a file where the folder should be');
    const r = await openIndex().search('esbuild');
    assert.equal(r.backend, 'memory');
    assert.match(r.backendReason, /could not be opened.*; using an in-memory index(?: \(through node:sqlite: [^)]*\))?$/);
    assert.equal(r.hits.length, 1);
  });

  it('is kept in memory when LORE_SEARCH_BACKEND=memory asks, reporting it', async () => {
    const r = await openIndex({ env: { LORE_SEARCH_BACKEND: 'memory' } }).search('esbuild');
    assert.equal(r.backend, 'memory');
    assert.equal(r.hits.length, 1);
    assert.match(r.backendReason, /LORE_SEARCH_BACKEND=memory/);
    assert.ok(!fs.existsSync(indexDatabaseFile(paths)));
  });

  it('merges the FTS segments after a bulk build, not after small updates', async () => {
    const segments = () => {
      const db = loadSqlite().driver!.open(indexDatabaseFile(paths), { readonly: true });
      try {
        return db.prepare('SELECT count(DISTINCT segid) FROM fts_idx').values()[0][0] as number;
      } finally {
        db.close();
      }
    };
    const index = openIndex();
    await index.update();
    for (let i = 0; i < 3; i++) {
      fs.appendFileSync(path.join(paths.root, 'decisions.md'), `- small change ${i}\n`);
      await index.update({ only: ['decisions.md'] });
    }
    assert.ok(segments() > 1, 'small updates add segments of their own; merging them is left to FTS5');
    const items = Array.from({ length: 6000 }, (_, i) => `- bulk item ${i} about topic${i % 97} [from: s${i % 13}, 2026-01-02]`).join('\n');
    fs.writeFileSync(path.join(paths.root, 'facts.md'), `# Facts\n\n${items}\n`);
    await index.update();
    assert.equal(segments(), 1);
    assert.equal((await index.search('topic42', { limit: 100 })).hits.length, 62);
  });

  it('ranks a very broad query among the most recent matches and says so', async () => {
    const many = Array.from({ length: RANK_CAP + 50 }, (_, i) => `- okapi sighting number ${i}`).join('\n');
    fs.writeFileSync(path.join(paths.root, 'questions.md'), `# Questions\n\n${many}\n`);
    const r = await openIndex().search('okapi', { limit: 5 });
    assert.equal(r.hits.length, 5);
    assert.ok(
      r.warnings.some((w) => w.startsWith(`over ${RANK_CAP} matches`)),
      r.warnings.join('\n'),
    );
    const narrow = await openIndex().search('okapi number 7');
    assert.deepEqual(narrow.warnings, []);
    // Asking for more hits than the cap ranks that many: every match comes back.
    const all = await openIndex().search('okapi', { limit: RANK_CAP + 100 });
    assert.equal(all.hits.length, RANK_CAP + 50);
  });

  it('lists a broad prefix (a word being typed) newest first without ranking it, and ranks a narrow one', async () => {
    const many = Array.from({ length: RANK_CAP + 20 }, (_, i) => `- okapis${i} seen`).join('\n');
    fs.writeFileSync(path.join(paths.root, 'questions.md'), `# Questions\n\n${many}\n- okapis${RANK_CAP + 20} seen twice, okapis again\n`);
    const broad = await openIndex().search('okap', { limit: 3 });
    assert.deepEqual(
      broad.hits.map((h) => h.text),
      [`okapis${RANK_CAP + 20} seen twice, okapis again`, `okapis${RANK_CAP + 19} seen`, `okapis${RANK_CAP + 18} seen`],
    );
    assert.ok(
      broad.warnings.some((w) => w.includes('unranked')),
      broad.warnings.join('\n'),
    );
    const narrow = await openIndex().search('okapis1', { limit: 3 });
    assert.deepEqual(narrow.warnings, []);
    assert.equal(narrow.hits[0].text, 'okapis1 seen');
  });

  it('skips the refresh within refreshAfterMs (for search-as-you-type), and refreshes after', async () => {
    const index = openIndex({ refreshAfterMs: 60_000 });
    await index.search('esbuild');
    fs.appendFileSync(path.join(paths.root, 'facts.md'), '- giraffes are tall\n');
    const quick = await index.search('giraffes');
    assert.equal(quick.update, undefined);
    assert.equal(quick.hits.length, 0);
    await index.update({ only: [path.join(paths.root, 'facts.md')] });
    assert.equal((await index.search('giraffes')).hits.length, 1);
  });
});

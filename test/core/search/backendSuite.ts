/**
 * The behaviour the search engine has wherever its index lives (the file or memory) and through
 * either SQLite driver, registered once per combination: the same store, the same queries, the
 * same expectations.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SearchIndex } from '../../../src/core/services/search/searchIndex';
import type { SearchResponse } from '../../../src/core/services/search/searchTypes';
import type { StorePaths } from '../../../src/core/store/storePaths';
import { age, ageStore, makeSearchStore } from './searchFixtures';

/** Inputs that must never make a search throw. */
export const NASTY_QUERIES: unknown[] = [
  '',
  ' ',
  '"',
  '""',
  '"""',
  "'",
  '*',
  '**',
  'esb*',
  '*esbuild',
  '^esbuild',
  'esbuild^',
  ':',
  'text:esbuild',
  'context : x',
  'AND',
  'OR',
  'NOT',
  'NEAR',
  'esbuild AND',
  'OR esbuild',
  'NOT esbuild',
  'NEAR(esbuild build, 2)',
  'esbuild NEAR build',
  '(',
  ')',
  '(esbuild',
  'esbuild)',
  '((()))',
  '{text}: esbuild',
  '[from: c1',
  '-esbuild',
  '+esbuild',
  'esbuild -build',
  '\u0000',
  '\u0000esbuild',
  'es\u0001build',
  '\ud800',
  'esbuild\udc00',
  '😀',
  'build 😀',
  '🏳️‍🌈 flags',
  'é',
  'e\u0301',
  'ﬁle',
  '日本',
  'テキスト',
  'مرحبا',
  'Ελληνικά',
  'ß',
  '\t\n\r',
  '%',
  '_',
  '__proto__',
  'constructor',
  'x'.repeat(5000),
  'a '.repeat(200),
  '"unbalanced phrase',
  'phrase" unbalanced',
  '"a" "b" "c"',
  'NULL',
  "'; DROP TABLE docs; --",
  '\\',
  '\\"',
  null,
  undefined,
  42,
  {},
  [],
];

/** Store-relative files of the hits, for short assertions. */
function files(response: SearchResponse): string[] {
  return response.hits.map((h) => h.file);
}

export function describeSearchBackend(backend: 'sqlite' | 'memory', driver: 'better-sqlite3' | 'node:sqlite' = 'better-sqlite3'): void {
  describe(`search (${backend} index through ${driver})`, function () {
    this.timeout(30_000);
    let paths: StorePaths;
    let index: SearchIndex;

    beforeEach(() => {
      ({ paths } = makeSearchStore());
      ageStore(paths);
      const env = driver === 'node:sqlite' ? { LORE_SQLITE_DRIVER: 'node' } : {};
      index = SearchIndex.open(paths, { backend: backend === 'memory' ? 'memory' : 'auto', embedder: null, env });
    });
    afterEach(() => index.close());

    it('reports which backend answered and that search is lexical without an embedding provider', async () => {
      const r = await index.search('esbuild');
      assert.equal(r.backend, backend);
      assert.match(
        r.backendReason,
        backend === 'sqlite' ? /^SQLite FTS5 index at .*lore\.sqlite/ : /^forced by option backend: 'memory'; using an in-memory index/,
      );
      if (driver === 'node:sqlite') assert.match(r.backendReason, /through node:sqlite: forced by LORE_SQLITE_DRIVER=node\)$/);
      else assert.doesNotMatch(r.backendReason, /node:sqlite/);
      assert.equal(r.mode, 'lexical');
      assert.match(r.modeReason, /no embedding provider/);
    });

    it('finds a category item with its provenance, file and line', async () => {
      const r = await index.search('esbuild');
      const hit = r.hits.find((h) => h.file === 'facts.md');
      assert.ok(hit, JSON.stringify(r.hits));
      assert.equal(hit.category, 'facts');
      assert.equal(hit.text, 'the build uses esbuild for bundling');
      assert.equal(hit.source, 'c1');
      assert.equal(hit.date, '2026-11-20');
      assert.equal(hit.line, 3);
      assert.equal(hit.absolutePath, path.join(paths.root, 'facts.md'));
      assert.ok(hit.score > 0);
    });

    it('indexes every kind of source: categories, tasks with their section, notes, inbox and archive transcripts', async () => {
      assert.deepEqual(files(await index.search('CommonJS')), ['decisions.md']);
      assert.deepEqual(files(await index.search('Release')), ['playbooks.md']);
      const tasks = await index.search('ledger', { categories: ['tasks'] });
      assert.deepEqual(
        tasks.hits.map((h) => [h.text, h.section]),
        [['wrote the ledger', 'Done']],
      );
      const note = (await index.search('constant')).hits[0];
      assert.equal(note.category, 'notes');
      assert.equal(note.notedPath, 'src/app.ts');
      assert.equal(note.line, 9);
      const chat = (await index.search('debounce')).hits[0];
      assert.equal(chat.category, 'transcripts');
      assert.equal(chat.file, 'inbox/s1.md');
      assert.equal(chat.source, 's1');
      assert.equal(chat.date, '2026-11-20');
      assert.equal(chat.line, 9);
      assert.deepEqual(files(await index.search('rotate signing keys')), ['archive/old.txt']);
    });

    it('stems words, folds case and diacritics, and matches the last word as a prefix', async () => {
      assert.ok(files(await index.search('migration')).includes('facts.md'));
      assert.ok(files(await index.search('MIGRATIONS')).includes('facts.md'));
      assert.equal((await index.search('cafe deja')).hits[0]?.text, 'Café déjà vu is a unicode test');
      assert.ok((await index.search('esbu')).hits.some((h) => h.text.includes('esbuild')));
      assert.ok((await index.search('crash tes')).hits.some((h) => h.text === 'write the crash test'));
      assert.ok((await index.search('日本語')).hits.some((h) => h.text.startsWith('日本語')));
      // A finished word (trailing space) is not a prefix.
      assert.equal((await index.search('esbu ')).hits.length, 0);
    });

    it('returns the items with every word, and items with any word only when none has them all', async () => {
      const both = await index.search('crash ledger');
      assert.deepEqual(
        both.hits.map((h) => h.text),
        ['the crash test covers the ledger — written after the outage'],
      );
      const some = await index.search('crash nonexistentword');
      assert.deepEqual(
        new Set(some.hits.map((h) => h.text)),
        new Set(['the crash test covers the ledger — written after the outage', 'write the crash test']),
      );
    });

    it('matches quoted phrases only with their words adjacent and in order', async () => {
      assert.ok((await index.search('"crash test"')).hits.some((h) => h.text === 'write the crash test'));
      assert.equal((await index.search('"test crash"')).hits.length, 0);
    });

    it('filters by category, by date range, and leaves undated items out of date filters', async () => {
      const test = await index.search('test', { categories: ['tasks'] });
      assert.deepEqual(
        test.hits.map((h) => h.category),
        ['tasks'],
      );
      const many = await index.search('test', { categories: ['facts', 'tasks'] });
      assert.deepEqual(new Set(many.hits.map((h) => h.category)), new Set(['facts', 'tasks']));
      const since = await index.search('test', { since: '2026-11-01' });
      assert.ok(since.hits.length > 0 && since.hits.every((h) => h.date! >= '2026-11-01'), JSON.stringify(since.hits));
      const until = await index.search('test', { until: '2026-10-01' });
      assert.deepEqual(
        until.hits.map((h) => h.text),
        ['Café déjà vu is a unicode test'],
      );
      assert.equal((await index.search('zebras')).hits.length, 1);
      assert.equal((await index.search('zebras', { since: '2000-01-01' })).hits.length, 0);
      assert.equal((await index.search('test', { since: '2026-11-21', until: '2026-11-19' })).hits.length, 0);
    });

    it('honours the limit', async () => {
      const all = await index.search('the');
      assert.ok(all.hits.length > 2);
      assert.equal((await index.search('the', { limit: 2 })).hits.length, 2);
    });

    it('highlights matched words in snippets, with configurable markers', async () => {
      const hit = (await index.search('esbuild')).hits.find((h) => h.file === 'facts.md')!;
      assert.equal(hit.snippet, 'the build uses «esbuild» for bundling');
      const custom = (await index.search('bundling', { markers: { open: '<b>', close: '</b>' } })).hits[0];
      assert.match(custom.snippet, /<b>bundling<\/b>/);
      const chat = (await index.search('debounce')).hits[0];
      assert.match(chat.snippet, /«debounce»/);
      assert.ok(!chat.snippet.includes('\n'));
    });

    it('says when only some of the words matched (partial matches), and only then', async () => {
      const partial = await index.search('esbuild zebrafish');
      assert.ok(partial.hits.some((h) => h.text.includes('esbuild')));
      assert.equal(partial.partial, true);
      assert.equal((await index.search('esbuild bundling')).partial, undefined);
      assert.equal((await index.search('zebrafish okapi')).partial, undefined, 'no hits: nothing to label');
    });

    it('never throws on hostile or odd input', async () => {
      for (const query of NASTY_QUERIES) {
        const r = await index.search(query as string);
        assert.ok(Array.isArray(r.hits), `query ${JSON.stringify(query)}`);
        assert.deepEqual(r.warnings, [], `query ${JSON.stringify(query)}: ${r.warnings.join('; ')}`);
      }
      assert.equal((await index.search('')).modeReason, 'the query has no words to search for');
      assert.ok((await index.search('NEAR(esbuild build, 2)')).hits.some((h) => h.text.includes('esbuild')));
    });

    it('re-reads only the file that changed, skips touched-but-identical files, drops deleted ones', async () => {
      const first = await index.update();
      assert.equal(first.indexed.length, 8);
      const again = await index.update();
      assert.deepEqual([again.indexed, again.unchanged, again.rehashed], [[], 8, 0]);
      const facts = path.join(paths.root, 'facts.md');
      fs.appendFileSync(facts, '- giraffes are tall [from: c9, 2026-11-22]\n');
      age(facts, 30);
      const changed = await index.update();
      assert.deepEqual(changed.indexed, ['facts.md']);
      assert.ok((await index.search('giraffes')).hits.length === 1);
      const decisions = path.join(paths.root, 'decisions.md');
      age(decisions, 10);
      const touched = await index.update();
      assert.deepEqual(touched.indexed, []);
      assert.equal(touched.rehashed, 1);
      fs.rmSync(path.join(paths.root, 'inbox', 's1.md'));
      const removed = await index.update();
      assert.deepEqual(removed.removed, ['inbox/s1.md']);
      assert.equal((await index.search('debounce')).hits.length, 0);
      fs.writeFileSync(path.join(paths.inbox, 'new.md'), 'User: what about okapis?\n');
      assert.equal((await index.search('okapis')).hits[0]?.file, 'inbox/new.md');
    });

    it('updates only the files it is told about', async () => {
      await index.update();
      fs.appendFileSync(path.join(paths.root, 'facts.md'), '- giraffes are tall\n');
      fs.appendFileSync(path.join(paths.root, 'decisions.md'), '- adopt okapis\n');
      const only = await index.update({ only: ['facts.md'] });
      assert.deepEqual(only.indexed, ['facts.md']);
      assert.equal(only.scanned, 1);
      assert.equal((await index.search('okapis', { refresh: false })).hits.length, 0);
      assert.equal((await index.search('okapis')).hits.length, 1);
    });

    it('sees a change made right after the previous update (same mtime tick)', async () => {
      const facts = path.join(paths.root, 'facts.md');
      const stat = fs.statSync(facts);
      fs.writeFileSync(facts, FACTS_WITH('giraffes'));
      fs.utimesSync(facts, stat.atime, new Date());
      await index.update();
      const mtime = fs.statSync(facts).mtime;
      // Same length, same mtime, different content: only the racy-mtime rule can see this.
      fs.writeFileSync(facts, FACTS_WITH('okapisss'));
      fs.utimesSync(facts, mtime, mtime);
      assert.equal((await index.search('okapisss')).hits.length, 1);
    });
  });
}

function FACTS_WITH(word: string): string {
  return `# Facts\n\n- ${word} live here [from: c1, 2026-11-20]\n`;
}

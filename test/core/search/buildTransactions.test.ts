import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { syncIndexInSlices, type SlicedSyncOptions } from '../../../src/core/services/search/indexSync';
import type { LexicalBackend } from '../../../src/core/services/search/lexicalBackend';
import { indexDatabaseFile, openEngine } from '../../../src/core/services/search/openEngine';
import { SearchIndex } from '../../../src/core/services/search/searchIndex';
import { DEFERRED_FULL_TEXT_KEY, type SqliteBackend } from '../../../src/core/services/search/sqliteBackend';
import { loadSqlite, type SqliteDatabase } from '../../../src/core/base/sqliteDriver';
import type { StorePaths } from '../../../src/core/store/storePaths';
import { ageStore, makeSearchStore } from './searchFixtures';

/** Note files added to the fixture store: a build of one file per transaction makes as many transactions. */
const NOTE_FILES = 600;
/**
 * The most FTS segments a build may have at any point. FTS5 fails every write past 2,000; with
 * merging held off, a build of one transaction per file had one segment per file.
 */
const MAX_SEGMENTS = 64;

function noteFile(paths: StorePaths, i: number): string {
  return path.join(paths.files, `7-${1000 + i}.md`);
}

/** Writes the note files, each with three notes naming `word` and the file's number. */
function writeNotes(paths: StorePaths, word: string): void {
  for (let i = 0; i < NOTE_FILES; i++) {
    const notes = [0, 1, 2].map((n) => `- ${word} note ${n} of module${i} keeps the cache warm [from: c${i % 7}, 2026-11-2${n}]`);
    fs.writeFileSync(noteFile(paths, i), `---\npath: src/m${i}.ts\n---\n# src/m${i}.ts\n\n${notes.join('\n')}\n`);
  }
  ageStore(paths);
}

function segments(db: SqliteDatabase): number {
  return db.prepare('SELECT count(DISTINCT segid) FROM fts_idx').values()[0][0] as number;
}

function mergeSettings(paths: StorePaths): Record<string, number> {
  const db = loadSqlite().driver!.open(indexDatabaseFile(paths), { readonly: true });
  try {
    const rows = db.prepare("SELECT k, v FROM fts_config WHERE k IN ('automerge', 'crisismerge')").all() as Array<{ k: string; v: number }>;
    return Object.fromEntries(rows.map((r) => [r.k, Number(r.v)]));
  } finally {
    db.close();
  }
}

/** Every document of the index as a user could see it, in a stable order. */
function allDocs(paths: StorePaths): string[] {
  const backend = openEngine(paths).lexical;
  try {
    return backend
      .getDocs(backend.docRefs().map((d) => d.id))
      .map((d) => JSON.stringify({ ...d, id: undefined }))
      .sort();
  } finally {
    backend.close();
  }
}

/** A sliced build (one file per transaction) that dies after half of the files. */
async function killedHalfWay(backend: LexicalBackend, paths: StorePaths, slicing: SlicedSyncOptions = {}): Promise<void> {
  let transactions = 0;
  const run: SlicedSyncOptions['run'] = (slice) => {
    if (++transactions > NOTE_FILES / 2) throw new Error('killed');
    return slice(backend);
  };
  await assert.rejects(syncIndexInSlices(backend, paths, {}, { ...slicing, sliceMs: 0, run }), /killed/);
}

async function hitsOf(paths: StorePaths, queries: string[], options: Parameters<typeof SearchIndex.open>[1] = {}): Promise<string[]> {
  const index = SearchIndex.open(paths, { embedder: null, ...options });
  try {
    const out: string[] = [];
    for (const query of queries) {
      const response = await index.search(query, { limit: 30 });
      out.push(`${query}: ${response.hits.map((h) => `${h.file}:${h.line}:${h.text}`).join(' | ')}`);
    }
    return out;
  } finally {
    index.close();
  }
}

describe('index build: transactions, segments and interruptions', function () {
  this.timeout(120_000);
  let paths: StorePaths;

  before(function () {
    if (!loadSqlite().driver) this.skip();
  });
  beforeEach(() => {
    ({ paths } = makeSearchStore());
    writeNotes(paths, 'amber');
  });

  it('a build of one transaction per file keeps the FTS segments bounded all along, and merged at the end', async () => {
    const backend = openEngine(paths).lexical as SqliteBackend;
    let transactions = 0;
    let peak = 0;
    try {
      await syncIndexInSlices(
        backend,
        paths,
        {},
        {
          sliceMs: 0,
          run: (slice) => {
            const result = slice(backend);
            transactions++;
            peak = Math.max(peak, segments(backend.db));
            return result;
          },
        },
      );
      assert.ok(transactions >= NOTE_FILES, `${transactions} transactions`);
      assert.ok(peak <= MAX_SEGMENTS, `at most ${peak} segments during the build`);
      assert.equal(segments(backend.db), 1);
    } finally {
      backend.close();
    }
    assert.deepEqual(mergeSettings(paths), {}, "FTS5's own merge settings are left at their defaults");
  });

  it('sets back the merge settings an older build left held off, at the next open', () => {
    const first = openEngine(paths).lexical as SqliteBackend;
    first.db.prepare("INSERT INTO fts(fts, rank) VALUES ('automerge', 0)").run();
    first.db.prepare("INSERT INTO fts(fts, rank) VALUES ('crisismerge', 1999)").run();
    first.close();
    assert.deepEqual(mergeSettings(paths), { automerge: 0, crisismerge: 1999 });
    openEngine(paths).lexical.close();
    assert.deepEqual(mergeSettings(paths), { automerge: 4, crisismerge: 16 });
  });

  it("sees another process's writes at the start of each transaction, though it reads the states once per transaction", () => {
    const ours = openEngine(paths).lexical;
    const theirs = openEngine(paths).lexical;
    const state = (rel: string) => ({ rel, mtimeMs: 1, size: 1, hash: 'h' });
    try {
      ours.transaction(() => {
        ours.setSourceState(state('ours.md'));
        assert.ok(ours.sourceStates().has('ours.md'));
      });
      theirs.transaction(() => theirs.setSourceState(state('theirs.md')));
      ours.transaction(() => assert.ok(ours.sourceStates().has('theirs.md'), 'read again after the other commit'));
      theirs.transaction(() => theirs.removeSource('theirs.md'));
      assert.equal(ours.sourceStates().has('theirs.md'), false, 'and outside a transaction');
    } finally {
      ours.close();
      theirs.close();
    }
  });

  it('a build interrupted half way leaves every file searchable, old or new, and the next update completes it', async () => {
    const queries = ['amber module17', 'cobalt module17', 'cobalt module599', 'amber module599', 'watcher'];
    await hitsOf(paths, queries);
    writeNotes(paths, 'cobalt');
    const backend = openEngine(paths).lexical;
    try {
      await killedHalfWay(backend, paths);
    } finally {
      backend.close();
    }
    // Each file has its old notes or its new ones, never none and never both.
    const docs = allDocs(paths).filter((d) => d.includes('keeps the cache warm'));
    assert.equal(docs.length, NOTE_FILES * 3);
    const cobalt = docs.filter((d) => d.includes('cobalt note')).length;
    assert.ok(cobalt > 0 && cobalt < docs.length, `${cobalt} of ${docs.length} notes rewritten before the interruption`);
    const index = SearchIndex.open(paths, { embedder: null });
    try {
      const asItIs = await index.search('amber module599', { refresh: false });
      assert.equal(asItIs.hits.length, 3, 'a file not reached yet still answers with its old notes');
    } finally {
      index.close();
    }

    const resumed = await hitsOf(paths, queries);
    fs.rmSync(paths.index, { recursive: true, force: true });
    assert.deepEqual(resumed, await hitsOf(paths, queries), 'as complete as a build from scratch');
    assert.match(resumed[2], /^cobalt module599: (?:files\/7-1599\.md:\d+:cobalt note \d of module599[^|]*(?: \| )?){3}$/);
    assert.doesNotMatch(resumed[3], /amber note/, 'the old notes are gone');
  });

  it('a one-shot first build killed half way, its full-text entries still deferred, is completed by the next update', async () => {
    const queries = ['amber module17', 'amber module599', 'watcher', 'esbuild'];
    const backend = openEngine(paths).lexical as SqliteBackend;
    try {
      await killedHalfWay(backend, paths, { deferFullText: true });
      // Documents written, none findable yet: the entries were left for the end.
      assert.ok(allDocs(paths).length > NOTE_FILES / 4);
      assert.equal(backend.db.prepare("SELECT count(*) FROM fts WHERE fts MATCH 'amber'").values()[0][0], 0);
      assert.equal(backend.meta(DEFERRED_FULL_TEXT_KEY), '1');
    } finally {
      backend.close();
    }
    const resumed = await hitsOf(paths, queries);
    const check = openEngine(paths).lexical as SqliteBackend;
    try {
      assert.equal(check.meta(DEFERRED_FULL_TEXT_KEY), undefined);
      check.db.prepare("INSERT INTO fts(fts, rank) VALUES ('integrity-check', 1)").run();
    } finally {
      check.close();
    }
    fs.rmSync(paths.index, { recursive: true, force: true });
    assert.deepEqual(resumed, await hitsOf(paths, queries), 'as complete as a build from scratch');
    assert.match(resumed[1], /amber note/);
  });

  it('another connection writing during a deferred build makes the entries, and the build writes its own from then on', () => {
    const builder = openEngine(paths).lexical as SqliteBackend;
    const other = openEngine(paths).lexical as SqliteBackend;
    const doc = (rel: string, text: string) => ({ file: rel, category: 'facts' as const, text, context: '', hash: text });
    const state = (rel: string) => ({ rel, mtimeMs: 1, size: 1, hash: rel });
    const matches = (word: string) => builder.db.prepare('SELECT count(*) FROM fts WHERE fts MATCH ?').values(word)[0][0];
    try {
      assert.equal(
        builder.transaction(() => builder.deferFullText()),
        true,
      );
      builder.transaction(() => builder.replaceSource(state('a.md'), [doc('a.md', 'quartz before')]));
      assert.equal(matches('quartz'), 0);
      other.transaction(() => other.setSourceState(state('b.md')));
      assert.equal(matches('quartz'), 1, "the other connection's write made the entries first");
      builder.transaction(() => builder.replaceSource(state('c.md'), [doc('c.md', 'quartz after')]));
      builder.transaction(() => builder.replaceSource(state('a.md'), [doc('a.md', 'jasper instead')]));
      builder.transaction(() => builder.finishDeferredFullText());
      assert.equal(matches('quartz'), 1, 'the replaced text is gone from the entries, the new one is there');
      assert.equal(matches('jasper'), 1);
      builder.db.prepare("INSERT INTO fts(fts, rank) VALUES ('integrity-check', 1)").run();
    } finally {
      builder.close();
      other.close();
    }
  });

  it('builds the same index in a one-shot process (the CLI) as in a server', async () => {
    const queries = ['amber cache', 'module42', 'watcher', 'esbuild', 'warm'];
    const server = await hitsOf(paths, queries);
    const serverDocs = allDocs(paths);
    fs.rmSync(paths.index, { recursive: true, force: true });
    const oneShot = await hitsOf(paths, queries, { oneShot: true });
    assert.deepEqual(allDocs(paths), serverDocs);
    assert.deepEqual(oneShot, server);
    assert.ok(serverDocs.length > NOTE_FILES * 3);
  });
});

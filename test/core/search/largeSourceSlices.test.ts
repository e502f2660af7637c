import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { contentHash } from '../../../src/core/services/search/extractDocs';
import { syncIndex, syncIndexInSlices } from '../../../src/core/services/search/indexSync';
import type { LexicalBackend } from '../../../src/core/services/search/lexicalBackend';
import { indexDatabaseFile, openEngine } from '../../../src/core/services/search/openEngine';
import { SearchIndex } from '../../../src/core/services/search/searchIndex';
import { loadSqlite } from '../../../src/core/base/sqliteDriver';
import type { StorePaths } from '../../../src/core/store/storePaths';
import { ageStore, makeSearchStore } from './searchFixtures';

/** Notes in the large note file: ~350 KB, written over many slices of 1 ms. */
const NOTES = 3000;
const BIG = 'files/3-4.md';

/** Adds a note file far over the size from which a build writes a file over several slices. */
function addLargeNoteFile(paths: StorePaths): string {
  const notes = Array.from(
    { length: NOTES },
    (_, i) =>
      `- note ${i}: the ${i % 3 === 0 ? 'throttle' : 'buffer'} of handler ${i} flushes every ${i % 50} ms [from: c${i % 9}, 2026-11-2${i % 8}]`,
  );
  const file = path.join(paths.root, BIG);
  fs.writeFileSync(file, `---\npath: src/big.ts\n---\n# src/big.ts\n\n${notes.join('\n')}\n`);
  return file;
}

/** The index's FTS segments (one after a merge). */
function segments(file: string): number {
  const db = loadSqlite().driver!.open(file, { readonly: true });
  try {
    return db.prepare('SELECT count(DISTINCT segid) FROM fts_idx').values()[0][0] as number;
  } finally {
    db.close();
  }
}

/** What the index holds of the large file, by its state and its documents as a query finds them. */
function largeFileState(backend: LexicalBackend): { hash?: string; docs?: number } {
  const state = backend.sourceStates().get(BIG);
  return { hash: state?.hash, docs: state?.docs };
}

/** The hits of a few queries, as a user sees them (file, line, text, in order). */
async function answers(paths: StorePaths): Promise<string[]> {
  const index = SearchIndex.open(paths, { embedder: null });
  try {
    const out: string[] = [];
    for (const query of ['throttle handler', 'buffer flushes', 'note 2999', 'watcher', 'rotate keys']) {
      const response = await index.search(query, { limit: 50 });
      assert.equal(response.indexing, undefined);
      out.push(`${query}: ${response.hits.map((h) => `${h.file}:${h.line}:${h.text}`).join(' | ')} (${response.warnings.join('; ')})`);
    }
    return out;
  } finally {
    index.close();
  }
}

/**
 * A sliced build of the store that dies (throws out of its transaction runner) right after the
 * first transaction that left the large file half written; returns the file's state then.
 */
async function buildKilledHalfWay(paths: StorePaths): Promise<{ hash?: string; docs?: number }> {
  const backend = openEngine(paths).lexical;
  let interrupted: { hash?: string; docs?: number } = {};
  try {
    await assert.rejects(
      syncIndexInSlices(
        backend,
        paths,
        {},
        {
          sliceMs: 1,
          run: (slice) => {
            const result = slice(backend);
            const state = largeFileState(backend);
            if (state.docs && state.docs < NOTES) {
              interrupted = state;
              throw new Error('killed');
            }
            return result;
          },
        },
      ),
      /killed/,
    );
  } finally {
    backend.close();
  }
  return interrupted;
}

describe('index build: a large file over several transactions', function () {
  this.timeout(60_000);
  let paths: StorePaths;
  let big: string;

  before(function () {
    if (!loadSqlite().driver) this.skip();
  });
  beforeEach(() => {
    ({ paths } = makeSearchStore());
    big = addLargeNoteFile(paths);
    ageStore(paths);
  });

  it('writes it in several transactions, its state last, and ends as complete as one transaction would', async () => {
    const backend = openEngine(paths).lexical;
    const seen: Array<{ hash?: string; docs?: number }> = [];
    try {
      await syncIndexInSlices(
        backend,
        paths,
        {},
        {
          sliceMs: 1,
          run: (slice) => {
            const result = slice(backend);
            seen.push(largeFileState(backend));
            return result;
          },
        },
      );
    } finally {
      backend.close();
    }
    const partial = seen.filter((s) => s.docs !== undefined && s.docs > 0 && s.docs < NOTES);
    assert.ok(partial.length >= 2, `the large file was partly written after ${partial.length} transactions`);
    assert.ok(
      partial.every((s) => s.hash !== contentHash(fs.readFileSync(big))),
      'until its last documents are in, its state is not the one of its content (an interruption leaves it to redo)',
    );
    assert.deepEqual(seen.at(-1), { hash: contentHash(fs.readFileSync(big)), docs: NOTES });

    // The same store indexed in one transaction answers the same.
    const sliced = await answers(paths);
    fs.rmSync(paths.index, { recursive: true, force: true });
    const whole = openEngine(paths).lexical;
    try {
      syncIndex(whole, paths);
    } finally {
      whole.close();
    }
    assert.deepEqual(sliced, await answers(paths));
    assert.match(sliced[2], /files\/3-4\.md:\d+:note 2999:/);
  });

  it('a large file rewritten over many transactions leaves its segments merged, however the slices fell', async () => {
    const backend = openEngine(paths).lexical;
    const file = indexDatabaseFile(paths);
    try {
      await syncIndexInSlices(backend, paths, {}, { sliceMs: 1 });
      // An update of one file (no build): 6,000 new documents, past the backend's merge threshold, in batches of 250.
      const items = Array.from({ length: 6000 }, (_, i) => `- bulk item ${i} about topic${i % 97} [from: s${i % 13}, 2026-01-02]`);
      fs.writeFileSync(path.join(paths.root, 'facts.md'), `# Facts\n\n${items.join('\n')}\n`);
      let transactions = 0;
      await syncIndexInSlices(backend, paths, {}, { sliceMs: 0, run: (slice) => (transactions++, slice(backend)) });
      assert.ok(transactions >= 10, `written over ${transactions} transactions`);
    } finally {
      backend.close();
    }
    assert.equal(segments(file), 1, 'one merged segment, as one large transaction would leave');
  });

  it('an update interrupted after the first part of the file is completed by the next open, without duplicates', async () => {
    const interrupted = await buildKilledHalfWay(paths);
    assert.ok(interrupted.docs! > 0 && interrupted.docs! < NOTES, 'the file was interrupted half written');

    const index = SearchIndex.open(paths, { embedder: null });
    try {
      const response = await index.search('note 2999', { limit: 5 });
      assert.ok(response.update?.indexed.includes(BIG), 'the next update finds the file unfinished and writes it again');
      assert.equal(response.hits[0]?.text.startsWith('note 2999:'), true);
    } finally {
      index.close();
    }
    const reopened = openEngine(paths).lexical;
    try {
      assert.deepEqual(largeFileState(reopened), { hash: contentHash(fs.readFileSync(big)), docs: NOTES });
      // Every note once: the half written documents were replaced, not added to.
      const lines = reopened
        .getDocs(reopened.docRefs().map((d) => d.id))
        .filter((d) => d.file === BIG)
        .map((d) => d.line);
      assert.equal(lines.length, NOTES);
      assert.equal(new Set(lines).size, NOTES);
    } finally {
      reopened.close();
    }
  });

  it('an update interrupted half way through a file that was deleted since removes its documents', async () => {
    await buildKilledHalfWay(paths);
    fs.rmSync(big);
    const reopened = openEngine(paths).lexical;
    try {
      const report = syncIndex(reopened, paths);
      assert.deepEqual(report.removed, [BIG]);
      assert.equal(reopened.getDocs(reopened.docRefs().map((d) => d.id)).filter((d) => d.file === BIG).length, 0);
    } finally {
      reopened.close();
    }
  });

  it('the in-memory index writes it in parts too and ends complete', async () => {
    const backend = openEngine(paths, { backend: 'memory' }).lexical;
    let partial = 0;
    await syncIndexInSlices(
      backend,
      paths,
      {},
      {
        sliceMs: 1,
        run: (slice) => {
          const result = slice(backend);
          const docs = largeFileState(backend).docs ?? 0;
          if (docs > 0 && docs < NOTES) partial++;
          return result;
        },
      },
    );
    assert.ok(partial >= 2, `${partial} partial states`);
    assert.deepEqual(largeFileState(backend), { hash: contentHash(fs.readFileSync(big)), docs: NOTES });
    const lines = backend
      .getDocs(backend.docRefs().map((d) => d.id))
      .filter((d) => d.file === BIG)
      .map((d) => d.line);
    assert.equal(new Set(lines).size, NOTES);
  });
});

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createEmbedder, type EmbeddingProviderName } from '../../../src/core/services/search/embeddings';
import { SearchIndex } from '../../../src/core/services/search/searchIndex';
import type { StorePaths } from '../../../src/core/store/storePaths';
import { STUB_DIM, startEmbeddingStub, type EmbeddingStub } from '../../helpers/embeddingStubs';
import { ageStore, makeSearchStore } from './searchFixtures';

const CAR_FACT = '- the car is parked in the north garage [from: c7, 2026-11-22]\n';

describe('embeddings against loopback stubs (official SDKs)', function () {
  this.timeout(30_000);
  for (const kind of ['openai', 'gemini', 'ollama'] as EmbeddingProviderName[]) {
    it(`${kind}: embeds a batch and returns one float32 vector per text`, async () => {
      const stub = await startEmbeddingStub(kind);
      try {
        const embedder = createEmbedder({ provider: kind, baseUrl: stub.baseUrl, model: 'stub-embed', env: {} });
        const vectors = await embedder.embed(['first text', 'second text', 'third']);
        assert.equal(vectors.length, 3);
        assert.ok(vectors.every((v) => v instanceof Float32Array && v.length === STUB_DIM));
        assert.deepEqual(stub.texts, ['first text', 'second text', 'third']);
        assert.match(embedder.label, new RegExp(`^${kind} stub-embed @ http://127\\.0\\.0\\.1:\\d+`));
      } finally {
        await stub.close();
      }
    });
  }
});

function describeHybrid(backend: 'sqlite' | 'memory', kind: EmbeddingProviderName): void {
  describe(`hybrid search (${backend}, ${kind} embeddings)`, function () {
    this.timeout(30_000);
    let paths: StorePaths;
    let stub: EmbeddingStub;
    const opened: SearchIndex[] = [];
    const open = (options: Parameters<typeof SearchIndex.open>[1] = {}) => {
      const index = SearchIndex.open(paths, {
        backend: backend === 'memory' ? 'memory' : 'auto',
        embedder: createEmbedder({ provider: kind, baseUrl: stub.baseUrl, env: {} }),
        ...options,
      });
      opened.push(index);
      return index;
    };

    beforeEach(async () => {
      ({ paths } = makeSearchStore());
      fs.appendFileSync(path.join(paths.root, 'facts.md'), CAR_FACT);
      ageStore(paths);
      stub = await startEmbeddingStub(kind);
    });
    afterEach(async () => {
      for (const index of opened.splice(0)) index.close();
      await stub.close();
    });

    it('finds by meaning what no word matches, and says the search was hybrid', async () => {
      const r = await open().search('automobile');
      assert.equal(r.mode, 'hybrid');
      assert.match(r.modeReason, new RegExp(`hybrid 0\\.4 × BM25 \\+ 0\\.6 × cosine \\(${kind} `));
      assert.equal(r.hits[0]?.text, 'the car is parked in the north garage');
      assert.equal(r.hits[0].scores.bm25, undefined);
      assert.ok(r.hits[0].scores.vector! > 0.3, String(r.hits[0].scores.vector));
    });

    it('merges both scores for a hit found both ways', async () => {
      const r = await open().search('esbuild');
      const hit = r.hits.find((h) => h.text.includes('esbuild'))!;
      assert.ok(hit.scores.bm25! > 0 && hit.scores.vector! > 0);
      assert.ok(Math.abs(hit.score - (0.4 * hit.scores.bm25! + 0.6 * hit.scores.vector!)) < 1e-5);
    });

    it('never embeds an unchanged text twice, even in a new process', async () => {
      const index = open();
      const first = await index.update();
      const docs = first.docs;
      assert.equal(first.embedded, docs);
      assert.equal((await index.update()).embedded, 0);
      fs.appendFileSync(path.join(paths.root, 'facts.md'), '- okapis are shy [from: c8, 2026-11-23]\n');
      const changed = await index.update();
      assert.equal(changed.embedded, 1, 'only the new item; the others of facts.md keep their vectors');
      index.close();
      const before = stub.texts.length;
      const again = open();
      assert.equal((await again.update()).embedded, 0);
      assert.equal(stub.texts.length, before);
    });

    it('applies the filters to vector hits too', async () => {
      const r = await open().search('automobile', { categories: ['decisions'] });
      assert.ok(r.hits.every((h) => h.category === 'decisions'));
      const dated = await open().search('automobile', { until: '2026-11-01' });
      assert.ok(dated.hits.every((h) => h.date! <= '2026-11-01'));
    });

    it('takes configurable weights', async () => {
      const r = await open({ weights: { bm25: 1, vector: 0 } }).search('automobile');
      assert.equal(r.mode, 'hybrid');
      assert.ok(r.hits.every((h) => h.score === 0));
    });

    it('falls back to lexical search, saying why, when the provider fails', async () => {
      const index = open();
      await index.update();
      stub.failWith = 500;
      const r = await index.search('esbuild');
      assert.equal(r.mode, 'lexical');
      assert.match(r.modeReason, /embedding the query failed/);
      assert.ok(r.hits.some((h) => h.text.includes('esbuild')));
    });
  });
}

describeHybrid('sqlite', 'openai');
describeHybrid('sqlite', 'gemini');
describeHybrid('sqlite', 'ollama');
describeHybrid('memory', 'openai');

describe('search without embeddings', () => {
  it('is lexical and says so; a bad LORE_EMBED_PROVIDER is reported, not thrown', async () => {
    const { paths } = makeSearchStore();
    const plain = SearchIndex.open(paths, { env: {} });
    const r = await plain.search('esbuild');
    plain.close();
    assert.equal(r.mode, 'lexical');
    assert.match(r.modeReason, /no embedding provider configured/);
    const bad = SearchIndex.open(paths, { env: { LORE_EMBED_PROVIDER: 'telepathy' } });
    const b = await bad.search('esbuild');
    bad.close();
    assert.equal(b.mode, 'lexical');
    assert.match(b.modeReason, /LORE_EMBED_PROVIDER must be one of openai, gemini, ollama/);
  });
});

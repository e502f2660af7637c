import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { itemId } from '../../src/core/model/itemId';
import { RecallRequest, SearchBackendNotification, SearchRequest, StoreChangedNotification } from '../../src/shared/protocol';
import type { LspTestClient } from './lspClient';
import { eventually, makeWorkspace, type TestWorkspace } from './serverFixtures';
import type { ParamsOf } from '../../src/shared/declareMessage';

describe('language server: search and store events (LSP over stdio)', function () {
  let w: TestWorkspace;
  let client: LspTestClient;

  beforeEach(async () => {
    w = makeWorkspace();
    fs.writeFileSync(path.join(w.paths.root, 'facts.md'), '- The flux capacitor needs 1.21 gigawatts. [from: conv-1, 2026-11-20]\n');
    client = await w.start();
  });

  afterEach(async () => {
    await client.stop();
  });

  const search = (query: string) => client.connection.sendRequest(SearchRequest.type, { query, limit: 10 });

  it('answers lore/search from the index it holds and says which engine answers', async () => {
    const response = await search('capacitor gigawatts');
    assert.deepEqual(
      response.hits.map((h) => h.source),
      ['conv-1'],
    );
    assert.equal(response.hits[0].file, 'facts.md');
    const backend = await client.waitFor<ParamsOf<typeof SearchBackendNotification>>(SearchBackendNotification.method);
    assert.equal(backend.params.backend, response.backend);
    assert.ok(backend.params.reason.length > 0);
  });

  it('follows a hand edit through the forwarded file event (no refresh before queries) and tells the client', async () => {
    assert.equal((await search('hoverboard')).hits.length, 0);
    const since = Date.now();
    fs.appendFileSync(path.join(w.paths.root, 'facts.md'), '- A hoverboard does not work on water. [from: conv-2, 2026-11-21]\n');
    const changed = await client.waitFor<ParamsOf<typeof StoreChangedNotification>>(
      StoreChangedNotification.method,
      (p) => p.files.includes('facts.md'),
      5000,
      since,
    );
    assert.ok(!changed.params.files.some((f) => f.startsWith('.index')), `derived files are not news: ${changed.params.files.join(', ')}`);
    const hits = await eventually(
      async () => {
        const found = (await search('hoverboard')).hits;
        return found.length > 0 ? found : undefined;
      },
      5000,
      'the new fact in the index',
    );
    assert.equal(hits[0].source, 'conv-2');
  });

  it('answers lore/recall within the budget, with the notes of the files asked about first', async () => {
    w.write('src/engine.ts', 'export const engine = 1;\n');
    w.note('src/engine.ts', ['- The engine is tuned for 88 mph [from: conv-3, 2026-11-22]']);
    const result = await client.connection.sendRequest(RecallRequest.type, {
      query: 'flux capacitor',
      files: ['src/engine.ts'],
      tokenBudget: 500,
    });
    assert.match(result.text, /## Notes on src\/engine\.ts\n- \[notes \w+\] The engine is tuned for 88 mph/);
    assert.match(result.text, /flux capacitor/);
    assert.ok(result.tokens <= 500);
    // What recall handed out is logged as used, by item id (lifecycle/usageLog.ts); a search is not (search-as-you-type).
    const used = fs
      .readFileSync(path.join(w.paths.root, '.logs', 'usage.log'), 'utf8')
      .trim()
      .split(' ');
    assert.equal(used[1], 'recall');
    assert.deepEqual(
      used.slice(2).sort(),
      [
        itemId('- The engine is tuned for 88 mph [from: conv-3, 2026-11-22]'),
        itemId('- The flux capacitor needs 1.21 gigawatts. [from: conv-1, 2026-11-20]'),
      ].sort(),
    );
    // An oversized budget is bounded; garbage is refused (requestParams.test.ts), not fatal.
    const huge = await client.connection.sendRequest(RecallRequest.type, { query: 'flux', tokenBudget: 1e9 });
    assert.equal(huge.tokenBudget, 8000);
    await assert.rejects(
      client.connection.sendRequest(RecallRequest.type, { query: 42 as unknown as string, files: 'x' as unknown as string[] }),
      /lore\/recall: query: /,
    );
  });
});

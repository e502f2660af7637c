import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FileDecorationsRequest } from '../../src/shared/protocol';
import { makeTempDir } from '../helpers/paths';
import { generateLargeStore } from './largeStore';
import { LspTestClient } from './lspClient';

describe('language server: a 10,000-note store', function () {
  this.timeout(120_000);

  it('indexes it and still answers lenses, hovers and decorations for one file quickly', async () => {
    const ws = fs.realpathSync(makeTempDir('lore-server-scale-'));
    const store = generateLargeStore(ws, 10_000, 1);
    const started = Date.now();
    const client = await LspTestClient.start({ storeRoot: store.paths.root, workspaceRoot: ws });
    const readyMs = Date.now() - started;
    try {
      assert.ok(client.logs.some((l) => /indexed 10000 note files/.test(l)), client.logs.join('\n'));
      const file = path.join(ws, store.relative(4321));
      const uri = await client.open(file);
      const t0 = Date.now();
      const titles = await client.lensTitles(uri);
      const lensMs = Date.now() - t0;
      assert.equal(titles[0], 'Lore: 1 note');
      assert.match(titles[1], /^from conv-\d+, 2026-\d\d-\d\d$/);
      const hover = await client.hover(uri);
      assert.match((hover?.contents as { value: string }).value, /Module 4321 note 0/);
      const paths = Array.from({ length: 100 }, (_, i) => path.join(ws, store.relative(i * 97)));
      const { counts } = await client.connection.sendRequest(FileDecorationsRequest.type, { paths });
      assert.equal(Object.keys(counts).length, 100);
      assert.ok(lensMs < 1000, `lenses took ${lensMs} ms`);
      // Startup includes spawning node and reading 10,000 note files: generous, machine-dependent.
      assert.ok(readyMs < 30_000, `ready after ${readyMs} ms`);
    } finally {
      await client.stop();
      fs.rmSync(ws, { recursive: true, force: true });
    }
  });
});

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FileDecorationsRequest } from '../../src/shared/protocol';
import { makeTempDir } from '../helpers/paths';
import { generateLargeStore } from './largeStore';
import { LspTestClient } from './lspClient';

describe('language server: a 10,000-note store', function () {
  this.timeout(120_000);

  // How fast is measured by `npm run bench` (bench/serverBench.ts: startup, lens and hover p50/p99
  // against an fs.stat floor); wall-clock figures depend on the machine, so this test asserts
  // what the server does, not how long it takes.
  it('indexes it and answers lenses, hovers and decorations for one file', async () => {
    const ws = fs.realpathSync(makeTempDir('lore-server-scale-'));
    const store = generateLargeStore(ws, 10_000, 1);
    const client = await LspTestClient.start({ storeRoot: store.paths.root, workspaceRoot: ws });
    try {
      assert.ok(
        client.logs.some((l) => /indexed 10000 note files/.test(l)),
        client.logs.join('\n'),
      );
      const file = path.join(ws, store.relative(4321));
      const uri = await client.open(file);
      const titles = await client.lensTitles(uri);
      assert.equal(titles[0], 'Lore: 1 note');
      assert.match(titles[1], /^from conv-\d+, 2026-\d\d-\d\d$/);
      const hover = await client.hover(uri);
      assert.match((hover?.contents as { value: string }).value, /Module 4321 note 0/);
      const paths = Array.from({ length: 100 }, (_, i) => path.join(ws, store.relative(i * 97)));
      const { counts } = await client.connection.sendRequest(FileDecorationsRequest.type, { paths });
      assert.equal(Object.keys(counts).length, 100);
    } finally {
      await client.stop();
      fs.rmSync(ws, { recursive: true, force: true });
    }
  });
});

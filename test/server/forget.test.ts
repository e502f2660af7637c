import { itemId } from '../../src/core/model/itemId';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ForgetConversationRequest, PlanForgetRequest, SearchRequest } from '../../src/shared/protocol';
import type { LspTestClient } from './lspClient';
import { makeWorkspace, type TestWorkspace } from './serverFixtures';

describe("language server: forgetting a conversation (the Ledger view's Forget This Conversation…, LSP over stdio)", function () {
  let w: TestWorkspace;
  let client: LspTestClient;

  beforeEach(async () => {
    w = makeWorkspace();
    fs.writeFileSync(
      path.join(w.paths.root, 'facts.md'),
      '# Facts\n\n- The flux capacitor needs 1.21 gigawatts. [from: conv-1, 2026-11-20]\n- Plutonium comes from Libya. [from: conv-2, 2026-11-20]\n',
    );
    client = await w.start();
  });

  afterEach(async () => {
    await client.stop();
  });

  it('plans without writing, then forgets: the line leaves the file and the search index, the rest stays', async () => {
    const before = await client.connection.sendRequest(SearchRequest.type, { query: 'gigawatts' });
    assert.equal(before.hits.length, 1, 'the index was built and holds the line');
    const plan = await client.connection.sendRequest(PlanForgetRequest.type, { conversation: 'conv-1' });
    const line = '- The flux capacitor needs 1.21 gigawatts. [from: conv-1, 2026-11-20]';
    assert.deepEqual(plan.removed, [{ file: 'facts.md', id: itemId(line), line }]);
    assert.match(fs.readFileSync(path.join(w.paths.root, 'facts.md'), 'utf8'), /gigawatts/, 'planning writes nothing');
    const result = await client.connection.sendRequest(ForgetConversationRequest.type, { conversation: 'conv-1' });
    assert.equal(result.plan.removed.length, 1);
    const facts = fs.readFileSync(path.join(w.paths.root, 'facts.md'), 'utf8');
    assert.doesNotMatch(facts, /gigawatts/);
    assert.match(facts, /Plutonium/);
    const after = await client.connection.sendRequest(SearchRequest.type, { query: 'gigawatts' });
    assert.deepEqual(after.hits, []);
    for (const name of fs.readdirSync(w.paths.index)) {
      assert.ok(!fs.readFileSync(path.join(w.paths.index, name)).includes('gigawatts'), `${name} still holds the forgotten words`);
    }
    await assert.rejects(client.connection.sendRequest(PlanForgetRequest.type, { conversation: '' }), /lore\/planForget: conversation/);
  });
});

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PlanRememberRequest, RecallRequest, RememberRequest, StoreChangedNotification } from '../../src/shared/protocol';
import type { LspTestClient } from './lspClient';
import { eventually, makeWorkspace, type TestWorkspace } from './serverFixtures';
import type { ParamsOf } from '../../src/shared/declareMessage';

describe('language server: what agents record and search through the LM tools (LSP over stdio)', function () {
  let w: TestWorkspace;
  let client: LspTestClient;

  beforeEach(async () => {
    w = makeWorkspace();
    fs.writeFileSync(path.join(w.paths.root, 'facts.md'), '- The flux capacitor needs 1.21 gigawatts. [from: conv-1, 2026-11-20]\n');
    fs.writeFileSync(
      path.join(w.paths.root, 'decisions.md'),
      '- The capacitor stays in the trunk — weight balance [from: conv-1, 2026-11-20]\n',
    );
    client = await w.start();
  });

  afterEach(async () => {
    await client.stop();
  });

  it('lore/planRemember shows the line lore/remember then writes, and the new item is searchable', async () => {
    const params = {
      kind: 'decision' as const,
      text: 'Time circuits run on UTC',
      detail: 'no daylight saving jumps',
      source: 'vscode-agent',
    };
    const plan = await client.connection.sendRequest(PlanRememberRequest.type, params);
    assert.ok(plan.ok);
    assert.equal(plan.file, 'decisions.md');
    assert.match(plan.line, /^- Time circuits run on UTC — no daylight saving jumps \[from: vscode-agent, \d{4}-\d{2}-\d{2}\]$/);
    assert.equal(
      fs.readFileSync(path.join(w.paths.root, 'decisions.md'), 'utf8').includes('Time circuits'),
      false,
      'planning writes nothing',
    );
    const since = Date.now();
    const result = await client.connection.sendRequest(RememberRequest.type, params);
    assert.ok(result.ok && result.added);
    assert.equal(result.plan.line, plan.line);
    assert.ok(fs.readFileSync(path.join(w.paths.root, 'decisions.md'), 'utf8').split('\n').includes(plan.line));
    await client.waitFor<ParamsOf<typeof StoreChangedNotification>>(
      StoreChangedNotification.method,
      (p) => p.files.includes('decisions.md'),
      5000,
      since,
    );
    const found = await eventually(
      async () => {
        const r = await client.connection.sendRequest(RecallRequest.type, { query: 'time circuits UTC', tokenBudget: 500 });
        return r.text.includes('Time circuits') ? r : undefined;
      },
      5000,
      'the remembered decision in the index',
    );
    assert.match(found.text, /vscode-agent/);
  });

  it('lore/remember refuses what its schema does not allow, and lore/recall narrows to categories', async () => {
    await assert.rejects(
      client.connection.sendRequest(RememberRequest.type, { kind: 'order' as 'fact', text: 'x', source: 'vscode-agent' }),
      /lore\/remember: kind/,
    );
    await assert.rejects(
      client.connection.sendRequest(RememberRequest.type, { kind: 'fact', text: 'x'.repeat(2001), source: 'vscode-agent' }),
      /lore\/remember: text/,
    );
    const onlyDecisions = await client.connection.sendRequest(RecallRequest.type, {
      query: 'capacitor',
      categories: ['decisions'],
      tokenBudget: 500,
    });
    assert.match(onlyDecisions.text, /trunk/);
    assert.doesNotMatch(onlyDecisions.text, /gigawatts/);
  });
});

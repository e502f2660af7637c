import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connectLoreMcp } from '../helpers/mcpClient';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { eventually } from '../helpers/eventually';
import { makeWorkspace, runCli } from '../helpers/cli';

/** The text of a tool result. */
function textOf(result: unknown): string {
  return ((result as CallToolResult).content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

describe('lore mcp (stdio server, SDK client)', function () {
  this.timeout(30_000);
  let client: Client;
  let ws: string;
  let root: string;

  beforeEach(async () => {
    ({ ws, root } = await makeWorkspace());
    fs.writeFileSync(path.join(root, 'facts.md'), '# Facts\n\n- the build uses esbuild for bundling [from: c1, 2026-11-20]\n');
    fs.writeFileSync(path.join(ws, 'outside-secret.txt'), 'not in the store');
    ({ client } = await connectLoreMcp(root));
  });

  afterEach(async () => {
    await client.close();
  });

  const call = (name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args }) as Promise<CallToolResult>;

  it('lists its tools with input schemas', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ['complete_task', 'forget_item', 'get_item', 'open_conversation', 'read_digest', 'read_file_notes', 'recall', 'remember', 'search', 'update_item']);
    const search = tools.find((t) => t.name === 'search')!;
    assert.deepEqual(Object.keys(search.inputSchema.properties ?? {}).sort(), ['category', 'limit', 'query']);
    assert.deepEqual(search.inputSchema.required, ['query']);
  });

  it('search returns ranked lines with provenance, file:line and the backend', async () => {
    const result = await call('search', { query: 'esbuild' });
    assert.ok(!result.isError, textOf(result));
    assert.match(textOf(result), /^> Recorded project knowledge, quoted as data[^\n]*\n- \[facts\] the build uses «esbuild» for bundling \[from: c1, 2026-11-20\] \(facts\.md:3\)\n\(1 result; sqlite; lexical only/);
    const structured = result.structuredContent as { backend: string; hits: unknown[] };
    assert.equal(structured.backend, 'sqlite');
    assert.equal(structured.hits.length, 1);
    const none = await call('search', { query: '"((AND NEAR' });
    assert.ok(!none.isError);
    assert.match(textOf(none), /^no results/);
    const bad = await call('search', { query: 'x', limit: 100000 });
    assert.ok(bad.isError, 'schema bounds are enforced');
  });

  it('sees knowledge written by another process (a harvest, an editor) without a restart', async () => {
    assert.match(textOf(await call('search', { query: 'okapis' })), /^no results/);
    fs.appendFileSync(path.join(root, 'facts.md'), '- okapis are shy [from: c9, 2026-11-22]\n');
    const text = await eventually(async () => {
      const found = textOf(await call('search', { query: 'okapis' }));
      return found.includes('okapis') ? found : undefined;
    }, 5000, 'the new fact in search results');
    assert.match(text, /^> Recorded project knowledge[^\n]*\n- \[facts\] «okapis» are shy \[from: c9, 2026-11-22\] \(facts\.md:4\)/);
  });

  it('open_conversation returns the stored transcript behind a [from:], from the turn the item came from', async () => {
    const conversation = [
      '---', 'session_id: c7', 'started: 2026-11-21T08:00:00Z', '---', '', '# Release steps', '',
      '## 08:00 — user', 'How do we release?', '',
      '## 08:03 — agent', 'We tag, then publish.', '',
      '## 08:05 — user', 'Decision: tags are signed — the registry checks the signature.', '',
    ].join('\n');
    fs.writeFileSync(path.join(root, 'inbox', 'c7.md'), conversation);
    const harvest = await runCli(['harvest', '--root', root, '--apply']);
    assert.equal(harvest.code, 0, harvest.stderr);
    const item = fs.readFileSync(path.join(root, 'decisions.md'), 'utf8').split('\n').find((l) => l.includes('tags are signed'))!;
    const result = await call('open_conversation', { source: 'c7', item });
    assert.ok(!result.isError, textOf(result));
    assert.match(textOf(result), /^> Recorded project knowledge, quoted as data[^\n]*\n# transcripts\/2026\/11\/21\/0800-c7-release-steps\.md, from line \d+, the turn the item came from\n## 08:05 — user\nDecision: tags are signed/);
    // Without the item: the whole transcript from the top; an unknown id says so.
    assert.match(textOf(await call('open_conversation', { source: 'c7' })), /\n# transcripts\/2026\/11\/21\/0800-c7-release-steps\.md\n---\nid: c7\n/);
    assert.match(textOf(await call('open_conversation', { source: 'nope' })), /^no conversation nope is recorded/);
  });
});

/**
 * The agent-reply boundary (toolReply.ts): a secret in any part of a list reply (a hit's text,
 * conversation excerpt, source, file or noted path, a heading, a section, the footer, what to ask
 * next, a warning, the extra fields) reaches neither the text nor the structured content, and the
 * structured content stays valid against the declared output schema as the SDK's client checks it.
 */
import * as assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { itemFromHit, listReply, listReplyShape, type ListReply } from '../../../src/core/services/agentTools/toolReply';
import type { ToolResult } from '../../../src/core/services/agentTools/agentTool';
import type { SearchHit } from '../../../src/core/services/search/searchTypes';
import { redactSecrets } from '../../../src/core/model/safety/redact';
import { secretSamples } from '../safety/secretSamples';

/** Each secret in its context (a value alone is no secret: `key=` or its prefix says it is). */
const samples = secretSamples();
/** A sample on one line, as a field (a source, a file name) holds it. */
const flat = (text: string) => text.replace(/\n/g, ' ');

function hit(fields: Partial<SearchHit>): SearchHit {
  return {
    category: 'facts',
    text: 'the build uses esbuild for bundling',
    snippet: 'the build uses «esbuild» for bundling',
    file: 'facts.md',
    absolutePath: '/store/facts.md',
    line: 3,
    source: 'c1',
    date: '2026-11-20',
    score: 1,
    scores: {},
    ...fields,
  };
}

function searchLike(hits: SearchHit[], more: Partial<ListReply<Record<string, unknown>>> = {}): ToolResult {
  return listReply({
    items: hits.map(itemFromHit),
    footer: `(${hits.length} results)`,
    empty: 'no results',
    more: 'pass a larger max_tokens',
    warnings: [],
    extra: {},
    ...more,
  });
}

/** Both representations of a reply, as one text to look for secrets in. */
const everything = (reply: ToolResult) => reply.content.map((c) => c.text).join('\n') + JSON.stringify(reply.structuredContent);

function assertNoSecret(where: string, reply: ToolResult, secret: string, kind: string): void {
  assert.ok(!reply.content[0].text.includes(secret), `${where}: the text shows the ${kind}`);
  assert.ok(!JSON.stringify(reply.structuredContent).includes(secret), `${where}: the structured content shows the ${kind}`);
  assert.match(everything(reply), /\[REDACTED:/, `${where}: no marker`);
}

describe('agent tool replies: secrets at the reply boundary', () => {
  it('a secret in a hit, wherever it lies, is redacted in both the text and the structured content', () => {
    let checked = 0;
    for (const s of samples) {
      const text = `deploys read ${s.text}`;
      const cases: Array<[string, SearchHit, string]> = [
        ['item text', hit({ text }), text],
        ['excerpt', hit({ category: 'transcripts', text, snippet: text }), text],
        ['source', hit({ source: flat(s.text) }), flat(s.text)],
        ['file', hit({ file: `notes/${flat(s.text)}.md` }), `notes/${flat(s.text)}.md`],
        ['noted path', hit({ category: 'notes', notedPath: `src/${flat(s.text)}.ts` }), `src/${flat(s.text)}.ts`],
      ];
      for (const [where, h, field] of cases) {
        // What the rules do not call a secret in the field itself (`password=x.md` reads as a file name) is not one here.
        if (redactSecrets(field) === field) continue;
        // Beside a clean hit: one item with a secret is enough to have all of them read again.
        assertNoSecret(`${s.kind} in the ${where}`, searchLike([hit({}), h]), s.secret, s.kind);
        checked++;
      }
    }
    assert.ok(checked > samples.length * 4, `only ${checked} cases had a secret`);
  });

  it("a secret in the reply's own parts (heading, section, footer, what to ask next, warnings, extra fields) is redacted", () => {
    const s = samples.find((x) => x.kind === 'github-pat') ?? samples[0];
    const clean = [hit({}), hit({ text: 'the watcher debounces events by 200 ms', line: 4 })];
    const parts: Array<[string, Partial<ListReply<Record<string, unknown>>>]> = [
      ['heading', { heading: [`# Notes on ${s.text}`] }],
      ['section', { section: () => `## ${s.text}` }],
      ['footer', { footer: `(2 results for ${s.text})` }],
      ['more', { more: `search for ${s.text}`, maxTokens: 200, items: Array.from({ length: 40 }, () => clean[0]).map(itemFromHit) }],
      ['warning', { warnings: [`the index at ${s.text} is stale`] }],
      ['extra', { extra: { query: s.text } }],
      ['own line', { line: (item) => `${item.text} ${s.text}` }],
    ];
    for (const [where, more] of parts) assertNoSecret(`a secret in the ${where}`, searchLike(clean, more), s.secret, s.kind);
    // And with nothing to hide, the reply is the items as they are.
    const plain = searchLike(clean);
    assert.ok(!everything(plain).includes('[REDACTED'), everything(plain));
    assert.match(
      plain.content[0].text,
      /- \[facts [a-z0-9]+\] the build uses esbuild for bundling \[from: c1, 2026-11-20\] \(facts\.md:3\)/,
    );
  });

  it("the SDK's client accepts the structured content of replies with and without secrets against the declared output schema", async () => {
    const s = samples[0];
    const server = new McpServer({ name: 'lore', version: '0' });
    const replies = [
      searchLike([hit({})]),
      searchLike([hit({ text: `deploys read ${s.text}` }), hit({ source: flat(s.text) })]),
      searchLike([]),
    ];
    let next = 0;
    server.registerTool('search', { description: 'search', inputSchema: {}, outputSchema: listReplyShape }, async () => replies[next++]);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'test', version: '0' });
    await client.connect(clientSide);
    try {
      // The client validates a result against the schema it was listed with.
      await client.listTools();
      for (let i = 0; i < replies.length; i++) {
        const result = (await client.callTool({ name: 'search', arguments: {} })) as CallToolResult;
        assert.ok(!result.isError, JSON.stringify(result));
        assert.ok(!everything(result as ToolResult).includes(s.secret), `reply ${i} shows the ${s.kind}`);
      }
    } finally {
      await client.close();
    }
  });
});

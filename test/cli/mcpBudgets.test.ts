import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { itemId } from '../../src/core/model/itemId';
import { makeWorkspace } from '../helpers/cli';
import { connectLoreMcp } from '../helpers/mcpClient';

/** The text of a tool result. */
function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

interface ListReply {
  items: Array<{ id?: string; text: string; category: string }>;
  omitted: number;
  more?: string;
  warnings: string[];
  total?: number;
}

const NOTES = 20_000;
const FACTS = 600;
/** Bytes of a reply of `tokens` tokens (4 bytes a token, as Lore estimates everywhere). */
const bytesOf = (tokens: number) => tokens * 4;

describe('lore mcp: replies within a token budget (many notes on one file, many hits)', function () {
  this.timeout(120_000);
  let client: Client;
  let root: string;
  let noteLines: string[];

  before(async () => {
    let ws: string;
    ({ ws, root } = await makeWorkspace());
    const facts = Array.from(
      { length: FACTS },
      (_, i) =>
        `- widget rule ${i}: the widget cache keeps entry ${i} for ${i % 60} minutes [from: c${i % 7}, 2026-11-${String((i % 27) + 1).padStart(2, '0')}]`,
    );
    fs.writeFileSync(path.join(root, 'facts.md'), `# Facts\n\n${facts.join('\n')}\n`);
    // The warnings asserted below are those of a complete index: searches wait for the build
    // (which yields to the requests of the tests before them, so it may outlast the default second).
    ({ client } = await connectLoreMcp(root, { env: { LORE_AGENT_WRITES: 'direct', LORE_MCP_INDEX_WAIT_MS: '600000' } }));
    // One note through the server makes the note file; the rest are appended as a long history would.
    const first = (await client.callTool({
      name: 'remember',
      arguments: { kind: 'note', path: 'src/app.ts', statement: 'note 0 on the widget' },
    })) as CallToolResult;
    assert.ok(!first.isError, textOf(first));
    const noteFile = path.join(root, 'files', fs.readdirSync(path.join(root, 'files'))[0]);
    noteLines = Array.from(
      { length: NOTES - 1 },
      (_, i) => `- note ${i + 1} on the widget: the handler at line ${i + 1} retries twice [from: c${i % 5}, 2026-11-20]`,
    );
    fs.appendFileSync(noteFile, noteLines.join('\n') + '\n');
    assert.ok(fs.statSync(noteFile).size > 1_500_000, 'a note file of megabytes');
    assert.ok(ws);
  });

  after(async () => {
    await client.close();
  });

  const call = async (name: string, args: Record<string, unknown>) => {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    assert.ok(!result.isError, textOf(result));
    return { result, text: textOf(result), structured: result.structuredContent as unknown as ListReply };
  };

  /** Both what a client shows the model (text, or the structured content) stay within `tokens`. */
  function assertWithin(result: CallToolResult, tokens: number): void {
    assert.ok(
      Buffer.byteLength(textOf(result)) <= bytesOf(tokens),
      `text of ${Buffer.byteLength(textOf(result))} bytes, over ${tokens} tokens`,
    );
    const json = JSON.stringify(result.structuredContent);
    assert.ok(Buffer.byteLength(json) <= bytesOf(tokens), `structured content of ${Buffer.byteLength(json)} bytes, over ${tokens} tokens`);
  }

  it('search with a path shows a page of the newest notes, counts the rest and says how to read on', async () => {
    await client.listTools(); // the SDK client validates structured content against the output schemas it listed
    const { result, text, structured } = await call('search', { path: 'src/app.ts' });
    assertWithin(result, 2000);
    assert.ok(
      text.endsWith(`(${NOTES} notes, newest first)\n(${structured.omitted} more not shown: ${structured.more})`),
      text.slice(-200),
    );
    assert.ok(structured.items.length >= 10, `${structured.items.length} notes shown`);
    assert.equal(structured.items.length + structured.omitted, NOTES);
    // Newest first, each with the id of its line.
    const newest = noteLines[noteLines.length - 1];
    assert.equal(structured.items[0].id, itemId(newest));
    assert.match(
      structured.more!,
      new RegExp(`^search again with this path and offset ${structured.items.length}, a query, or a larger max_tokens$`),
    );
    assert.ok(text.includes(`(${structured.omitted} more not shown: ${structured.more})`), text.slice(-300));
    // The text and the structured content name the same items.
    const textIds = [...text.matchAll(/^- \[notes ([0-9a-z]{8})\]/gm)].map((m) => m[1]);
    assert.deepEqual(
      textIds,
      structured.items.map((i) => i.id),
    );

    const next = await call('search', { path: 'src/app.ts', offset: structured.items.length });
    const nextIds = next.structured.items.map((i) => i.id!);
    assert.equal(nextIds[0], itemId(noteLines[noteLines.length - 1 - structured.items.length]));
    assert.ok(!nextIds.some((id) => textIds.includes(id)), 'the next page starts where the first ended');

    const filtered = await call('search', { path: 'src/app.ts', query: 'line 19998 retries' });
    assert.deepEqual(
      filtered.structured.items.map((i) => i.id),
      [itemId(noteLines[19997])],
    );
    assert.match(filtered.text, /\(1 note matching, newest first\)$/);
  });

  it('max_tokens raises the budget up to its ceiling, and no further', async () => {
    const big = await call('search', { path: 'src/app.ts', max_tokens: 20_000 });
    assertWithin(big.result, 20_000);
    assert.ok(big.structured.items.length > 150, `${big.structured.items.length} notes in 20,000 tokens`);
    const over = (await client.callTool({
      name: 'search',
      arguments: { path: 'src/app.ts', max_tokens: 50_000 },
    })) as CallToolResult;
    assert.ok(over.isError, 'max_tokens above the ceiling is refused by the schema');
  });

  it('search with limit 100 stays within the budget and says what it left out', async () => {
    const { result, text, structured } = await call('search', { query: 'widget cache', limit: 100 });
    assertWithin(result, 2000);
    assert.ok(structured.items.length > 5 && structured.omitted > 0, `${structured.items.length} shown, ${structured.omitted} left out`);
    assert.equal(structured.items.length + structured.omitted, 100);
    assert.match(text, new RegExp(`\\(${structured.omitted} more not shown: pass a larger max_tokens, a category, or more words\\)`));
    assert.ok(
      structured.items.every((i) => /^[0-9a-z]{8}$/.test(i.id!)),
      'every item names its id',
    );
    // 600 items have both words: the ranking window of such a broad query reaches the agent, in both representations.
    // The window is the limit plus up to 20 more, room for superseded items the search leaves out.
    assert.deepEqual(structured.warnings, ['over 120 matches: ranked among the 120 most recently indexed; add words to narrow it']);
    assert.ok(
      text.endsWith('\nwarning: over 120 matches: ranked among the 120 most recently indexed; add words to narrow it'),
      text.slice(-200),
    );
  });

  it('search for words, and the digest, stay within their budgets too', async () => {
    const recalled = await call('search', { query: 'widget handler retries', limit: 100 });
    assertWithin(recalled.result, 2000);
    assert.ok(recalled.structured.omitted > 0);
    const digest = await call('search', { max_tokens: 300 });
    assertWithin(digest.result, 300);
    assert.ok(digest.structured.items.length > 0 && digest.structured.omitted > 0, JSON.stringify(digest.structured).slice(0, 300));
  });
});

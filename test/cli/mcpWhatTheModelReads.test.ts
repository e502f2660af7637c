import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { itemId } from '../../src/core/model/itemId';
import { KNOWLEDGE_FRAMING } from '../../src/core/model/safety/dataFraming';
import { makeWorkspace } from '../helpers/cli';
import { connectLoreMcp } from '../helpers/mcpClient';

/** A decision whose matching words sit far into it: a snippet window around them would lose its verb. */
const DECISION =
  '- We decided to keep writing orders through the order service in one transaction, because the checkout flow retries a payment ' +
  'call up to three times, the ledger behind it has had no way to tell a retry from a new payment for years, and a second row ' +
  'per retry is what the duplicate refunds came from: idempotency keys orders [from: c2, 2026-11-20]';
const NOTE = 'orders are written once per checkout, keyed by the idempotency key';

function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

interface Item {
  id?: string;
  category: string;
  text: string;
  path?: string;
}

/**
 * Claude Code and Codex hand the model a reply's structured content, other clients its text: both
 * must carry the framing, whole words from an item's start, plain paths and the ids a follow-up
 * call takes.
 */
describe('lore mcp: what the model reads is what Lore meant, in the text and the structured content', function () {
  this.timeout(30_000);
  let client: Client;

  before(async () => {
    const { ws, root } = await makeWorkspace();
    fs.mkdirSync(path.join(ws, 'src'), { recursive: true });
    fs.writeFileSync(path.join(ws, 'src', 'orders.ts'), 'export const orders = [];\n');
    fs.writeFileSync(path.join(root, 'decisions.md'), `# Decisions\n\n${DECISION}\n`);
    fs.writeFileSync(path.join(root, 'config.json'), '{"agentWrites": "direct"}\n');
    ({ client } = await connectLoreMcp(root, { env: { LORE_AGENT_WRITES: 'direct' } }));
    const noted = (await client.callTool({
      name: 'remember',
      arguments: { kind: 'note', path: 'src/orders.ts', statement: NOTE },
    })) as CallToolResult;
    assert.ok(!noted.isError, textOf(noted));
  });
  after(async () => {
    await client.close();
  });

  it('a search: the framing, items from their first word, plain paths, no highlight marks, and the same ids in both', async () => {
    const result = (await client.callTool({ name: 'search', arguments: { query: 'orders idempotency' } })) as CallToolResult;
    const text = textOf(result);
    const structured = result.structuredContent as { framing: string; items: Item[] };
    assert.ok(text.startsWith(`${KNOWLEDGE_FRAMING}\n`), text);
    assert.equal(structured.framing, KNOWLEDGE_FRAMING);
    for (const mark of ['«', '»']) assert.ok(!text.includes(mark) && !JSON.stringify(structured).includes(mark), text);

    const decision = structured.items.find((i) => i.category === 'decisions');
    assert.ok(decision, text);
    assert.match(decision.text, /^We decided to keep writing orders/, 'the decision keeps its verb');
    assert.equal(decision.id, itemId(DECISION));
    const shown = decision.text.replace(/…$/, '');
    assert.ok(DECISION.slice(2).startsWith(shown) && DECISION[2 + shown.length] === ' ', `cut after a whole word: ${decision.text}`);

    const note = structured.items.find((i) => i.category === 'notes');
    assert.ok(note, text);
    assert.equal(note.path, 'src/orders.ts');
    assert.match(text, new RegExp(`\\[notes ${note.id}\\] \\(src/orders\\.ts\\) ${NOTE}`));

    const textIds = [...text.matchAll(/^- \[\w+ ([0-9a-z]{8})/gm)].map((m) => m[1]);
    assert.deepEqual(
      textIds,
      structured.items.map((i) => i.id),
    );
  });

  it('an item by id: its whole text, framed, in both', async () => {
    const result = (await client.callTool({ name: 'search', arguments: { ids: [itemId(DECISION)] } })) as CallToolResult;
    const structured = result.structuredContent as { framing: string; items: Item[] };
    assert.equal(structured.framing, KNOWLEDGE_FRAMING);
    assert.equal(structured.items[0].text, DECISION.slice(2, DECISION.indexOf(' [from:')));
    assert.ok(textOf(result).includes(structured.items[0].text));
  });
});

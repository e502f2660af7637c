import * as assert from 'node:assert/strict';
import { getEncoding } from 'js-tiktoken';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerAgentTools } from '../../src/mcp/agentToolsMcp';
import { StoreSession } from '../../src/mcp/storeSession';
import { makeTempDir } from '../helpers/paths';

/** The most Lore's tools/list may cost an agent, in tokens: clients such as Codex and Gemini CLI send it with every request. */
const TOOL_LIST_TOKENS = 3000;

/** The tools/list result's JSON, as a fresh server sends it. */
async function toolListJson(): Promise<string> {
  const server = new McpServer({ name: 'lore', version: '0' });
  const session = new StoreSession({ cwd: makeTempDir(), root: makeTempDir() }, server.server);
  const served = registerAgentTools(server, session, { now: () => new Date(0) });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '0' });
  await client.connect(clientSide);
  try {
    return JSON.stringify(await client.listTools());
  } finally {
    served.close();
    session.close();
    await client.close();
  }
}

describe('MCP: what the tool list costs an agent', () => {
  it('costs at most 3,000 tokens with its input and output schemas, in both OpenAI tokenizers', async () => {
    const json = await toolListJson();
    for (const encoding of ['o200k_base', 'cl100k_base'] as const) {
      const tokens = getEncoding(encoding).encode(json).length;
      assert.ok(tokens <= TOOL_LIST_TOKENS, `tools/list is ${tokens} ${encoding} tokens`);
    }
  });

  it('is the same bytes, in the same order, from two server starts (clients cache it)', async () => {
    const first = await toolListJson();
    const second = await toolListJson();
    assert.equal(second, first);
    assert.deepEqual(
      (JSON.parse(first) as { tools: Array<{ name: string }> }).tools.map((t) => t.name),
      ['search', 'open_conversation', 'remember', 'change_item', 'tasks'],
    );
  });
});

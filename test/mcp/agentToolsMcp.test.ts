import * as assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { AgentToolHost } from '../../src/core/services/agentTools/agentTool';
import { agentTools } from '../../src/core/services/agentTools/agentTools';
import { registerAgentTools } from '../../src/mcp/agentToolsMcp';
import { StoreSession } from '../../src/mcp/storeSession';
import { makeTempDir } from '../helpers/paths';

describe('MCP: the agent tools as MCP tools', () => {
  it('lists every agent tool in its defined order, with its title, description and hints', async () => {
    const server = new McpServer({ name: 'lore', version: '0' });
    // A folder without a store: listing needs none, and nothing is created.
    const session = new StoreSession({ cwd: makeTempDir(), root: makeTempDir() }, server.server);
    const served = registerAgentTools(server, session, { now: () => new Date(0) });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'test', version: '0' });
    await client.connect(clientSide);
    const host: AgentToolHost = {
      now: () => new Date(0),
      clientName: () => undefined,
      openIndex: () => assert.fail('not called'),
      reindex: async () => undefined,
    };
    const defined = agentTools(host);
    try {
      const { tools } = await client.listTools();
      assert.deepEqual(
        tools.map((t) => [t.name, t.title, t.description, t.annotations]),
        defined.tools.map((t) => [t.name, t.title, t.description, t.annotations]),
      );
      for (const tool of tools) {
        const declared = defined.tools.find((t) => t.name === tool.name)!;
        assert.deepEqual(Object.keys(tool.inputSchema.properties ?? {}), Object.keys(declared.inputSchema), `${tool.name}'s inputs`);
        assert.deepEqual(
          Object.keys(tool.outputSchema?.properties ?? {}).sort(),
          Object.keys(declared.outputSchema ?? {}).sort(),
          `${tool.name}'s outputs`,
        );
      }
      assert.deepEqual(
        tools.map((t) => t.name),
        ['search', 'open_conversation', 'remember', 'change_item', 'tasks'],
      );
    } finally {
      defined.close();
      served.close();
      session.close();
      await client.close();
    }
  });
});

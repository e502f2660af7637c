import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerAgentTools } from '../../src/mcp/agentToolsMcp';
import { StoreSession } from '../../src/mcp/storeSession';
import { makeTempDir } from '../helpers/paths';

/**
 * Lore's agent tools registered on a fresh MCP server over an in-memory transport, in a folder
 * without a store (listing needs none, and nothing is created), with a client connected to it.
 */
export async function connectAgentToolsInMemory(): Promise<{ client: Client; close: () => Promise<void> }> {
  const server = new McpServer({ name: 'lore', version: '0' });
  const session = new StoreSession({ cwd: makeTempDir(), root: makeTempDir() }, server.server);
  const served = registerAgentTools(server, session, { now: () => new Date(0) });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '0' });
  await client.connect(clientSide);
  return {
    client,
    close: async () => {
      served.close();
      session.close();
      await client.close();
    },
  };
}

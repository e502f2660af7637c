import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI } from './paths';

/**
 * The real MCP SDK client connected to `lore mcp --root ROOT` (dist/cli.js) over stdio, with
 * embeddings and the search backend left at their defaults (`env` adds variables). `stderr`
 * collects the server's log.
 */
export async function connectLoreMcp(root: string, env: Record<string, string> = {}): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', '--root', root],
    env: { ...(process.env as Record<string, string>), LORE_EMBED_PROVIDER: '', LORE_SEARCH_BACKEND: '', ...env },
    stderr: 'pipe',
  });
  let log = '';
  transport.stderr?.on('data', (d) => (log += d));
  const client = new Client({ name: 'lore-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => log };
}

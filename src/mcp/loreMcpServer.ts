/**
 * Lore as an MCP server (stdio): agents such as Claude Code, Codex and Cursor read the project's
 * knowledge through the read tools, resources (resources.ts) and prompts (prompts.ts), and keep
 * it correct through the memory and task tools (all tools: core/services/agentTools). Every tool input
 * is untrusted: sizes are bounded by the schemas, text is redacted and neutralized before it is
 * written, note paths must resolve inside the workspace, and writes take the store lock and are
 * atomic. Replies that hand out knowledge open with the data framing and leave out items held
 * for review. The store is found on first use (storeDiscovery.ts) and never created by the server.
 */
import { Console } from 'node:console';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { SearchIndexOptions } from '../core/services/search/searchIndex';
import { LORE_INSTRUCTIONS } from './instructions';
import { registerAgentTools } from './agentToolsMcp';
import { registerPrompts } from './prompts';
import { serveLoopbackHttp } from './loopbackHttp';
import { ProtocolEraTransport, registerDiscover } from './protocolEras';
import { registerResources, workspacePathCompleter } from './resources';
import { registerSkills } from './skills';
import { registerChangeNotifications } from './storeChanges';
import type { StoreRequest } from './storeDiscovery';
import { StoreSession } from './storeSession';
import { LoreStdioTransport } from './stdioTransport';

export interface LoreMcpOptions {
  indexOptions?: SearchIndexOptions;
  /** The clock for provenance dates (tests pin it). */
  now?: () => Date;
  /** Diagnostics (stderr in the CLI: stdout is the protocol). */
  log?: (message: string) => void;
  /**
   * How long search and recall wait for the index to be built or refreshed before they answer
   * from the part indexed so far, saying so (default: storeSession's MCP_INDEX_WAIT_MS).
   */
  indexWaitMs?: number;
}

const SERVER_INFO = { name: 'lore', version: '0.1.0' };

/** Builds the server with its tools, resources and prompts; `close` releases the search index. */
function createLoreMcpServer(
  request: StoreRequest,
  options: LoreMcpOptions = {},
): { server: McpServer; session: StoreSession; close(): void } {
  const server = new McpServer(SERVER_INFO, { instructions: LORE_INSTRUCTIONS });
  const now = options.now ?? (() => new Date());
  const session = new StoreSession(request, server.server, {
    indexOptions: options.indexOptions,
    log: options.log,
    indexWaitMs: options.indexWaitMs,
  });
  const tools = registerAgentTools(server, session, { now });
  registerResources(server, session);
  registerPrompts(server, session, workspacePathCompleter(session));
  registerSkills(server, session);
  registerChangeNotifications(server, session);
  registerDiscover(server.server, SERVER_INFO, LORE_INSTRUCTIONS);

  return {
    server,
    session,
    close: () => {
      tools.close();
      session.close();
    },
  };
}

/** Serves the store `request` leads to over stdio until the client disconnects. */
export async function serveLoreMcp(request: StoreRequest, options: LoreMcpOptions = {}): Promise<void> {
  // Stdout is the protocol: a library that console.logs (the ollama SDK does on an HTTP error)
  // would break the client's stream, so console output goes to stderr while serving.
  globalThis.console = new Console({ stdout: process.stderr, stderr: process.stderr });
  const { server, close } = createLoreMcpServer(request, options);
  // Lore's transport answers oversized and invalid lines, and closes when stdin ends; the era
  // wrapper serves revision 2026-07-28 beside the ones the SDK knows.
  const transport = new ProtocolEraTransport(new LoreStdioTransport(process.stdin, process.stdout, { log: options.log }));
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  await server.connect(transport);
  options.log?.(`lore mcp: serving on stdio from ${request.cwd}`);
  await closed;
  close();
  await server.close().catch(() => undefined);
}

/**
 * Serves the store `request` leads to over Streamable HTTP on 127.0.0.1:`port` (0: any free port)
 * until the process ends; says the address on the log once listening.
 */
export async function serveLoreMcpHttp(request: StoreRequest, port: number, options: LoreMcpOptions = {}): Promise<void> {
  globalThis.console = new Console({ stdout: process.stderr, stderr: process.stderr });
  const served = await serveLoopbackHttp(
    () => {
      const { server, session, close } = createLoreMcpServer(request, options);
      return {
        store: session,
        connect: (transport) => server.connect(transport),
        close: async () => {
          close();
          await server.close().catch(() => undefined);
        },
      };
    },
    { port, log: options.log },
  );
  options.log?.(`lore mcp: serving on http://127.0.0.1:${served.port}/mcp from ${request.cwd}`);
  await served.closed;
}

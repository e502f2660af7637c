/**
 * Lore as an MCP server (stdio): agents such as Claude Code, Codex and Cursor read the project's
 * knowledge through the read tools (readTools.ts), resources (resources.ts) and prompts
 * (prompts.ts), and record facts and notes. Every tool input is untrusted: sizes are bounded by
 * the schemas, text is redacted and neutralized before it is written, note paths must resolve
 * inside the workspace, and writes take the store lock and are atomic. Replies that hand out
 * knowledge open with the data framing and leave out items held for review. The store is found
 * on first use (storeDiscovery.ts) and never created by the server.
 */
import { Console } from 'node:console';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as path from 'node:path';
import { z } from 'zod';
import { sanitizeConversationId } from '../core/conversations/conversationId';
import { redactSecrets } from '../core/safety/redact';
import type { SearchIndexOptions } from '../core/search/searchIndex';
import { storeRelative } from '../core/store/storePaths';
import { LORE_INSTRUCTIONS } from './instructions';
import { addFact, addNote } from './mcpWrites';
import { registerPrompts } from './prompts';
import { ProtocolEraTransport, registerDiscover } from './protocolEras';
import { registerReadTools } from './readTools';
import { registerResources, workspacePathCompleter } from './resources';
import type { StoreRequest } from './storeDiscovery';
import { StoreSession } from './storeSession';
import { LoreStdioTransport } from './stdioTransport';
import { withStore } from './toolContext';

export interface LoreMcpOptions {
  indexOptions?: SearchIndexOptions;
  /** The clock for provenance dates (tests pin it). */
  now?: () => Date;
  /** Diagnostics (stderr in the CLI: stdout is the protocol). */
  log?: (message: string) => void;
}

const SERVER_INFO = { name: 'lore', version: '0.1.0' };

/** Provenance source of what an MCP client writes without naming a source. */
const MCP_SOURCE = 'mcp';

/** A text tool result, redacted: the agent-reply boundary of the write tools below. */
const text = (value: string, isError = false): CallToolResult => ({ content: [{ type: 'text', text: redactSecrets(value) }], ...(isError ? { isError } : {}) });

/** The reply to a write held for review: not an error, but nothing was recorded yet. */
function heldReply(kinds: readonly string[], line: string): string {
  return `held for review, not recorded yet: it reads as an instruction to an agent (${kinds.join(', ')}). A person must accept it (lore review, or the Review view in VS Code) before it reaches the knowledge agents get. Held: ${line}`;
}

/** Builds the server with its tools, resources and prompts; `close` releases the search index. */
function createLoreMcpServer(request: StoreRequest, options: LoreMcpOptions = {}): { server: McpServer; close(): void } {
  const server = new McpServer(SERVER_INFO, { instructions: LORE_INSTRUCTIONS });
  const now = options.now ?? (() => new Date());
  const session = new StoreSession(request, server.server, { indexOptions: options.indexOptions, log: options.log });
  registerReadTools(server, session);
  registerResources(server, session);
  registerPrompts(server, session, workspacePathCompleter(session));
  registerDiscover(server.server, SERVER_INFO, LORE_INSTRUCTIONS);

  // ---- Write tools (add_fact, add_note): replaced by the memory tools of issue 14 part 4. ----
  server.registerTool(
    'add_fact',
    {
      description: 'Record a durable fact about the project in facts.md, with provenance [from: source, today].',
      inputSchema: {
        statement: z.string().min(1).max(2000).describe('One self-contained statement'),
        source: z.string().max(120).optional().describe('Where it comes from (conversation id); default "mcp"'),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ statement, source }) =>
      withStore(session, async (paths) => {
        const from = source && source.trim() ? sanitizeConversationId(source) : MCP_SOURCE;
        const result = await addFact(paths, statement, from, now());
        if (result.held) return text(heldReply(result.held.kinds, result.line));
        await session.reindex([path.join(paths.root, 'facts.md')]);
        return text(result.added ? `added to facts.md: ${result.line}` : `already recorded: ${result.line}`);
      }),
  );

  server.registerTool(
    'add_note',
    {
      description: 'Attach a note to a file of the workspace (workspace-relative path); refused for paths outside the workspace.',
      inputSchema: { path: z.string().min(1).max(4096), note: z.string().min(1).max(2000) },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ path: file, note }) =>
      withStore(session, async (paths) => {
        const result = await addNote(paths, file, note, MCP_SOURCE, now());
        if (!result.ok) return text(`refused: cannot attach a note to ${file}: ${result.reason} (workspace: ${paths.workspace})`, true);
        if (result.held) return text(heldReply(result.held.kinds, result.line));
        await session.reindex([result.noteFile]);
        return text(`noted ${result.relative} in ${storeRelative(paths, result.noteFile)}: ${result.line}`);
      }),
  );
  // ---- End of the write tools. ----

  return { server, close: () => session.close() };
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

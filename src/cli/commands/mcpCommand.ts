/** `lore mcp`: serves the store to agents over the Model Context Protocol (stdio). */
import { COMMON_OPTIONS, EXIT_OK, printable, parseCommand, type Output } from '../cliSupport';

export const MCP_HELP = `lore mcp [--root DIR]                   serve the store to agents over MCP (stdio)
Tools: search, recall, read_digest, read_file_notes, open_conversation, remember, update_item, complete_task,
forget_item, get_item (agents' writes wait for "lore review" unless config.json says "agentWrites": "direct"). Setup for Claude Code,
Codex and Cursor: docs/mcp.md. Stdout carries the protocol; diagnostics go to stderr.`;

export async function mcpCommand(argv: string[], io: Output): Promise<number> {
  const parsed = parseCommand(argv, COMMON_OPTIONS, MCP_HELP, io, { positionals: false });
  if (!parsed) return EXIT_OK;
  const { paths } = parsed;
  // Loaded on demand: the MCP SDK and zod are a large share of the CLI's start-up otherwise.
  const { serveLoreMcp } = await import('../../mcp/loreMcpServer.js');
  // Diagnostics quote what clients sent: escaped, so a hostile line cannot drive the terminal.
  await serveLoreMcp(paths, { log: (message) => io.err(printable(message, { keepLineBreaks: true })) });
  return EXIT_OK;
}

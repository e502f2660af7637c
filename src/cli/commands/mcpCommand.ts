/** `lore mcp`: serves the store to agents over the Model Context Protocol (stdio). */
import { COMMON_OPTIONS, EXIT_OK, envOf, printable, parseCommand, type Output } from '../cliSupport';

export const MCP_HELP = `lore mcp [--root DIR]                   serve the store to agents over MCP (stdio)
Tools: search, recall, read_digest, read_file_notes, open_conversation, add_fact, add_note. Setup for Claude Code,
Codex and Cursor: docs/mcp.md. Stdout carries the protocol; diagnostics go to stderr.`;

export async function mcpCommand(argv: string[], io: Output): Promise<number> {
  const parsed = parseCommand(argv, COMMON_OPTIONS, MCP_HELP, io, { positionals: false });
  if (!parsed) return EXIT_OK;
  const { paths } = parsed;
  // Loaded on demand: the MCP SDK and zod are a large share of the CLI's start-up otherwise.
  const { serveLoreMcp } = await import('../../mcp/loreMcpServer.js');
  // Diagnostics quote what clients sent: escaped, so a hostile line cannot drive the terminal.
  // LORE_MCP_INDEX_WAIT_MS: how long a search waits for a first index build before answering from its part so far.
  const wait = Number(envOf(io).LORE_MCP_INDEX_WAIT_MS);
  const indexWaitMs = envOf(io).LORE_MCP_INDEX_WAIT_MS?.trim() && Number.isFinite(wait) && wait >= 0 ? wait : undefined;
  await serveLoreMcp(paths, { log: (message) => io.err(printable(message, { keepLineBreaks: true })), indexWaitMs });
  return EXIT_OK;
}

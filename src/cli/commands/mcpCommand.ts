/** `lore mcp`: serves the store to agents over the Model Context Protocol (stdio). */
import { parseArgs } from 'node:util';
import { COMMON_OPTIONS, EXIT_OK, printable, resolveStore, type Output } from '../cliSupport';

export const MCP_HELP = `lore mcp [--root DIR]                   serve the store to agents over MCP (stdio)
Tools: search, recall, read_digest, read_file_notes, add_fact, add_note. Setup for Claude Code,
Codex and Cursor: docs/mcp.md. Stdout carries the protocol; diagnostics go to stderr.`;

export async function mcpCommand(argv: string[], io: Output): Promise<number> {
  const { values } = parseArgs({ args: argv, options: COMMON_OPTIONS, strict: true });
  if (values.help) {
    io.out(MCP_HELP);
    return EXIT_OK;
  }
  const paths = resolveStore(values.root, values.workspace, io);
  // Loaded on demand: the MCP SDK and zod are a large share of the CLI's start-up otherwise.
  const { serveLoreMcp } = await import('../../mcp/loreMcpServer.js');
  // Diagnostics quote what clients sent: escaped, so a hostile line cannot drive the terminal.
  await serveLoreMcp(paths, { log: (message) => io.err(printable(message, { keepLineBreaks: true })) });
  return EXIT_OK;
}

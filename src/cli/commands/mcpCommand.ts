/** `lore mcp`: serves the store to agents over the Model Context Protocol (stdio). */
import { command, type Parsed } from '../command';
import { EXIT_OK, cwdOf, envOf, printable, type Output } from '../cliSupport';
import { lazy } from '../../core/base/lazy';

// Loaded when the server starts, not with --help: the MCP SDK (dist/mcpServer.js in the bundles).
const loreMcpServer = lazy(() => require('../../mcp/loreMcpServer') as typeof import('../../mcp/loreMcpServer'));

export const mcpCommand = command({
  name: 'mcp',
  usage: [{ usage: '[--root DIR | --global] [--workspace DIR]', does: 'serve the store to agents over MCP (stdio)' }],
  description: `The store: --global (~/.lore), else --root DIR, else $LORE_ROOT (a relative path is looked for in the working folder and
its parents), else the nearest .lore/ in or above the client's roots (when the client shares
them), else the nearest .lore/ in or above the working folder (never ~/.lore). A store that is not found is
reported in every reply, never created: run lore init first.
Tools (the list costs about 2,500 tokens; every parameter: docs/mcp.md):
  search             query? path? ids? category? include? offset? limit? max_tokens?: ranked matches for
                     query; path: a file's notes (query keeps those with its words); ids: items in full;
                     none: the digest. include: superseded, archived. Replies ~2,000 tokens by default.
  open_conversation  source item? from_line? max_tokens?: the conversation an item came from.
  remember           kind statement detail? name? path? scope? session?: record one item.
  change_item        action (update, supersede, done, forget) id text? file? session?: change an item.
  tasks              action (search, get, start, progress, run_start, run_finish, evidence, finish,
                     artifact) task_id? artifact_id? query? goal? summary? status? agent? session?,
                     and each action's other fields (named in the tool's description and docs/mcp.md).
Agents' writes wait for "lore review" unless config.json says "agentWrites": "direct".
Resources: lore://digest, lore://knowledge/{category}, lore://notes/{path}, lore://transcript/{id}.
Prompts: file_knowledge (path), task_context (task, files).
Protocol revisions 2024-11-05 to 2025-11-25 (initialize) and 2026-07-28 (server/discover).
Setup for Claude Code, Codex, Cursor, Gemini CLI and VS Code: docs/mcp.md. Stdout carries the protocol;
diagnostics go to stderr.`,
  options: {},
  takes: { positionals: false },
  run: mcp,
});

async function mcp(parsed: Parsed, io: Output): Promise<number> {
  // The store is looked for by the server itself (it may ask the client's roots), never created.
  const { root, workspace, global } = parsed.values;
  const { serveLoreMcp } = loreMcpServer();
  // Diagnostics quote what clients sent: escaped, so a hostile line cannot drive the terminal.
  // LORE_MCP_INDEX_WAIT_MS: how long a search waits for a first index build before answering from its part so far.
  const wait = Number(envOf(io).LORE_MCP_INDEX_WAIT_MS);
  const indexWaitMs = envOf(io).LORE_MCP_INDEX_WAIT_MS?.trim() && Number.isFinite(wait) && wait >= 0 ? wait : undefined;
  const home = envOf(io).HOME || envOf(io).USERPROFILE || undefined;
  await serveLoreMcp(
    { root, workspace, global, home, envRoot: envOf(io).LORE_ROOT, cwd: cwdOf(io) },
    { log: (message) => io.err(printable(message, { keepLineBreaks: true })), indexWaitMs },
  );
  return EXIT_OK;
}

/** `lore mcp`: serves the store to agents over the Model Context Protocol (stdio). */
import { command, type Parsed } from '../command';
import { EXIT_OK, UsageError, cwdOf, envOf, printable, type Output } from '../cliSupport';
import { lazy } from '../../core/base/lazy';

// Loaded when the server starts, not with --help: the MCP SDK (dist/mcpServer.js in the bundles).
const loreMcpServer = lazy(() => require('../../mcp/loreMcpServer') as typeof import('../../mcp/loreMcpServer'));

const MCP_OPTIONS = {
  http: { type: 'string', value: 'PORT', help: 'serve over Streamable HTTP on 127.0.0.1:PORT instead of stdio (0: a free port)' },
} as const;

export const mcpCommand = command({
  name: 'mcp',
  usage: [
    { usage: '[--root DIR | --global] [--workspace DIR]', does: 'serve the store to agents over MCP (stdio)' },
    {
      usage: '--http PORT [--root DIR | --global]',
      does: 'serve it over Streamable HTTP on 127.0.0.1:PORT/mcp, for several agents at once',
    },
  ],
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
Skills: each playbook is a skill, skill://NAME/SKILL.md (skills/list, skills/get, resources/read).
Prompts: file_knowledge (path), task_context (task, files).
Protocol revisions 2024-11-05 to 2025-11-25 (initialize) and 2026-07-28 (server/discover).
--http serves http://127.0.0.1:PORT/mcp (loopback only; PORT 0 picks a free one, said on stderr):
a client that initializes gets a session of its own, a 2026-07-28 request is answered statelessly.
Setup for Claude Code, Codex, Cursor, Gemini CLI and VS Code: docs/mcp.md. Stdout carries the protocol;
diagnostics go to stderr.`,
  options: MCP_OPTIONS,
  takes: { positionals: false },
  run: mcp,
});

async function mcp(parsed: Parsed<typeof MCP_OPTIONS>, io: Output): Promise<number> {
  // The store is looked for by the server itself (it may ask the client's roots), never created.
  const { root, workspace, global } = parsed.values;
  const { serveLoreMcp, serveLoreMcpHttp } = loreMcpServer();
  // Diagnostics quote what clients sent: escaped, so a hostile line cannot drive the terminal.
  // LORE_MCP_INDEX_WAIT_MS: how long a search waits for a first index build before answering from its part so far.
  const wait = Number(envOf(io).LORE_MCP_INDEX_WAIT_MS);
  const indexWaitMs = envOf(io).LORE_MCP_INDEX_WAIT_MS?.trim() && Number.isFinite(wait) && wait >= 0 ? wait : undefined;
  const home = envOf(io).HOME || envOf(io).USERPROFILE || undefined;
  const request = { root, workspace, global, home, envRoot: envOf(io).LORE_ROOT, cwd: cwdOf(io) };
  const options = { log: (message: string) => io.err(printable(message, { keepLineBreaks: true })), indexWaitMs };
  if (parsed.values.http === undefined) await serveLoreMcp(request, options);
  else await serveLoreMcpHttp(request, httpPort(parsed.values.http), options);
  return EXIT_OK;
}

function httpPort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new UsageError(`--http takes a port number (0 to 65535), not ${value}`);
  return port;
}

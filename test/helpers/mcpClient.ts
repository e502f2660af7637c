import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, ListRootsRequestSchema, type ElicitRequest, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { CLI } from './paths';

/** The environment every server of the tests runs with: no embeddings, the default backend, no store from the shell. */
const SERVER_ENV = { LORE_EMBED_PROVIDER: '', LORE_SEARCH_BACKEND: '', LORE_ROOT: '' };

export interface ConnectOptions {
  /** The server's working folder (default: the test process's). */
  cwd?: string;
  /** Folders the client shares as its roots (it then declares the roots capability). */
  roots?: string[];
  /** Variables on top of the test environment. */
  env?: Record<string, string>;
  /** The name the client gives in initialize (agents' writes are attributed to it). */
  clientName?: string;
  /** The person's answer to the server's questions (the client then declares the elicitation capability). */
  elicit?: (params: ElicitRequest['params']) => ElicitResult | Promise<ElicitResult>;
}

/**
 * The real MCP SDK client connected to `lore mcp` (dist/cli.js) over stdio, with `--root ROOT`
 * when a root is given, embeddings and the search backend left at their defaults. `stderr`
 * collects the server's log.
 */
export async function connectLoreMcp(
  root: string | undefined,
  options: ConnectOptions = {},
): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', ...(root === undefined ? [] : ['--root', root])],
    cwd: options.cwd,
    env: { ...(process.env as Record<string, string>), ...SERVER_ENV, ...options.env },
    stderr: 'pipe',
  });
  let log = '';
  transport.stderr?.on('data', (d) => (log += d));
  const capabilities = {
    ...(options.roots ? { roots: { listChanged: true } } : {}),
    ...(options.elicit ? { elicitation: { form: {} } } : {}),
  };
  const client = new Client(
    { name: options.clientName ?? 'lore-test', version: '1.0.0' },
    Object.keys(capabilities).length ? { capabilities } : undefined,
  );
  const elicit = options.elicit;
  if (elicit) client.setRequestHandler(ElicitRequestSchema, (request) => elicit(request.params));
  if (options.roots) {
    const roots = options.roots.map((folder) => ({ uri: pathToFileURL(folder).href, name: folder }));
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots }));
  }
  await client.connect(transport);
  return { client, stderr: () => log };
}

/**
 * Resolves once the server's log (`stderr` of connectLoreMcp) matches `pattern`, or fails after
 * 10 s showing the log. A line logged while a call is answered arrives on its own pipe, often a
 * moment after the reply; on a loaded machine, many moments.
 */
export async function logged(stderr: () => string, pattern: RegExp): Promise<void> {
  for (let i = 0; i < 500 && !pattern.test(stderr()); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  assert.match(stderr(), pattern);
}

/** A JSON-RPC reply as it came over the wire. */
export interface RawReply {
  id?: unknown;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

/**
 * Starts `lore mcp ARGS` in `cwd`, writes `messages` to its stdin one a line, closes stdin and
 * collects every reply until the server exits (for what the SDK client cannot send: another
 * protocol revision, raw lines).
 */
export function rawMcp(
  args: string[],
  messages: object[],
  cwd?: string,
): Promise<{ code: number | null; replies: RawReply[]; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'mcp', ...args], {
      cwd,
      env: { ...process.env, ...SERVER_ENV },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      try {
        resolve({
          code,
          replies: stdout
            .split('\n')
            .filter((l) => l.trim())
            .map((l) => JSON.parse(l) as RawReply),
          stderr,
        });
      } catch (error) {
        reject(new Error(`stdout is not all JSON-RPC (${(error as Error).message}): ${stdout.slice(0, 500)}`));
      }
    });
    for (const message of messages) child.stdin.write(JSON.stringify(message) + '\n');
    child.stdin.end();
  });
}

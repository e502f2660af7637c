import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { connectLoreMcp } from '../helpers/mcpClient';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { makeWorkspace } from '../helpers/cli';
import { CLI } from '../helpers/paths';

interface Served {
  code: number | null;
  signal: NodeJS.Signals | null;
  replies: Array<{ id?: unknown; result?: { tools?: unknown[] }; error?: { code: number; message: string } }>;
  stderr: string;
}

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 'init',
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};
const INITIALIZED = { jsonrpc: '2.0', method: 'notifications/initialized' };
const LIST = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list' });

/**
 * Starts the real `lore mcp`, writes `lines` (raw, each followed by a newline) to its stdin,
 * closes stdin, and collects every reply until the server exits.
 */
function serve(root: string, lines: Array<string | object>, env: NodeJS.ProcessEnv = {}): Promise<Served> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'mcp', '--root', root], {
      env: { ...process.env, LORE_EMBED_PROVIDER: '', LORE_SEARCH_BACKEND: '', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      try {
        // Every line on stdout must be a JSON-RPC message: it is the protocol.
        const replies = stdout
          .split('\n')
          .filter((l) => l.trim())
          .map((l) => JSON.parse(l));
        resolve({ code, signal, replies, stderr });
      } catch (error) {
        reject(new Error(`stdout is not all JSON-RPC (${(error as Error).message}): ${stdout.slice(0, 500)}`));
      }
    });
    child.stdin.on('error', () => undefined);
    for (const line of lines) child.stdin.write((typeof line === 'string' ? line : JSON.stringify(line)) + '\n');
    child.stdin.end();
  });
}

describe('lore mcp: malformed, invalid and oversized requests', function () {
  this.timeout(60_000);
  let root: string;

  before(async () => {
    ({ root } = await makeWorkspace());
  });

  it('answers a request line over 10 MB with an error carrying its id, and serves the next request', async () => {
    // The SDK's client writes the id last, after 11 MB of params.
    const huge = `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"remember","arguments":{"category":"fact","statement":"${'x'.repeat(11 * 1024 * 1024)}"}},"id":5}`;
    const served = await serve(root, [INITIALIZE, INITIALIZED, huge, LIST(6)]);
    assert.equal(served.code, 0, served.stderr);
    const tooLarge = served.replies.find((r) => r.id === 5);
    assert.equal(tooLarge?.error?.code, -32600);
    assert.match(tooLarge!.error!.message, /^Request too large: 11534\d{3} bytes, over the 10485760-byte limit/);
    assert.equal(served.replies.find((r) => r.id === 6)?.result?.tools?.length, 5, 'the next request is served');
    assert.match(served.stderr, /lore mcp: refused a request of 11\.0 MB \(the limit is 10\.0 MB\)/);
    assert.ok(!fs.readFileSync(path.join(root, 'facts.md'), 'utf8').includes('xxxx'));
  });

  it('answers params that are a string, other invalid messages and lines that are not JSON, and keeps serving', async () => {
    const served = await serve(root, [
      INITIALIZE,
      INITIALIZED,
      '{"jsonrpc":"2.0","id":7,"method":"tools/list","params":"hello"}',
      'this is not json \x1b]0;pwned\x07',
      '{"jsonrpc":"1.0","id":8,"method":"tools/list"}',
      '[1,2]',
      '{"jsonrpc":"2.0","id":9,"method":42}',
      LIST(10),
    ]);
    assert.equal(served.code, 0, served.stderr);
    const byId = (id: unknown) => served.replies.filter((r) => r.id === id);
    assert.deepEqual(
      byId(7).map((r) => r.error),
      [{ code: -32602, message: 'Invalid params: "params" must be an object' }],
    );
    assert.deepEqual(
      byId(8).map((r) => r.error),
      [{ code: -32600, message: 'Invalid Request: "jsonrpc" must be "2.0"' }],
    );
    assert.deepEqual(
      byId(9).map((r) => r.error),
      [{ code: -32600, message: 'Invalid Request: "method" must be a string' }],
    );
    const unknown = byId(null).map((r) => r.error!);
    assert.deepEqual(
      unknown.map((e) => e.code),
      [-32700, -32600],
    );
    assert.match(unknown[0].message, /^Parse error: /);
    assert.equal(unknown[1].message, 'Invalid Request: expected a JSON-RPC 2.0 message object, not an array');
    assert.equal(byId(10)[0]?.result?.tools?.length, 5);
    assert.ok(!/[\x07\x1b]/.test(served.stderr), 'the refused line is quoted escaped on stderr');
  });

  /** Runs `body` with a loopback embedding endpoint that answers every request with `status` after `delayMs`. */
  async function withFailingEmbedder(
    status: number,
    contentType: string,
    delayMs: number,
    body: (env: NodeJS.ProcessEnv) => Promise<void>,
  ): Promise<void> {
    const server = http.createServer((_req, res) =>
      setTimeout(
        () => res.writeHead(status, { 'content-type': contentType }).end(contentType.includes('json') ? '{"error":"busy"}' : 'busy'),
        delayMs,
      ),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      await body({ LORE_EMBED_PROVIDER: 'ollama', LORE_EMBED_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
    } finally {
      server.closeAllConnections();
      server.close();
    }
  }

  const SEARCH = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'search', arguments: { query: 'esbuild' } } };

  it('answers every request piped in before stdin closes, even a slow one, then exits 0', async () => {
    // The query's embedding takes a second to fail: the search answers well after stdin closed.
    await withFailingEmbedder(503, 'application/json', 1000, async (env) => {
      const served = await serve(root, [INITIALIZE, INITIALIZED, LIST(1), LIST(2), SEARCH], env);
      assert.equal(served.code, 0, served.stderr);
      assert.equal(served.signal, null);
      assert.deepEqual(
        served.replies.map((r) => r.id),
        ['init', 1, 2, 3],
      );
    });
  });

  it('keeps stdout for the protocol when a library writes to the console', async () => {
    // The ollama SDK console.logs "Getting text from response" on a non-JSON error.
    await withFailingEmbedder(503, 'text/plain', 0, async (env) => {
      const served = await serve(root, [INITIALIZE, INITIALIZED, SEARCH], env);
      assert.equal(served.code, 0, served.stderr);
      assert.deepEqual(
        served.replies.map((r) => r.id),
        ['init', 3],
      );
      assert.match(served.stderr, /Getting text from response/);
    });
  });

  it('a tool that meets a store file that is a folder says which, and what to do', async () => {
    const { root: store } = await makeWorkspace();
    fs.rmSync(path.join(store, 'facts.md'));
    fs.mkdirSync(path.join(store, 'facts.md'));
    const add = {
      jsonrpc: '2.0',
      id: 4,
      method: 'tools/call',
      params: { name: 'remember', arguments: { kind: 'fact', statement: 'folders are not files' } },
    };
    const served = await serve(store, [INITIALIZE, INITIALIZED, add]);
    const reply = served.replies.find((r) => r.id === 4) as { result?: { isError?: boolean; content?: Array<{ text: string }> } };
    assert.equal(reply.result?.isError, true);
    assert.equal(
      reply.result?.content?.[0].text,
      `error: ${path.join(store, 'facts.md')} is a folder, not a file: move it away and run again`,
    );
  });

  it('exits 0 when the client closes stdin without a word', async () => {
    const served = await serve(root, []);
    assert.equal(served.code, 0, served.stderr);
    assert.deepEqual(served.replies, []);
  });

  it('an SDK client sending an oversized call gets an McpError at once and can go on', async () => {
    const { client } = await connectLoreMcp(root);
    try {
      // A timeout far beyond how long the answer takes: the error must come from the server.
      await assert.rejects(
        client.callTool({ name: 'remember', arguments: { kind: 'fact', statement: 'y'.repeat(11 * 1024 * 1024) } }, undefined, {
          timeout: 600_000,
        }),
        (error: Error) => error instanceof McpError && error.code === -32600 && /Request too large/.test(error.message),
      );
      const { tools } = await client.listTools();
      assert.equal(tools.length, 5);
    } finally {
      await client.close();
    }
  });
});

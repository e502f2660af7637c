/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance, run offline from
 * node_modules) against a real `lore mcp --http 0`: the active suite (revisions up to
 * 2025-11-25, with initialize) and exactly what revision 2026-07-28 requires. What Lore does not
 * pass is listed, with why, in conformance-baseline.yml beside this file; the suite fails on a
 * failure not listed and on a listed one that now passes. Each run is bounded by a timeout.
 */
import * as assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { makeWorkspace } from '../../helpers/cli';
import { CLI, REPO_ROOT, makeTempDir } from '../../helpers/paths';

const run = promisify(execFile);
const CONFORMANCE = path.join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const BASELINE = path.join(REPO_ROOT, 'test', 'process', 'mcp', 'conformance-baseline.yml');
const MODERN_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2026-07-28',
};
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'lore-test', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** Starts `lore mcp --http 0` on the store and resolves with its URL once it listens. */
function startHttpServer(root: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [CLI, 'mcp', '--http', '0', '--root', root], {
    env: { ...process.env, LORE_EMBED_PROVIDER: '', LORE_SEARCH_BACKEND: '' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let err = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      const url = /serving on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(err)?.[1];
      if (url) resolve({ url, child });
    });
    child.once('exit', (code) => reject(new Error(`lore mcp --http exited ${code}: ${err}`)));
  });
}

async function conformance(url: string, ...args: string[]): Promise<void> {
  const out = makeTempDir('lore-conformance-');
  try {
    await run(process.execPath, [CONFORMANCE, 'server', '--url', url, '--expected-failures', BASELINE, '-o', out, ...args], {
      timeout: 180_000,
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    assert.fail(`the conformance suite failed ${args.join(' ')}:\n${stdout?.slice(-6000)}\n${stderr?.slice(-2000)}`);
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
}

/** Server-sent events of a response as JSON messages, given to `each` as they arrive. */
async function readEvents(
  response: Response,
  each: (message: { method?: string; params?: Record<string, unknown> }) => boolean,
): Promise<void> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    const lines = buffer.split('\n');
    buffer = lines.pop()!;
    for (const line of lines)
      if (line.startsWith('data:') && each(JSON.parse(line.slice(5)))) {
        await reader.cancel();
        return;
      }
  }
}

describe('lore mcp --http against the official MCP conformance suite', function () {
  this.timeout(400_000);
  let server: { url: string; child: ChildProcess };
  let root: string;

  before(async () => {
    ({ root } = await makeWorkspace());
    fs.writeFileSync(path.join(root, 'facts.md'), '# Facts\n\n- the build uses esbuild for bundling [from: c1, 2026-11-20]\n');
    // A playbook, which Lore serves as a skill: the Skills extension's scenarios check its entry and SKILL.md.
    fs.writeFileSync(
      path.join(root, 'playbooks.md'),
      '# Playbooks\n\n- **Release a new version**: run npm version, push the tag, wait for CI to publish [from: c1, 2026-11-20]\n',
    );
    server = await startHttpServer(root);
  });
  after(() => {
    server?.child.kill();
  });

  it('passes the active suite (revisions with initialize), but for the baseline', async () => {
    await conformance(server.url);
  });

  it('passes what revision 2026-07-28 requires, but for the baseline', async () => {
    await conformance(server.url, '--requirements', '2026-07-28');
  });

  it('tells a 2026-07-28 listener when a category it subscribed to changes in the store', async () => {
    const listen = await fetch(server.url, {
      method: 'POST',
      headers: { ...MODERN_HEADERS, 'mcp-method': 'subscriptions/listen' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'subscriptions/listen',
        params: { _meta: MODERN_META, notifications: { resourceSubscriptions: ['lore://knowledge/facts'], toolsListChanged: true } },
      }),
    });
    assert.equal(listen.status, 200);
    const seen: Array<{ method?: string; params?: Record<string, unknown> }> = [];
    await readEvents(listen, (message) => {
      seen.push(message);
      // Once acknowledged, a person adds a fact by hand.
      if (message.method === 'notifications/subscriptions/acknowledged')
        fs.appendFileSync(path.join(root, 'facts.md'), '- deploys go out on Tuesdays [from: c2, 2026-11-21]\n');
      return message.method === 'notifications/resources/updated';
    });
    assert.deepEqual(seen[0], {
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      // The tool list never changes while Lore runs: that part of the filter is not agreed to.
      params: {
        notifications: { resourceSubscriptions: ['lore://knowledge/facts'] },
        _meta: { 'io.modelcontextprotocol/subscriptionId': 7 },
      },
    });
    assert.deepEqual(seen.at(-1)?.params, { uri: 'lore://knowledge/facts', _meta: { 'io.modelcontextprotocol/subscriptionId': 7 } });
  });

  it('refuses a request that names another host (DNS rebinding) or another origin', async () => {
    const port = new URL(server.url).port;
    for (const headers of [{ host: `attacker.example:${port}` }, { origin: 'http://attacker.example' }]) {
      const status = await new Promise<number>((resolve, reject) => {
        const request = http.request(
          server.url,
          { method: 'POST', headers: { ...MODERN_HEADERS, 'mcp-method': 'server/discover', ...headers } },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        request.on('error', reject);
        request.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: MODERN_META } }));
      });
      assert.equal(status, 403, JSON.stringify(headers));
    }
  });
});

/**
 * `lore` on a Node older than package.json's engines.node refuses before any work, with a message
 * naming the version it needs and how to get it. Before, Node 20 (Debian 12's default) ran the
 * bundles and died in the native SQLite module: exit 139 and no message in `search` and
 * `context`, and `lore mcp` looked connected until its first search. The version arithmetic is
 * tested here in plain Node; the real refusal with an old Node when the machine has one
 * (/usr/bin/node, or $LORE_TEST_OLD_NODE).
 */
import * as assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { atLeast, minimumOf, nodeVersionProblem, parseNodeVersion, refusal } from '../../src/cli/nodeVersion';
import { makeWorkspace, snapshotTree } from '../helpers/cli';
import { CLI, REPO_ROOT } from '../helpers/paths';

const ENGINES = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;

describe('the Node version lore needs', () => {
  it('reads the engines range and compares versions part by part', () => {
    assert.deepEqual(minimumOf('>=22.14'), [22, 14, 0]);
    assert.deepEqual(minimumOf(' >= v24 '), [24, 0, 0]);
    assert.deepEqual(minimumOf('>=22.14.1'), [22, 14, 1]);
    assert.equal(minimumOf('^22 || ^24'), undefined);
    assert.deepEqual(parseNodeVersion('20.20.2'), [20, 20, 2]);
    assert.deepEqual(parseNodeVersion('v24.1.0-pre'), [24, 1, 0]);
    assert.equal(parseNodeVersion('x'), undefined);
    assert.equal(atLeast([22, 14, 0], [22, 14, 0]), true);
    assert.equal(atLeast([22, 9, 0], [22, 14, 0]), false, '9 < 14 as numbers, not as text');
    assert.equal(atLeast([22, 13, 99], [22, 14, 0]), false);
    assert.equal(atLeast([23, 0, 0], [22, 14, 0]), true);
    assert.equal(atLeast([100, 0, 0], [22, 14, 0]), true);
    assert.equal(atLeast([20, 20, 2], [22, 14, 0]), false);
  });

  it("says what is needed and how to get it; allows this test's own Node and what it cannot read", () => {
    const problem = nodeVersionProblem('20.20.2', '>=22.14', '/usr/bin/node');
    assert.ok(problem);
    assert.match(
      problem,
      /^Lore needs Node\.js 22\.14 or newer \(package\.json engines\.node ">=22\.14"\), but this is Node\.js 20\.20\.2 \(\/usr\/bin\/node\)\. /,
    );
    assert.match(problem, /Install a current Node\.js LTS \(https:\/\/nodejs\.org\/.*nvm install --lts/);
    assert.equal(
      nodeVersionProblem(process.versions.node, ENGINES, process.execPath),
      undefined,
      'the Node running the tests is one Lore runs on',
    );
    assert.equal(nodeVersionProblem('22.14.0', '>=22.14', 'node'), undefined);
    assert.equal(nodeVersionProblem('20.0.0', '^22', 'node'), undefined, 'a range it cannot read refuses nothing');
  });

  it('refuses with exit 1, `lore mcp` saying the server did not start; `lore hook` exits 0 and says it did nothing', () => {
    const problem = nodeVersionProblem('20.20.2', '>=22.14', '/usr/bin/node')!;
    assert.deepEqual(refusal('search', problem), { stderr: `lore: ${problem}.\n`, exitCode: 1 });
    assert.deepEqual(refusal(undefined, problem), { stderr: `lore: ${problem}.\n`, exitCode: 1 });
    assert.match(refusal('mcp', problem).stderr, /^lore mcp: the MCP server did not start\. Lore needs Node\.js 22\.14/);
    assert.equal(refusal('mcp', problem).exitCode, 1);
    assert.equal(refusal('hook', problem).exitCode, 0);
    assert.match(
      refusal('hook', problem).stderr,
      /^lore hook: did nothing\. Lore needs .*, then run `lore hooks install` again so the hooks use it\.\n$/,
    );
  });
});

/** An installed Node older than engines.node, or undefined (with why). */
function oldNode(): { node?: string; version?: string; why: string } {
  const minimum = minimumOf(ENGINES);
  for (const node of [process.env.LORE_TEST_OLD_NODE, '/usr/bin/node'].filter((n): n is string => !!n)) {
    let version: string;
    try {
      version = execFileSync(node, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim();
    } catch {
      continue;
    }
    const parsed = parseNodeVersion(version);
    if (minimum && parsed && !atLeast(parsed, minimum)) return { node, version, why: '' };
  }
  return { why: `no Node older than ${ENGINES} here (tried $LORE_TEST_OLD_NODE and /usr/bin/node)` };
}

function run(
  node: string,
  args: string[],
  cwd: string,
  stdin = '',
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(node, [CLI, ...args], { cwd, env: { ...process.env, LORE_ROOT: '' }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.stdin.on('error', () => undefined);
    child.stdin.end(stdin);
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

describe('lore run by a Node older than it needs (a real old Node)', function () {
  this.timeout(60_000);
  const found = oldNode();
  let ws: string;
  let root: string;
  let storeBefore: Record<string, string>;

  before(function () {
    if (!found.node) {
      console.log(`      skipped: ${found.why}`);
      this.skip();
    }
  });
  beforeEach(async () => {
    ({ ws, root } = await makeWorkspace());
    fs.writeFileSync(path.join(root, 'facts.md'), '# Facts\n\n- the build uses esbuild [from: c1, 2026-11-20]\n');
    storeBefore = snapshotTree(root);
  });

  const message = () =>
    new RegExp(
      `Lore needs Node\\.js [0-9.]+ or newer \\(package\\.json engines\\.node "${ENGINES.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"\\), but this is Node\\.js ${found.version!.replace(/\./g, '\\.')} \\(`,
    );

  for (const args of [['search', 'esbuild'], ['context'], ['harvest', '--apply']]) {
    it(`lore ${args.join(' ')}: exit 1 with the message, nothing on stdout, the store untouched`, async () => {
      const result = await run(found.node!, [...args, '--root', root], ws);
      assert.equal(result.signal, null);
      assert.equal(result.code, 1, result.stderr);
      assert.equal(result.stdout, '');
      assert.match(result.stderr, /^lore: /);
      assert.match(result.stderr, message());
      assert.deepEqual(snapshotTree(root), storeBefore);
    });
  }

  it('lore hook: exit 0, no context on stdout, a note on stderr, nothing queued', async () => {
    const input = JSON.stringify({ session_id: 's1', cwd: ws, hook_event_name: 'SessionEnd', transcript_path: path.join(ws, 't.jsonl') });
    fs.writeFileSync(path.join(ws, 't.jsonl'), '{"type":"user","message":{"role":"user","content":"hi"}}\n');
    const result = await run(found.node!, ['hook'], ws, input);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /^lore hook: did nothing\. /);
    assert.match(result.stderr, message());
    assert.deepEqual(snapshotTree(root), storeBefore);
  });

  it('lore mcp: exits 1 with the message, and an MCP client never gets connected', async () => {
    const raw = await run(
      found.node!,
      ['mcp', '--root', root],
      ws,
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`,
    );
    assert.equal(raw.code, 1);
    assert.equal(raw.stdout, '', 'no answer to initialize');
    assert.match(raw.stderr, /^lore mcp: the MCP server did not start\. /);
    assert.match(raw.stderr, message());
    const transport = new StdioClientTransport({ command: found.node!, args: [CLI, 'mcp', '--root', root], cwd: ws, stderr: 'pipe' });
    const client = new Client({ name: 'lore-test', version: '1.0.0' });
    await assert.rejects(client.connect(transport), /closed/i);
    await client.close();
  });
});

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { makeWorkspace, runCli, snapshotTree } from '../helpers/cli';
import { connectLoreMcp, logged, rawMcp } from '../helpers/mcpClient';
import { makeTempDir } from '../helpers/paths';

function textOf(result: unknown): string {
  return ((result as CallToolResult).content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

const FACT = '- the build uses esbuild for bundling [from: c1, 2026-11-20]';

/** A workspace whose store holds one fact, a note on src/app.ts and a harvested conversation. */
async function richWorkspace(): Promise<{ ws: string; root: string }> {
  const { ws, root, inbox } = await makeWorkspace();
  fs.writeFileSync(path.join(root, 'facts.md'), `# Facts\n\n${FACT}\n`);
  fs.writeFileSync(
    path.join(inbox, 'c7.md'),
    [
      '---',
      'session_id: c7',
      'started: 2026-11-21T08:00:00Z',
      '---',
      '',
      '# Release steps',
      '',
      '## 08:00 — user',
      'How do we release?',
      '',
      '## 08:05 — user',
      'Decision: tags are signed — the registry checks the signature.',
      '',
    ].join('\n'),
  );
  const harvest = await runCli(['harvest', '--root', root, '--apply']);
  assert.equal(harvest.code, 0, harvest.stderr);
  const note = await runCli(['note', path.join(ws, 'src', 'app.ts'), 'exports the app constant', '--root', root]);
  assert.equal(note.code, 0, note.stderr);
  return { ws, root };
}

async function searchText(client: Client, query = 'esbuild'): Promise<CallToolResult> {
  return (await client.callTool({ name: 'search', arguments: { query } })) as CallToolResult;
}

describe('lore mcp: finding the store', function () {
  this.timeout(60_000);

  it('from a subfolder: the nearest .lore/ above the working folder, and a relative --root found upwards, creating nothing', async () => {
    const { ws } = await richWorkspace();
    const before = snapshotTree(path.join(ws, 'src'));
    for (const root of [undefined, '.lore']) {
      const { client, stderr } = await connectLoreMcp(root, { cwd: path.join(ws, 'src') });
      try {
        const result = await searchText(client);
        assert.ok(!result.isError, textOf(result));
        assert.match(textOf(result), /the build uses esbuild for bundling/);
        assert.match(
          stderr(),
          new RegExp(
            `serving ${path.join(ws, '.lore').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(found by ${root ? '--root \\.lore' : 'the nearest \\.lore/ above'}`,
          ),
        );
      } finally {
        await client.close();
      }
    }
    assert.ok(!fs.existsSync(path.join(ws, 'src', '.lore')), 'no stray src/.lore/');
    assert.deepEqual(snapshotTree(path.join(ws, 'src')), before);
  });

  it("from the client's roots, when the server starts somewhere else", async () => {
    const { ws } = await richWorkspace();
    const elsewhere = makeTempDir('lore-elsewhere-');
    const { client, stderr } = await connectLoreMcp(undefined, { cwd: elsewhere, roots: [path.join(ws, 'src')] });
    try {
      const result = await searchText(client);
      assert.ok(!result.isError, textOf(result));
      assert.match(textOf(result), /esbuild/);
      await logged(stderr, /found by the client's root file:\/\//);
    } finally {
      await client.close();
    }
    // The same client without the roots capability: nothing to go on, and nothing created.
    const { client: bare } = await connectLoreMcp(undefined, { cwd: elsewhere });
    try {
      const result = await searchText(bare);
      assert.equal(result.isError, true);
      assert.equal(
        textOf(result),
        `no Lore store found: no .lore/ folder in ${elsewhere} or its parents; run \`lore init\` in the project folder, or start the server with --root <path to .lore>`,
      );
    } finally {
      await bare.close();
    }
    assert.deepEqual(fs.readdirSync(elsewhere), []);
  });

  it('a missing store is reported by every tool, resource and prompt, and never created', async () => {
    const empty = makeTempDir('lore-empty-');
    fs.mkdirSync(path.join(empty, 'src'));
    const { client } = await connectLoreMcp('.lore', { cwd: path.join(empty, 'src') });
    try {
      const expected = `no Lore store found at ${path.join(empty, 'src', '.lore')} (nor in a parent folder of ${path.join(empty, 'src')}), given by --root`;
      const calls: Array<[string, Record<string, unknown>]> = [
        ['search', { query: 'x' }],
        ['search', {}],
        ['search', {}],
        ['search', { path: 'src/app.ts' }],
        ['open_conversation', { source: 'c1' }],
        ['remember', { kind: 'fact', statement: 'would create a store' }],
        ['remember', { kind: 'note', path: 'src', statement: 'would create a store' }],
        ['search', { ids: ['abcdefgh'] }],
        ['change_item', { action: 'forget', id: 'abcdefgh' }],
      ];
      for (const [name, args] of calls) {
        const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
        assert.equal(result.isError, true, name);
        assert.ok(textOf(result).startsWith(expected), `${name}: ${textOf(result)}`);
      }
      await assert.rejects(client.readResource({ uri: 'lore://digest' }), /no Lore store found/);
      await assert.rejects(client.getPrompt({ name: 'task_context', arguments: { task: 'x' } }), /no Lore store found/);
      assert.deepEqual(
        (await client.listResources()).resources.map((r) => r.uri),
        ['lore://digest'],
      );
    } finally {
      await client.close();
    }
    assert.deepEqual(snapshotTree(empty), {});
    assert.deepEqual(fs.readdirSync(empty), ['src']);
    assert.deepEqual(fs.readdirSync(path.join(empty, 'src')), []);
  });

  it('picks up a store made by lore init while the server runs', async () => {
    const dir = makeTempDir('lore-late-');
    const { client } = await connectLoreMcp(undefined, { cwd: dir });
    try {
      assert.equal((await searchText(client)).isError, true);
      assert.equal((await runCli(['init', '--root', path.join(dir, '.lore')])).code, 0);
      fs.writeFileSync(path.join(dir, '.lore', 'facts.md'), `# Facts\n\n${FACT}\n`);
      const found = await searchText(client);
      assert.ok(!found.isError, textOf(found));
      assert.match(textOf(found), /esbuild/);
    } finally {
      await client.close();
    }
  });
});

describe('lore mcp: instructions, resources and prompts', function () {
  this.timeout(60_000);
  let client: Client;
  let root: string;

  before(async () => {
    ({ root } = await richWorkspace());
    ({ client } = await connectLoreMcp(root));
  });

  after(async () => {
    await client.close();
  });

  it('tells the client what Lore holds, which tool does what, and that results are data', () => {
    const instructions = client.getInstructions() ?? '';
    for (const tool of ['search', 'search', 'search', 'search', 'open_conversation']) assert.ok(instructions.includes(tool), tool);
    assert.match(instructions, /facts, decisions, open questions, playbooks \(how-tos\), tasks, notes attached to workspace files/);
    assert.match(instructions, /not instructions to you/);
    assert.ok(Buffer.byteLength(instructions) < 2000, 'short enough for every conversation');
  });

  it('lists the digest and the category files, and reads them framed as data', async () => {
    const { resources } = await client.listResources();
    // The digest, the category files, and the transcripts (newest first).
    assert.deepEqual(
      resources.map((r) => r.uri),
      [
        'lore://digest',
        ...['facts', 'decisions', 'questions', 'playbooks', 'tasks'].map((c) => `lore://knowledge/${c}`),
        'lore://transcript/c7',
      ],
    );
    const templates = (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate).sort();
    assert.deepEqual(templates, [
      'lore://knowledge/{category}',
      'lore://notes/{+path}',
      'lore://transcript/{id}',
      'skill://{name}/SKILL.md',
    ]);
    const digest = await client.readResource({ uri: 'lore://digest' });
    assert.match(
      (digest.contents[0] as { text: string }).text,
      /^# Knowledge digest[^]*## Decisions\n- tags are signed[^]*## Facts\n- the build uses esbuild/,
    );
    const facts = (await client.readResource({ uri: 'lore://knowledge/facts' })).contents[0] as { text: string; mimeType?: string };
    assert.equal(facts.mimeType, 'text/markdown');
    assert.match(
      facts.text,
      /^> Recorded project knowledge, quoted as data[^\n]*\n# Facts\n[^]*- the build uses esbuild for bundling \[from: c1, 2026-11-20\]/,
    );
    await assert.rejects(client.readResource({ uri: 'lore://knowledge/secrets' }), /no category secrets/);
  });

  it("reads a file's notes and a transcript by id, and completes their names", async () => {
    const notes = (await client.readResource({ uri: 'lore://notes/src/app.ts' })).contents[0] as { text: string };
    assert.match(notes.text, /\n# Notes on src\/app\.ts\n- exports the app constant \[from: manual, \d{4}-\d{2}-\d{2}\]/);
    // Dot segments are resolved by the URI itself; an encoded one must not lead out either.
    await assert.rejects(client.readResource({ uri: 'lore://notes/..%2F..%2Fetc%2Fpasswd' }), /outside the workspace/);
    const transcript = (await client.readResource({ uri: 'lore://transcript/c7' })).contents[0] as { text: string };
    assert.match(transcript.text, /\n# transcripts\/2026\/11\/21\/0800-c7-release-steps\.md\n---\nid: c7\n[^]*tags are signed/);
    await assert.rejects(client.readResource({ uri: 'lore://transcript/nope' }), /no conversation nope is recorded/);
    const complete = (uri: string, name: string, value: string) =>
      client.complete({ ref: { type: 'ref/resource', uri }, argument: { name, value } }).then((r) => r.completion.values);
    assert.deepEqual(await complete('lore://knowledge/{category}', 'category', 'd'), ['decisions']);
    assert.deepEqual(await complete('lore://notes/{+path}', 'path', 'src/a'), ['src/app.ts']);
    assert.deepEqual(await complete('lore://notes/{+path}', 'path', ''), ['src/']);
    assert.deepEqual(await complete('lore://transcript/{id}', 'id', 'c'), ['c7']);
  });

  it('offers the file_knowledge and task_context prompts, compiled as lore context compiles: topics fire on the task and the file', async () => {
    fs.mkdirSync(path.join(root, 'topics'), { recursive: true });
    fs.writeFileSync(
      path.join(root, 'topics', 'release.md'),
      '---\ntriggers:\n  - keywords: [release]\npriority: high\n---\nBump the version before tagging.\n',
    );
    fs.writeFileSync(
      path.join(root, 'topics', 'app-code.md'),
      '---\ntriggers:\n  - glob: "src/**"\n---\nKeep src/ free of Node-only APIs.\n',
    );
    try {
      const { prompts } = await client.listPrompts();
      assert.deepEqual(prompts.map((p) => p.name).sort(), ['file_knowledge', 'task_context']);
      const file = await client.getPrompt({ name: 'file_knowledge', arguments: { path: 'src/app.ts' } });
      const fileText = (file.messages[0].content as { text: string }).text;
      assert.equal(file.messages[0].role, 'user');
      assert.match(fileText, /^What this project's Lore store records about src\/app\.ts[^\n]*\n\nLore \(this project's knowledge store/);
      assert.match(fileText, /\{file-notes\}\n[^]*## src\/app\.ts\n- exports the app constant/);
      assert.match(fileText, /## topic: app-code\n\nKeep src\/ free of Node-only APIs\./, 'the glob trigger fired on the file');
      assert.ok(!fileText.includes('topic: release'));
      const task = await client.getPrompt({ name: 'task_context', arguments: { task: 'release signed tags' } });
      const taskText = (task.messages[0].content as { text: string }).text;
      assert.match(taskText, /## topic: release\n\nBump the version before tagging\./, 'the keyword trigger fired on the task');
      assert.match(taskText, /\{knowledge\}\n[^]*- tags are signed[^]*\{\/knowledge\}/, 'the digest (P1) already holds the decision');
      const search = await client.getPrompt({ name: 'task_context', arguments: { task: 'where is the app constant exported?' } });
      const hit =
        /\{search-hits\}\n[^]*- \[notes ([0-9a-z]{8})\] \(src\/app\.ts\) exports the app constant \[from: manual, [^\]]+\] \(files\/[^)]+\)/.exec(
          (search.messages[0].content as { text: string }).text,
        );
      assert.ok(hit, 'a matching item (P3) with its id');
      // The id is the one the memory tools know the item by.
      assert.match(
        textOf((await client.callTool({ name: 'search', arguments: { ids: [hit[1]] } })) as CallToolResult),
        /exports the app constant/,
      );
      assert.ok(taskText.trimEnd().endsWith('{message}\nrelease signed tags\n{/message}'));
      const gates = fs
        .readFileSync(path.join(root, '.logs', 'gates.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      assert.deepEqual([...new Set(gates.map((g) => g.via))], ['mcp']);
      await assert.rejects(client.getPrompt({ name: 'file_knowledge', arguments: { path: '../../etc/passwd' } }), /outside the workspace/);
      const completion = await client.complete({
        ref: { type: 'ref/prompt', name: 'file_knowledge' },
        argument: { name: 'path', value: 'src/' },
      });
      assert.deepEqual(completion.completion.values, ['src/app.ts']);
    } finally {
      fs.rmSync(path.join(root, 'topics'), { recursive: true, force: true });
    }
  });
});

describe('lore mcp: protocol revisions', function () {
  this.timeout(60_000);
  let root: string;

  before(async () => {
    ({ root } = await makeWorkspace());
    fs.writeFileSync(path.join(root, 'facts.md'), `# Facts\n\n${FACT}\n`);
  });

  const meta = (version: string) => ({
    'io.modelcontextprotocol/protocolVersion': version,
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'modern', version: '1' },
  });

  it('negotiates the older revisions through initialize, as before', async () => {
    for (const version of ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25']) {
      const { replies } = await rawMcp(
        ['--root', root],
        [
          {
            jsonrpc: '2.0',
            id: 1,
            method: 'initialize',
            params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'old', version: '1' } },
          },
        ],
      );
      assert.equal(replies[0].result?.protocolVersion, version);
      assert.match(String(replies[0].result?.instructions), /^Lore is this project's memory/);
    }
    // The SDK client (1.32) asks for its newest, 2025-11-25, and gets the tools.
    const { client } = await connectLoreMcp(root);
    try {
      assert.equal((await client.listTools()).tools.length, 5);
    } finally {
      await client.close();
    }
  });

  it('serves 2026-07-28: server/discover, then requests that name the revision in _meta', async () => {
    const { replies, code } = await rawMcp(
      ['--root', root],
      [
        { jsonrpc: '2.0', id: 'discover', method: 'server/discover', params: { _meta: meta('2026-07-28') } },
        { jsonrpc: '2.0', id: 'list', method: 'tools/list', params: { _meta: meta('2026-07-28') } },
        {
          jsonrpc: '2.0',
          id: 'call',
          method: 'tools/call',
          params: { name: 'search', arguments: { query: 'esbuild' }, _meta: meta('2026-07-28') },
        },
        { jsonrpc: '2.0', id: 'read', method: 'resources/read', params: { uri: 'lore://knowledge/facts', _meta: meta('2026-07-28') } },
        { jsonrpc: '2.0', id: 'future', method: 'tools/list', params: { _meta: meta('2099-01-01') } },
      ],
    );
    assert.equal(code, 0);
    const byId = (id: string) => replies.find((r) => r.id === id)!;
    const discover = byId('discover').result!;
    assert.equal(discover.resultType, 'complete');
    assert.deepEqual(discover.supportedVersions, ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07']);
    assert.deepEqual(Object.keys(discover.capabilities as object).sort(), ['completions', 'extensions', 'prompts', 'resources', 'tools']);
    assert.deepEqual((discover._meta as Record<string, unknown>)['io.modelcontextprotocol/serverInfo'], { name: 'lore', version: '0.1.0' });
    assert.match(String(discover.instructions), /^Lore is this project's memory/);
    assert.equal(typeof discover.ttlMs, 'number');
    assert.equal(discover.cacheScope, 'public');

    const list = byId('list').result!;
    assert.equal(list.resultType, 'complete');
    assert.equal((list.tools as unknown[]).length, 5);
    assert.equal(typeof list.ttlMs, 'number');

    const call = byId('call').result!;
    assert.equal(call.resultType, 'complete');
    assert.equal((call.structuredContent as { items: unknown[] }).items.length, 1);
    assert.equal(call.ttlMs, undefined, 'tool results take no caching hints');

    const read = byId('read').result!;
    assert.deepEqual([read.resultType, read.ttlMs, read.cacheScope], ['complete', 0, 'private']);

    assert.deepEqual(byId('future').error, {
      code: -32022,
      message: 'Unsupported protocol version: 2099-01-01',
      data: { supported: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'], requested: '2099-01-01' },
    });
  });

  it('a legacy session gets no 2026-07-28 fields in its results', async () => {
    const { replies } = await rawMcp(
      ['--root', root],
      [
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'old', version: '1' } },
        },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      ],
    );
    const list = replies.find((r) => r.id === 2)!.result!;
    assert.equal((list.tools as unknown[]).length, 5);
    assert.equal(list.resultType, undefined);
    assert.equal(list.ttlMs, undefined);
  });
});

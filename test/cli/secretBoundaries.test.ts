/**
 * Secrets at every boundary: a conversation full of credentials waits in the inbox, and none of
 * them may come out of `lore search`, the `.index/` files, an MCP reply, the reply cache, the
 * knowledge files, the ledger or an embedding request. Ids and file names included.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { connectLoreMcp } from '../helpers/mcpClient';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createEmbedder } from '../../src/core/services/search/embeddings';
import { SearchIndex } from '../../src/core/services/search/searchIndex';
import { storePaths } from '../../src/core/store/storePaths';
import { redactSecrets } from '../../src/core/model/safety/redact';
import { ALNUM, LOWER, URLSAFE, cat, fake, secretSamples, type SecretSample } from '../core/safety/secretSamples';
import { makeTempDir } from '../helpers/paths';
import { makeWorkspace, runCli, transcript } from '../helpers/cli';
import { startEmbeddingStub } from '../helpers/embeddingStubs';
import { startStub } from '../helpers/stubServers';

const samples = secretSamples();
/** A secret used as a conversation's file name and session id. */
const secretName = cat('glpat-', fake(URLSAFE.replace(/[-_]/g, ''), 24));

/** One line per sample, each with the word "credential" to search for. */
function conversationBody(): string {
  return samples.map((s, i) => `credential ${i}: ${s.text.replace(/\n/g, ' ')}`).join('\n\n');
}

/** Every file under `dir`, as raw bytes. */
function rawFiles(dir: string): Array<{ file: string; bytes: Buffer }> {
  const out: Array<{ file: string; bytes: Buffer }> = [];
  const walk = (d: string) => {
    if (!fs.existsSync(d)) return;
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) walk(full);
      else out.push({ file: full, bytes: fs.readFileSync(full) });
    }
  };
  walk(dir);
  return out;
}

/** Fails naming the secret and where it leaked. */
function assertNoSecrets(where: string, text: string | Buffer): void {
  const haystack = Buffer.isBuffer(text) ? text : Buffer.from(text);
  for (const s of samples) assert.ok(!haystack.includes(s.secret), `${where} leaks ${s.kind}: ${s.secret}`);
  assert.ok(!haystack.includes(secretName), `${where} leaks the secret file name / id`);
}

const textOf = (result: unknown): string =>
  ((result as CallToolResult).content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');

describe('secrets at every boundary', function () {
  this.timeout(60_000);

  it('lore search --category transcripts and the .index/ files hold none of them; the file name shows redacted', async () => {
    const { root, inbox } = await makeWorkspace();
    fs.writeFileSync(path.join(inbox, `${secretName}.md`), transcript(secretName, conversationBody()));
    const text = await runCli(['search', '--root', root, '--category', 'transcripts', '--limit', '500', 'credential']);
    assert.equal(text.code, 0, text.stderr);
    assert.ok(text.stdout.trim().split('\n').length >= 2, text.stdout);
    assertNoSecrets('lore search', text.stdout + text.stderr);
    assert.match(text.stdout, /\[from: REDACTED-gitlab-pat, 2026-11-20\] {2}inbox\/\[REDACTED:gitlab-pat\]\.md#[0-9a-f]{8}(:\d+)?$/m);
    const json = await runCli(['search', '--root', root, '--category', 'transcripts', '--limit', '500', '--json', 'credential']);
    assertNoSecrets('lore search --json', json.stdout);
    // Every kind left its marker in the index, so the chunks really held the samples.
    for (const s of samples) assert.ok(json.stdout.includes(`[REDACTED:${s.kind}]`), `no ${s.kind} marker in the results`);
    const files = rawFiles(path.join(root, '.index'));
    assert.ok(files.some((f) => f.file.endsWith('lore.sqlite')));
    for (const f of files) assertNoSecrets(f.file, f.bytes);
  });

  it('a harvest writes none to the knowledge files, the ledger or the reply cache, even past the 2,000-character cut', async () => {
    const stripe = cat('sk_', 'live_', fake(ALNUM, 24));
    const gitlab = cat('glpat-', fake(ALNUM, 20));
    // The key straddles character 2,000, where a reply field is cut: 9 of its characters before.
    const long = `${'x'.repeat(1990)} ${gitlab} tail`;
    const reply = JSON.stringify({
      facts: [{ statement: `billing uses ${stripe}` }, { statement: long }],
      decisions: [],
      tasks_done: [],
      tasks_open: [],
      questions: [],
      playbooks: [],
      files: [],
    });
    const stub = await startStub('openai', [{ reply }]);
    try {
      const { root, inbox } = await makeWorkspace();
      fs.writeFileSync(path.join(inbox, `${secretName}.md`), transcript(secretName, `We set up billing.\n\n${conversationBody()}`));
      const result = await runCli([
        'harvest',
        '--root',
        root,
        '--provider',
        'openai',
        '--base-url',
        stub.baseUrl,
        '--model',
        'stub-model',
        '--apply',
        '--reclaim',
        'keep',
      ]);
      assert.equal(result.code, 0, result.stderr + result.stdout);
      const facts = fs.readFileSync(path.join(root, 'facts.md'), 'utf8');
      assert.match(facts, /billing uses \[REDACTED:stripe-key\] \[from: REDACTED-gitlab-pat, 2026-11-20\]/);
      assert.match(facts, /- x{1990} \[from: /, 'the cut drops the marker it goes through');
      // Nor does the conversation's text reach the model provider.
      assert.ok(stub.requests.length >= 1);
      assertNoSecrets('the harvest request to the model', JSON.stringify(stub.requests));
      const cache = rawFiles(path.join(root, '.cache'));
      assert.ok(cache.length > 0, 'a reply was cached');
      for (const f of [...rawFiles(root).filter((f) => !f.file.startsWith(inbox)), ...cache]) {
        for (const secret of [stripe, gitlab, secretName, gitlab.slice(0, 9)])
          assert.ok(!f.bytes.includes(secret), `${f.file} holds ${secret}`);
      }
    } finally {
      await stub.close();
    }
  });

  it('a Claude Code session named by a glued key, with keys across the 120-character cut of its tool lines: none reaches the transcript, its name, provenance, the model, the cache or the undo record', async () => {
    // Every sample that is a secret by its own shape, without the context around it.
    const tokens = samples.filter((s) => !s.secret.includes('\n') && !redactSecrets(`deploy ${s.secret} --yes`).includes(s.secret));
    assert.ok(tokens.length >= 50, `${tokens.length} token samples`);
    const session = cat('sess-', samples.find((s) => s.kind === 'anthropic-key')!.secret);
    const dbPassword = fake(LOWER, 12);
    const records: object[] = [];
    const at = (s: number) => new Date(Date.UTC(2026, 10, 20, 9, 30, s)).toISOString();
    const base = { isSidechain: false, cwd: '/home/dev/shop', sessionId: session, version: '2.0.1' };
    records.push({
      ...base,
      type: 'user',
      uuid: 'u0',
      timestamp: at(0),
      message: { role: 'user', content: `Deploy it. DB_PASSWORD=${dbPassword} is in the vault.` },
    });
    tokens.forEach((s, i) => {
      // The tool line keeps 120 characters of the command: 11 of the key's fall before the cut.
      const command = `deploy ${'a'.repeat(100)} ${s.secret} --yes`;
      records.push({
        ...base,
        type: 'assistant',
        uuid: `a${i}`,
        timestamp: at(1),
        message: {
          id: `m${i}`,
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content: [{ type: 'tool_use', id: `t${i}`, name: 'Bash', input: { command } }],
        },
      });
      records.push({
        ...base,
        type: 'user',
        uuid: `r${i}`,
        timestamp: at(2),
        message: { role: 'user', content: [{ tool_use_id: `t${i}`, type: 'tool_result', content: 'ok' }] },
      });
    });
    records.push({
      ...base,
      type: 'assistant',
      uuid: 'end',
      timestamp: at(3),
      message: { id: 'mEnd', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'Deployed.' }] },
    });
    const dir = makeTempDir('lore-sessions-');
    const file = path.join(dir, `${session}.jsonl`);
    fs.writeFileSync(file, records.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const old = new Date(Date.now() - 3_600_000);
    fs.utimesSync(file, old, old);
    const reply = JSON.stringify({
      facts: [{ statement: `the database password is set as DB_PASSWORD=${dbPassword}` }],
      decisions: [],
      tasks_done: [],
      tasks_open: [],
      questions: [],
      playbooks: [],
      files: [],
    });
    const stub = await startStub('openai', [{ reply }]);
    try {
      // A store that is its own git repository: Lore commits the apply.
      const root = path.join(makeTempDir('lore-git-'), 'kb');
      assert.equal((await runCli(['init', '--root', root, '--git'])).code, 0);
      const result = await runCli([
        'harvest',
        '--root',
        root,
        '--from',
        file,
        '--provider',
        'openai',
        '--base-url',
        stub.baseUrl,
        '--model',
        'stub-model',
        '--apply',
      ]);
      assert.equal(result.code, 0, result.stderr + result.stdout);
      const stored = rawFiles(path.join(root, 'transcripts'));
      assert.equal(stored.length, 1, 'one transcript');
      assert.match(path.basename(stored[0].file), /sess-REDACTED-anthropic-key/);
      const text = stored[0].bytes.toString('utf8');
      // Every call is there, cut where its marker would have begun.
      assert.equal(text.match(/\[tool:Bash\] deploy a{100}…$/gm)?.length, tokens.length, text);
      assert.match(
        fs.readFileSync(path.join(root, 'facts.md'), 'utf8'),
        /DB_PASSWORD=\[REDACTED:env-secret\] \[from: sess-REDACTED-anthropic-key, 2026-11-20\]/,
      );
      const leaks = (where: string, bytes: Buffer | string) => {
        const haystack = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes);
        for (const s of tokens)
          assert.ok(!haystack.includes(s.secret.slice(0, 11)), `${where} holds the front of ${s.kind}: ${s.secret.slice(0, 11)}`);
        for (const secret of [session.slice(5), dbPassword]) assert.ok(!haystack.includes(secret), `${where} holds ${secret}`);
      };
      leaks('the model request', JSON.stringify(stub.requests));
      // known-files.json maps the paths of session files on this machine to their hashes (a stat
      // cache, never committed, never read by an agent): the session's own path is its key.
      const files = rawFiles(root).filter((f) => path.basename(f.file) !== 'known-files.json');
      for (const f of files) leaks(f.file, f.bytes);
      for (const f of files) leaks(`the name ${f.file}`, path.relative(root, f.file));
      const history = spawnSync('git', ['-C', root, 'log', '--all', '-p', '--name-status', '--format=%H%n%B'], { encoding: 'utf8' });
      assert.equal(history.status, 0, history.stderr);
      assert.match(history.stdout, /transcripts\/2026\/11\/20\/\d{4}-sess-REDACTED-anthropic-key/, 'the apply was committed');
      leaks('the git history', history.stdout);
    } finally {
      await stub.close();
    }
  });

  for (const reclaim of ['delete', 'archive'] as const) {
    it(`an inbox file named by a glued key (${reclaim} reclaim): no name and no record in the store holds the key, and undo puts its bytes back under the redacted name`, async () => {
      const key = samples.find((s) => s.kind === 'github-pat')!.secret;
      const { root, inbox } = await makeWorkspace();
      const bytes = transcript(`sess-${key}`, 'Fact: the deploy runs nightly.');
      fs.writeFileSync(path.join(inbox, `id_${key}.md`), bytes);
      const harvest = await runCli(['harvest', '--root', root, '--apply', '--reclaim', reclaim]);
      assert.equal(harvest.code, 0, harvest.stderr + harvest.stdout);
      assertNoSecrets('lore harvest', harvest.stdout + harvest.stderr);
      assert.ok(!fs.existsSync(path.join(inbox, `id_${key}.md`)), 'reclaimed');
      // The raw copy (.undo/inbox for a delete, archive/ for an archive) keeps the conversation's
      // bytes, as the inbox did; only its name changes.
      const raw = (f: string) => f.includes(`${path.sep}.undo${path.sep}inbox${path.sep}`) || f.includes(`${path.sep}archive${path.sep}`);
      const files = rawFiles(root);
      assert.equal(files.filter((f) => raw(f.file)).length, 1, 'one raw copy');
      for (const f of files) {
        assert.ok(!path.relative(root, f.file).includes(key), `a file is named by the key: ${f.file}`);
        if (!raw(f.file)) assert.ok(!f.bytes.includes(key), `${f.file} holds the key`);
      }
      assert.match(
        fs.readFileSync(path.join(root, 'facts.md'), 'utf8'),
        /the deploy runs nightly\. \[from: sess-REDACTED-github-pat, 2026-11-20\]/,
      );
      const ledger = JSON.parse(fs.readFileSync(path.join(root, 'ledger.json'), 'utf8')) as {
        entries: Record<string, { archived?: string }>;
      };
      const archived = Object.values(ledger.entries).find((e) => e.archived)?.archived;
      if (reclaim === 'archive')
        assert.ok(archived && fs.existsSync(path.resolve(root, archived)), `the ledger names the archived copy where it is: ${archived}`);
      const undo = await runCli(['undo', '--root', root]);
      assert.equal(undo.code, 0, undo.stderr + undo.stdout);
      assert.deepEqual(
        fs.readdirSync(inbox).filter((f) => f.endsWith('.md')),
        ['id_REDACTED-github-pat.md'],
      );
      assert.equal(fs.readFileSync(path.join(inbox, 'id_REDACTED-github-pat.md'), 'utf8'), bytes);
    });
  }

  it('a hook copying a session whose id is a glued key names the inbox copy redacted', async () => {
    const key = samples.find((s) => s.kind === 'anthropic-key')!.secret;
    const session = `sess-${key}`;
    const { ws, inbox } = await makeWorkspace();
    const home = makeTempDir('lore-home-');
    const file = path.join(home, '.claude', 'projects', ws.replace(/[^A-Za-z0-9]/g, '-'), `${session}.jsonl`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const at = new Date(Date.UTC(2026, 10, 20, 9, 30)).toISOString();
    fs.writeFileSync(
      file,
      JSON.stringify({
        type: 'user',
        uuid: 'u0',
        timestamp: at,
        sessionId: session,
        cwd: ws,
        message: { role: 'user', content: 'Fact: the cache is warm.' },
      }) + '\n',
    );
    const input = {
      session_id: session,
      transcript_path: file,
      cwd: ws,
      permission_mode: 'default',
      hook_event_name: 'SessionEnd',
      reason: 'prompt_input_exit',
    };
    const env = { HOME: home, CLAUDE_CONFIG_DIR: '', XDG_CONFIG_HOME: '', XDG_DATA_HOME: '', LORE_ROOT: '' };
    const result = await runCli(['hook'], { cwd: ws, env, input: JSON.stringify(input) });
    assert.equal(result.code, 0, result.stderr);
    const copies = fs.readdirSync(inbox);
    assert.equal(copies.length, 1, copies.join());
    assert.match(copies[0], /^claude-sess-REDACTED-anthropic-key-[0-9a-f]{8}-[0-9a-f]{12}\.jsonl$/);
  });

  it('items cut for an agent or the harvest model (search, recall, the existing items shown to the model) are redacted before the cut', async () => {
    const jwt = samples.find((s) => s.kind === 'jwt')!.secret;
    const npm = samples.find((s) => s.kind === 'npm-token')!.secret;
    const front = jwt.slice(0, 20);
    const { root, inbox } = await makeWorkspace();
    // The key starts 20 characters before the 300-character cut, glued to the words before it.
    const long = `release bot notes ${'x'.repeat(262)}:${jwt}`;
    fs.writeFileSync(
      path.join(root, 'facts.md'),
      `# Facts\n\n- release bot publishes with ${npm} [from: manual, 2026-11-20]\n- ${long} [from: manual, 2026-11-20]\n`,
    );
    const { client } = await connectLoreMcp(root);
    try {
      const search = (await client.callTool({ name: 'search', arguments: { query: 'release bot notes' } })) as CallToolResult;
      assert.ok(!search.isError, textOf(search));
      assert.match(textOf(search), /release/, textOf(search));
      const recall = (await client.callTool({
        name: 'search',
        arguments: { query: 'release bot notes', max_tokens: 4000 },
      })) as CallToolResult;
      for (const [where, reply] of [
        ['MCP search', search],
        ['MCP recall', recall],
      ] as const) {
        const text = textOf(reply) + JSON.stringify(reply.structuredContent);
        assert.ok(!text.includes(front), `${where} holds the front of the JWT: ${front}`);
        assert.ok(!text.includes(npm), `${where} holds the npm token`);
      }
    } finally {
      await client.close();
    }
    const reply = JSON.stringify({
      facts: [{ statement: 'the release bot runs nightly' }],
      decisions: [],
      tasks_done: [],
      tasks_open: [],
      questions: [],
      playbooks: [],
      files: [],
    });
    const stub = await startStub('openai', [{ reply }]);
    try {
      fs.writeFileSync(path.join(inbox, 'bot.md'), transcript('bot', 'The release bot notes say the release bot publishes nightly.'));
      const result = await runCli([
        'harvest',
        '--root',
        root,
        '--provider',
        'openai',
        '--base-url',
        stub.baseUrl,
        '--model',
        'stub-model',
        '--apply',
      ]);
      assert.equal(result.code, 0, result.stderr + result.stdout);
      const requests = JSON.stringify(stub.requests);
      assert.match(requests, /release bot publishes with \[REDACTED:npm-token\]/, 'the existing items were shown to the model');
      assert.ok(!requests.includes(npm) && !requests.includes(front), 'the model request holds a key');
    } finally {
      await stub.close();
    }
  });

  it('MCP tool replies carry none: search for words, notes on a file, the digest, items by id, remember with a secret session', async () => {
    const { root, inbox } = await makeWorkspace();
    fs.writeFileSync(path.join(inbox, `${secretName}.md`), transcript(secretName, conversationBody()));
    // A hand edit that put a key into facts.md: the digest read by an agent must not show it.
    const handKey = samples.find((s) => s.kind === 'npm-token')!;
    fs.writeFileSync(path.join(root, 'facts.md'), `# Facts\n\n- publish with ${handKey.text} [from: manual, 2026-11-20]\n`);
    const { client } = await connectLoreMcp(root);
    try {
      const call = (name: string, args: Record<string, unknown> = {}) =>
        client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
      const search = await call('search', { query: 'credential', category: 'transcripts', limit: 100 });
      assert.ok(!search.isError, textOf(search));
      assert.match(textOf(search), /\[REDACTED:/);
      assertNoSecrets('MCP search', textOf(search) + JSON.stringify(search.structuredContent));
      const recall = await call('search', { query: 'credential', max_tokens: 20000 });
      assertNoSecrets('MCP recall', textOf(recall) + JSON.stringify(recall.structuredContent));
      const digest = await call('search');
      assert.match(textOf(digest), /publish with npm token \[REDACTED:npm-token\]/);
      assertNoSecrets('MCP digest', textOf(digest) + JSON.stringify(digest.structuredContent));
      const added = await call('remember', {
        kind: 'fact',
        statement: `deploys read ${samples[0].text.replace(/\n/g, ' ')}`,
        session: secretName,
      });
      assert.ok(!added.isError, textOf(added));
      assert.match(textOf(added), /\[from: lore-test:REDACTED-gitlab-pat, \d{4}-\d{2}-\d{2}\]/);
      assertNoSecrets('MCP remember', textOf(added) + JSON.stringify(added.structuredContent));
      assertNoSecrets('review.md after remember', fs.readFileSync(path.join(root, 'review.md'), 'utf8'));
      const got = await call('search', { ids: [(added.structuredContent as { id: string }).id] });
      assert.match(textOf(got), /pending/);
      assertNoSecrets('MCP search by ids', textOf(got) + JSON.stringify(got.structuredContent));
    } finally {
      await client.close();
    }
  });

  it('secrets a person wrote into facts.md reach neither digest.md, nor the AGENTS.md block, nor lore context', async () => {
    // Every sample, in batches that fit the digest's 4 KB, so each kind is seen in every output.
    const batches: SecretSample[][] = [[]];
    let size = 0;
    for (const s of samples) {
      if (size + s.text.length > 2000 && batches[batches.length - 1].length) {
        batches.push([]);
        size = 0;
      }
      batches[batches.length - 1].push(s);
      size += s.text.length + 60;
    }
    const { ws, root } = await makeWorkspace();
    for (const batch of batches) {
      const items = batch.map((s, i) => `- hand note ${i}: ${s.text.replace(/\n/g, ' ')} [from: manual, 2026-11-20]`);
      fs.writeFileSync(path.join(root, 'facts.md'), `# Facts\n\n${items.join('\n')}\n`);
      const digest = await runCli(['digest', '--root', root]);
      assert.equal(digest.code, 0, digest.stderr);
      const onDisk = fs.readFileSync(path.join(root, 'digest.md'), 'utf8');
      assertNoSecrets('digest.md', onDisk);
      assertNoSecrets('lore digest', digest.stdout);
      for (const s of batch) assert.ok(onDisk.includes(`[REDACTED:${s.kind}]`), `digest.md shows no ${s.kind} marker:\n${onDisk}`);
      const sync = await runCli(['sync', '--root', root, 'AGENTS.md'], { cwd: ws });
      assert.equal(sync.code, 0, sync.stderr);
      assertNoSecrets('the AGENTS.md block', fs.readFileSync(path.join(ws, 'AGENTS.md')));
      const context = await runCli(['context', '--root', root, '--message', 'hand note'], { cwd: ws });
      assert.equal(context.code, 0, context.stderr);
      assertNoSecrets('lore context', context.stdout);
    }
    // digest.md edited by hand (or written by an older Lore) still reaches AGENTS.md redacted.
    const handKey = samples.find((s) => s.kind === 'github-pat')!;
    fs.appendFileSync(path.join(root, 'digest.md'), `- pasted ${handKey.text}\n`);
    assert.equal((await runCli(['sync', '--root', root, 'AGENTS.md'], { cwd: ws })).code, 0);
    const agents = fs.readFileSync(path.join(ws, 'AGENTS.md'), 'utf8');
    assertNoSecrets('the AGENTS.md block after a hand edit of digest.md', agents);
    assert.match(agents, /\[REDACTED:github-pat\]/);
  });

  it('an embedding request carries none, for documents and for queries', async () => {
    const stub = await startEmbeddingStub('openai');
    const { root, inbox } = await makeWorkspace();
    fs.writeFileSync(path.join(inbox, `${secretName}.md`), transcript(secretName, conversationBody()));
    const index = SearchIndex.open(storePaths(root), { embedder: createEmbedder({ provider: 'openai', baseUrl: stub.baseUrl, env: {} }) });
    try {
      const key = samples.find((s) => s.kind === 'huggingface-token')!;
      const response = await index.search(`credential ${key.secret}`, { categories: ['transcripts'] });
      assert.equal(response.mode, 'hybrid', response.modeReason);
      assert.ok(stub.requests.length >= 2, 'documents and the query were embedded');
      assertNoSecrets('embedding requests', JSON.stringify(stub.requests));
      assert.match(JSON.stringify(stub.requests), /REDACTED:huggingface-token/);
    } finally {
      index.close();
      await stub.close();
    }
  });
});

/**
 * Private spans at every boundary: text between `<private>` and `</private>` (and a pair set in
 * config.json) never reaches the model, the stored transcript, the reply cache, the knowledge
 * files, the search index, or the inbox copy a hook makes.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeWorkspace, runCli, transcript } from '../helpers/cli';
import { FIXTURES, makeTempDir } from '../helpers/paths';
import { startStub } from '../helpers/stubServers';

/** Words that only the private spans hold. */
const SECRET_A = 'zebrafalcon';
const SECRET_B = 'orcaquartz';
const SECRET_C = 'lynxemerald';

/** A conversation with one span of each pair, and one never closed (it spills to the end of its message only). */
const BODY = [
  `We chose Postgres. <private>the budget is ${SECRET_A}</private> It runs on port 5432.`,
  `Our pair: [[hide]]${SECRET_B} contract[[/hide]] done.`,
  `Last words <private>${SECRET_C} never closed`,
].join('\n\n');

function filesUnder(dir: string): Array<{ file: string; bytes: Buffer }> {
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

function assertNoPrivate(where: string, data: string | Buffer): void {
  const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data);
  for (const word of [SECRET_A, SECRET_B, SECRET_C]) assert.ok(!bytes.includes(word), `${where} holds ${word}`);
}

async function storeWithPair() {
  const made = await makeWorkspace();
  fs.writeFileSync(path.join(made.root, 'config.json'), JSON.stringify({ privateMarkers: { open: '[[hide]]', close: '[[/hide]]' } }));
  return made;
}

describe('private spans at every boundary', function () {
  this.timeout(60_000);

  it('a harvest sends none to the model, and writes none to the transcript, the reply cache or the knowledge files', async () => {
    // A model that repeats what it read: anything private it received would come back as a fact.
    const stub = await startStub('openai', [], {
      whenExhausted: (_body, request) => ({
        reply: JSON.stringify({
          facts: [{ statement: `heard: ${request.prompt.user.replace(/\s+/g, ' ').slice(-1500)}` }],
          decisions: [],
          tasks_done: [],
          tasks_open: [],
          questions: [],
          playbooks: [],
          files: [],
        }),
      }),
    });
    try {
      const { root, inbox } = await storeWithPair();
      fs.writeFileSync(path.join(inbox, 'sess-private.md'), transcript('sess-private', BODY));
      const preview = await runCli([
        'harvest',
        '--root',
        root,
        '--provider',
        'openai',
        '--base-url',
        stub.baseUrl,
        '--model',
        'stub-model',
        '--preview',
      ]);
      assert.equal(preview.code, 0, preview.stderr + preview.stdout);
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
      assert.ok(stub.requests.length >= 1);
      const sent = JSON.stringify(stub.requests.map((r) => r.body));
      assert.match(sent, /We chose Postgres\. \[private\] It runs on port 5432/);
      assert.match(sent, /Our pair: \[private\] done/);
      assertNoPrivate('the request to the model', sent);
      const facts = fs.readFileSync(path.join(root, 'facts.md'), 'utf8');
      assert.match(facts, /heard: .*It runs on port 5432/, 'the echoing model answered from what it was sent');
      const transcripts = filesUnder(path.join(root, 'transcripts'));
      assert.equal(transcripts.length, 1);
      assert.match(transcripts[0].bytes.toString('utf8'), /Last words \[private\]/);
      const cache = filesUnder(path.join(root, '.cache', 'replies'));
      assert.ok(cache.length > 0, 'the reply was cached');
      // Nothing Lore wrote holds a private word (the person's own inbox file, reclaimed, waits in .undo/inbox as it was).
      for (const f of filesUnder(root).filter((f) => !path.relative(root, f.file).startsWith(path.join('.undo', 'inbox')))) {
        assertNoPrivate(path.relative(root, f.file), f.bytes);
      }
    } finally {
      await stub.close();
    }
  });

  it('lore search finds the words around a span, never the span, and the index files hold none', async () => {
    const { root, inbox } = await storeWithPair();
    fs.writeFileSync(path.join(inbox, 'sess-private.md'), transcript('sess-private', BODY));
    const found = await runCli(['search', '--root', root, '--category', 'transcripts', 'Postgres']);
    assert.equal(found.code, 0, found.stderr);
    assert.match(found.stdout, /sess-private/);
    for (const word of [SECRET_A, SECRET_C]) {
      const hit = await runCli(['search', '--root', root, '--category', 'transcripts', '--json', word]);
      assert.deepEqual(JSON.parse(hit.stdout).hits, [], hit.stdout);
    }
    const index = filesUnder(path.join(root, '.index'));
    assert.ok(index.length > 0);
    for (const f of index) for (const word of [SECRET_A, SECRET_C]) assert.ok(!f.bytes.includes(word), `${f.file} holds ${word}`);
  });

  it('a hook copies a session into the inbox without its private spans, still readable as the same session', async () => {
    const { ws, root, inbox } = await storeWithPair();
    const home = makeTempDir('lore-home-');
    const session = 'a7c1e2f0-1111-4222-8333-944455556666';
    const file = path.join(home, '.claude', 'projects', ws.replace(/[^A-Za-z0-9]/g, '-'), `${session}.jsonl`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const raw = fs
      .readFileSync(path.join(FIXTURES, 'conversations', 'claude-session.jsonl'), 'utf8')
      .replace('Please find out why.', `Please find out why. <private>${SECRET_A}</private> [[hide]]${SECRET_B}[[/hide]] thanks`);
    assert.ok(raw.includes(SECRET_A));
    fs.writeFileSync(file, raw);
    const env = { HOME: home, CLAUDE_CONFIG_DIR: '', XDG_CONFIG_HOME: '', XDG_DATA_HOME: '', LORE_ROOT: '' };
    const input = { session_id: session, transcript_path: file, cwd: ws, hook_event_name: 'SessionEnd', reason: 'exit' };
    const hook = await runCli(['hook'], { cwd: ws, env, input: JSON.stringify(input) });
    assert.equal(hook.code, 0, hook.stderr);
    const copies = fs.readdirSync(inbox);
    assert.equal(copies.length, 1);
    const copy = fs.readFileSync(path.join(inbox, copies[0]), 'utf8');
    assertNoPrivate('the inbox copy', copy);
    assert.match(copy, /Please find out why\. \[private\] \[private\] thanks/);
    // Record for record: only the one with the spans changed, and it is still JSON, so the importer
    // reads the copy as the Claude Code session it is.
    const before = raw.split('\n');
    const after = copy.split('\n');
    assert.equal(after.length, before.length);
    const changed = after.filter((line, i) => line !== before[i]);
    assert.equal(changed.length, 1);
    assert.equal(
      JSON.parse(changed[0]).message.content,
      'The login test fails about one run in five. Please find out why. [private] [private] thanks',
    );
    const dry = await runCli(['harvest', '--root', root, '--json']);
    assert.equal(dry.code, 0, dry.stderr);
    const report = JSON.parse(dry.stdout);
    assert.equal(report.conversations[0].format, 'claude-code');
    assert.ok(report.conversations[0].turns > 0);
  });

  it("a prompt's private span names no file for the hook's context: its notes stay out", async () => {
    const { ws, root } = await storeWithPair();
    fs.writeFileSync(path.join(ws, 'src', 'billing.ts'), 'export const billing = 1;\n');
    assert.equal((await runCli(['note', 'src/app.ts', 'app.ts is the entry point', '--root', root], { cwd: ws })).code, 0);
    assert.equal((await runCli(['note', 'src/billing.ts', 'billing.ts talks to the bank', '--root', root], { cwd: ws })).code, 0);
    const input = {
      session_id: 's1',
      cwd: ws,
      hook_event_name: 'UserPromptSubmit',
      prompt: 'Refactor src/app.ts. <private>also src/billing.ts</private> [[hide]]and src/billing.ts[[/hide]]',
    };
    const result = await runCli(['hook'], {
      cwd: ws,
      env: { LORE_ROOT: '', LORE_SEARCH_BACKEND: '', LORE_EMBED_PROVIDER: '' },
      input: JSON.stringify(input),
    });
    assert.equal(result.code, 0, result.stderr);
    const context = JSON.parse(result.stdout).hookSpecificOutput.additionalContext as string;
    assert.match(context, /app\.ts is the entry point/);
    assert.ok(!context.includes('billing'), context);
  });
});

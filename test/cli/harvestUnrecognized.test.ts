import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeWorkspace, runCli, transcript } from '../helpers/cli';
import { FIXTURES } from '../helpers/paths';
import { startStub, type StubServer } from '../helpers/stubServers';

const UNSUPPORTED = path.join(FIXTURES, 'conversations', 'unsupported');
const GEMINI = 'logs.json';
const BOT_LOG = 'support-bot-log.jsonl';

function ledger(root: string): Record<string, any> {
  return JSON.parse(fs.readFileSync(path.join(root, 'ledger.json'), 'utf8')).entries;
}

function sha256(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** A workspace whose inbox holds a Gemini CLI prompt log and a JSONL look-alike. */
async function inboxWithLookAlikes() {
  const ws = await makeWorkspace();
  const gemini = path.join(ws.inbox, GEMINI);
  const bot = path.join(ws.inbox, BOT_LOG);
  fs.copyFileSync(path.join(UNSUPPORTED, 'gemini-cli', GEMINI), gemini);
  fs.copyFileSync(path.join(UNSUPPORTED, BOT_LOG), bot);
  return { ...ws, gemini, bot };
}

describe('lore harvest: conversations no importer reads', function () {
  this.timeout(60_000);
  let stub: StubServer | undefined;
  afterEach(async () => {
    await stub?.close();
    stub = undefined;
  });

  it('two copies of a file no importer reads: the dry run counts neither as reclaimable, and --apply keeps both, as it said', async () => {
    const { root, inbox, bot } = await inboxWithLookAlikes();
    fs.rmSync(path.join(inbox, GEMINI));
    const copy = path.join(inbox, 'copy-of-bot.jsonl');
    fs.copyFileSync(bot, copy);
    const dry = await runCli(['harvest', '--root', root]);
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, /conversations: duplicate:1, unrecognized:1\n/);
    assert.doesNotMatch(dry.stdout, /reclaimable now/);
    // The inbox is read in name order: the copy comes first, so the log is the duplicate.
    assert.ok(dry.stdout.includes(`kept (same content as ${copy}, which is not harvested): ${bot}`), dry.stdout);

    const applied = await runCli(['harvest', '--root', root, '--apply']);
    assert.match(applied.stdout, /reclaimed: 0 conversation\(s\)/);
    assert.ok(fs.existsSync(bot) && fs.existsSync(copy), 'both copies are still in the inbox');

    // A copy of a conversation that is harvested goes with it, as the dry run counts it.
    fs.writeFileSync(path.join(inbox, 'c1.md'), transcript('c1', 'We chose esbuild for bundling.'));
    fs.copyFileSync(path.join(inbox, 'c1.md'), path.join(inbox, 'c1-copy.md'));
    assert.match((await runCli(['harvest', '--root', root])).stdout, /reclaimable now \(already harvested\): 1 /);
    const again = await runCli(['harvest', '--root', root, '--apply']);
    assert.match(again.stdout, /reclaimed: 2 conversation\(s\)/);
    assert.deepEqual(fs.readdirSync(inbox).sort(), ['copy-of-bot.jsonl', BOT_LOG].sort());
  });

  it('--apply keeps them in the inbox, records them unrecognized, writes no knowledge and names them with a reason', async () => {
    const { root, gemini, bot } = await inboxWithLookAlikes();
    const facts = fs.readFileSync(path.join(root, 'facts.md'), 'utf8');
    // The dry run says what --apply will: not read, and why, in the same words.
    const dry = JSON.parse((await runCli(['harvest', '--root', root, '--json'])).stdout);
    const said = new Map<string, any>(dry.conversations.map((c: any) => [c.path, c]));
    const result = await runCli(['harvest', '--root', root, '--apply']);
    assert.equal(result.code, 1, result.stderr + result.stdout);
    assert.ok(fs.existsSync(gemini) && fs.existsSync(bot), 'both files are still in the inbox');
    assert.equal(fs.readFileSync(path.join(root, 'facts.md'), 'utf8'), facts);
    const geminiLines = fs.readFileSync(gemini, 'utf8').trimEnd().split('\n').length;
    const geminiReason = `looks like a Gemini CLI prompt log (logs.json), which Lore does not read yet (detected as Claude Code JSONL, but 0 of ${geminiLines} lines were Claude Code JSONL records)`;
    assert.ok(result.stdout.includes(`problem: ${gemini}: not harvested, kept: ${geminiReason}`), result.stdout);
    assert.ok(
      result.stdout.includes(
        `problem: ${bot}: not harvested, kept: not a supported conversation format: detected as Claude Code JSONL, but 0 of 15 lines were Claude Code JSONL records`,
      ),
      result.stdout,
    );
    assert.match(result.stdout, /reclaimed: 0 conversation\(s\)/);
    // lore init's digest, only its header, goes: there is nothing to show.
    assert.match(result.stdout, /No new items; the digest has no items to show, so it was removed\./);
    assert.ok(!fs.existsSync(path.join(root, 'digest.md')));
    const entries = ledger(root);
    for (const file of [gemini, bot]) {
      const entry = entries[sha256(fs.readFileSync(file))];
      assert.equal(entry.status, 'unrecognized', file);
      assert.deepEqual([said.get(file).class, said.get(file).reason], ['unrecognized', entry.error]);
      assert.equal(entry.deleted, false);
      assert.equal(entry.items, undefined);
      assert.match(entry.error, /not a supported conversation format|does not read yet/);
    }
  });

  it('--json lists them with status and reason, and so does every later run, its dry run too', async () => {
    const { root, gemini, bot } = await inboxWithLookAlikes();
    await runCli(['harvest', '--root', root, '--apply']);
    const again = await runCli(['harvest', '--root', root, '--apply', '--json']);
    assert.equal(again.code, 1, again.stderr);
    const json = JSON.parse(again.stdout);
    const byPath = new Map<string, any>(json.conversations.map((c: any) => [c.path, c]));
    for (const file of [gemini, bot]) {
      assert.equal(byPath.get(file).status, 'unrecognized');
      assert.equal(byPath.get(file).reclaim, undefined);
      assert.match(byPath.get(file).error, /Claude Code JSONL records/);
      assert.ok(json.problems.some((p: any) => p.path === file && p.message.startsWith('not harvested, kept: ')));
      assert.ok(fs.existsSync(file));
    }
    assert.deepEqual(json.reclaimed, []);
    const dry = await runCli(['harvest', '--root', root]);
    assert.equal(dry.code, 0, dry.stderr);
    assert.ok(dry.stdout.includes(`not read (kept, never sent): ${gemini}: looks like a Gemini CLI prompt log`), dry.stdout);
  });

  it("a file of a known format holding no turns: the dry run's --json classes it unrecognized with the reason, outside what it would harvest", async () => {
    const { root, inbox } = await makeWorkspace();
    // An Aider history with only its start banner, a Claude Code session whose one record has no text.
    const aider = path.join(inbox, '.aider.chat.history.md');
    fs.writeFileSync(aider, '# aider chat started at 2025-01-01 10:00:00\n\n> Aider v0.86.1\n> Main model: gpt-4o\n');
    const claude = path.join(inbox, 'empty-session.jsonl');
    const record = { type: 'user', message: { role: 'user', content: '' }, sessionId: 's1', timestamp: '2026-01-01T00:00:00Z', uuid: 'u1' };
    fs.writeFileSync(claude, JSON.stringify(record) + '\n');
    const readable = transcript('c1', 'We talked about the time zone bug.');
    fs.writeFileSync(path.join(inbox, 'c1.md'), readable);
    const run = await runCli(['harvest', '--root', root, '--json']);
    assert.equal(run.code, 0, run.stderr);
    const dry = JSON.parse(run.stdout);
    const byPath = new Map<string, any>(dry.conversations.map((c: any) => [c.path, c]));
    assert.deepEqual(
      [aider, claude].map((file) => [byPath.get(file).class, byPath.get(file).turns, byPath.get(file).reason]),
      [
        ['unrecognized', 0, 'read as Aider chat history, but it holds no conversation turns'],
        ['unrecognized', 0, 'read as Claude Code JSONL, but it holds no conversation turns'],
      ],
    );
    assert.equal(dry.counts.unrecognized, 2);
    assert.equal(dry.counts.harvest, 1, 'only the readable conversation would be harvested');
    assert.equal(dry.harvestBytes, byPath.get(path.join(inbox, 'c1.md')).renderedBytes);
    // The text output gives the same reason.
    const text = await runCli(['harvest', '--root', root]);
    assert.ok(
      text.stdout.includes(`not read (kept, never sent): ${aider}: read as Aider chat history, but it holds no conversation turns`),
    );
  });

  it('never sends them to the model, and harvests the readable conversation next to them', async () => {
    const { root, inbox, gemini, bot } = await inboxWithLookAlikes();
    fs.writeFileSync(path.join(inbox, 'c1.md'), transcript('c1', 'We talked about the time zone bug.'));
    const reply = JSON.stringify({
      facts: [{ statement: 'CI runs in UTC+2.', detail: '' }],
      decisions: [],
      tasks_done: [],
      tasks_open: [],
      questions: [],
      playbooks: [],
      files: [],
    });
    stub = await startStub('openai', [{ reply }]);
    const result = await runCli([
      'harvest',
      '--root',
      root,
      '--apply',
      '--provider',
      'openai',
      '--base-url',
      stub.baseUrl,
      '--model',
      'stub-model',
    ]);
    assert.equal(result.code, 1, result.stderr + result.stdout);
    assert.equal(stub.requests.length, 1);
    assert.match(stub.requests[0].prompt.user, /^Conversation: c1\n/);
    assert.match(fs.readFileSync(path.join(root, 'facts.md'), 'utf8'), /- CI runs in UTC\+2\. \[from: c1, 2026-11-20\]/);
    assert.ok(!fs.existsSync(path.join(inbox, 'c1.md')), 'the readable conversation is reclaimed');
    assert.ok(fs.existsSync(gemini) && fs.existsSync(bot));
  });

  it('an unrecognized record does not stop a later harvest of the same content', async () => {
    // As if an older Lore had refused this content: a newer one (with the importer) reads it.
    const { root, inbox } = await makeWorkspace();
    const conv = path.join(inbox, 'c1.md');
    const text = transcript('c1', 'Fact: the parser builds dates in UTC.');
    fs.writeFileSync(conv, text);
    const at = '2026-01-01T00:00:00.000Z';
    const entries = {
      [sha256(text)]: { at, deleted: false, error: 'not a supported conversation format', path: conv, status: 'unrecognized' },
    };
    fs.writeFileSync(path.join(root, 'ledger.json'), JSON.stringify({ entries }, null, 2) + '\n');
    const result = await runCli(['harvest', '--root', root, '--apply']);
    assert.equal(result.code, 0, result.stderr + result.stdout);
    assert.match(fs.readFileSync(path.join(root, 'facts.md'), 'utf8'), /- the parser builds dates in UTC\. \[from: c1/);
    assert.equal(ledger(root)[sha256(text)].status, 'harvested');
    assert.ok(!fs.existsSync(conv));
  });
});

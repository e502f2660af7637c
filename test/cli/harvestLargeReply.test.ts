/**
 * A model's reply of 100,000 items for one conversation (issue 33): before, the harvest failed
 * with "Maximum call stack size exceeded", the other conversations were not harvested either, and
 * the cached reply failed every later harvest the same way. Now the reply is cut at
 * MAX_REPLY_ITEMS with a warning, every conversation is harvested, and the cached (cut) reply
 * serves the apply after a preview.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MAX_REPLY_ITEMS } from '../../src/core/services/harvest/parseReply';
import { makeWorkspace, runCli, transcript } from '../helpers/cli';
import { startStub, type StubServer } from '../helpers/stubServers';

const EMPTY = { decisions: [], tasks_done: [], tasks_open: [], questions: [], playbooks: [], files: [] };

/** `lore harvest … EXTRA` against the stub's OpenAI-compatible endpoint. */
function harvestArgs(root: string, baseUrl: string): (...extra: string[]) => string[] {
  return (...extra) => ['harvest', '--root', root, '--provider', 'openai', '--base-url', baseUrl, '--model', 'stub-model', ...extra];
}

describe('lore harvest: a reply of 100,000 items', function () {
  this.timeout(120_000);
  let stub: StubServer | undefined;
  afterEach(async () => {
    await stub?.close();
  });

  it(`keeps the first ${MAX_REPLY_ITEMS}, says so, harvests the other conversations, and the apply reuses the preview's reply`, async () => {
    const big = JSON.stringify({
      ...EMPTY,
      facts: Array.from({ length: 100_000 }, (_, i) => ({ statement: `generated fact number ${i}` })),
    });
    const small = JSON.stringify({ ...EMPTY, facts: [{ statement: 'the small conversation taught one thing' }] });
    stub = await startStub('openai', [], {
      whenExhausted: (body: unknown) => ({ reply: JSON.stringify(body).includes('Conversation: c1') ? big : small }),
    });
    const { root, inbox } = await makeWorkspace();
    fs.writeFileSync(path.join(inbox, 'c1.md'), transcript('c1', 'A conversation the model answers at length.', '2026-11-24T10:00:00Z'));
    fs.writeFileSync(path.join(inbox, 'c2.md'), transcript('c2', 'A conversation with one fact.', '2026-11-24T11:00:00Z'));
    const args = harvestArgs(root, stub.baseUrl);

    const preview = await runCli(args('--preview'));
    assert.equal(preview.code, 0, preview.stderr);
    assert.match(
      preview.stdout + preview.stderr,
      new RegExp(
        `c1\\.md: ${100_000 - MAX_REPLY_ITEMS} items in the model's reply were left out \\(the reply holds more than ${MAX_REPLY_ITEMS} items`,
      ),
    );
    const applied = await runCli(args('--apply'));
    assert.equal(applied.code, 0, applied.stderr);
    assert.equal(stub.requests.length, 2, 'one model call per conversation: the apply used the cached replies');
    const facts = fs.readFileSync(path.join(root, 'facts.md'), 'utf8');
    assert.ok(facts.includes('- the small conversation taught one thing [from: c2, 2026-11-24]'), 'the other conversation is harvested');
    assert.equal(facts.split('\n').filter((l) => l.startsWith('- generated fact number')).length, MAX_REPLY_ITEMS);
  });

  it('a cached reply of 100,000 items (as an older Lore kept it) is asked for again, and the harvest finishes', async () => {
    const reply = (n: number) =>
      JSON.stringify({ ...EMPTY, facts: Array.from({ length: n }, (_, i) => ({ statement: `cached fact ${i}` })) });
    stub = await startStub('openai', [], { whenExhausted: () => ({ reply: reply(3) }) });
    const { root, inbox } = await makeWorkspace();
    fs.writeFileSync(path.join(inbox, 'c1.md'), transcript('c1', 'A conversation.', '2026-11-24T10:00:00Z'));
    const args = harvestArgs(root, stub.baseUrl);
    assert.equal((await runCli(args('--preview'))).code, 0);
    // The preview's cached reply, replaced by the whole runaway reply an older Lore cached.
    const replies = path.join(root, '.cache', 'replies');
    const [memo] = fs.readdirSync(replies);
    const cached = JSON.parse(fs.readFileSync(path.join(replies, memo), 'utf8'));
    fs.writeFileSync(path.join(replies, memo), JSON.stringify({ ...cached, items: JSON.parse(reply(100_000)) }));

    const applied = await runCli(args('--apply'));
    assert.equal(applied.code, 0, applied.stderr);
    assert.equal(stub.requests.length, 2, 'the model is asked again instead of the cached runaway reply being used');
    const facts = fs.readFileSync(path.join(root, 'facts.md'), 'utf8');
    assert.equal(facts.split('\n').filter((l) => l.startsWith('- cached fact')).length, 3);
  });
});

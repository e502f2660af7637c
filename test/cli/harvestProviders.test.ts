import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { RETRY_SUFFIX } from '../../src/core/model/constants';
import { makeWorkspace, runCli, transcript } from '../helpers/cli';
import { startStub, type StubKind, type StubServer } from '../helpers/stubServers';

const VALID = JSON.stringify({
  facts: [{ statement: 'The stub speaks the provider API.', detail: '' }],
  decisions: [],
  tasks_done: [],
  tasks_open: [{ statement: 'Ship it', detail: '' }],
  questions: [],
  playbooks: [],
  files: [{ path: 'src/app.ts', note: 'Noted by the model.' }],
});

function ledgerEntries(root: string): any[] {
  return Object.values(JSON.parse(fs.readFileSync(path.join(root, 'ledger.json'), 'utf8')).entries);
}

for (const kind of ['openai', 'anthropic', 'gemini', 'ollama'] as StubKind[]) {
  describe(`lore harvest with --provider ${kind} against a loopback stub`, function () {
    this.timeout(60_000);
    let stub: StubServer | undefined;
    afterEach(async () => {
      await stub?.close();
      stub = undefined;
    });

    async function setup(steps: Parameters<typeof startStub>[1]) {
      stub = await startStub(kind, steps);
      const ws = await makeWorkspace();
      fs.writeFileSync(path.join(ws.inbox, 'c1.md'), transcript('c1', 'We talked about the stub.'));
      const args = (...extra: string[]) => [
        'harvest',
        '--root',
        ws.root,
        '--provider',
        kind,
        '--base-url',
        stub!.baseUrl,
        '--model',
        'stub-model',
        ...extra,
      ];
      return { ...ws, args };
    }

    it('harvests a valid reply, stable instructions first, conversation last', async () => {
      const { root, args } = await setup([{ reply: VALID }]);
      const result = await runCli(args('--apply'));
      assert.equal(result.code, 0, result.stderr + result.stdout);
      assert.equal(stub!.requests.length, 1);
      const prompt = stub!.requests[0].prompt;
      assert.match(prompt.system ?? '', /^# Harvest durable knowledge/);
      assert.match(prompt.user, /^Conversation: c1\n\n---\nsession_id: c1/);
      assert.match(fs.readFileSync(path.join(root, 'facts.md'), 'utf8'), /- The stub speaks the provider API\. \[from: c1, 2026-11-20\]/);
      assert.equal(ledgerEntries(root)[0].status, 'harvested');
    });

    it('keeps the valid items of a partly malformed reply and warns which were left out', async () => {
      const partly = JSON.stringify({ ...JSON.parse(VALID), facts: [{ statement: 'Kept fact.', detail: '' }, { statement: 42 }] });
      const { root, args } = await setup([{ reply: partly }]);
      const result = await runCli(args('--apply'));
      assert.equal(result.code, 0, result.stderr + result.stdout);
      assert.match(fs.readFileSync(path.join(root, 'facts.md'), 'utf8'), /- Kept fact\. \[from: c1/);
      assert.match(
        result.stdout + result.stderr,
        /warning: .*c1\.md: 1 item in the model's reply was malformed and left out \(facts\[1\]\.statement/,
      );
    });

    it('tolerates a ```json fence', async () => {
      const { root, args } = await setup([{ reply: '```json\n' + VALID + '\n```' }]);
      assert.equal((await runCli(args('--apply'))).code, 0);
      assert.match(fs.readFileSync(path.join(root, 'tasks.md'), 'utf8'), /## Open\n\n- Ship it \[from: c1/);
    });

    it('retries once with the retry suffix after invalid JSON', async () => {
      const { root, args } = await setup([{ reply: 'Sure! Here is the JSON you asked for:' }, { reply: VALID }]);
      const result = await runCli(args('--apply'));
      assert.equal(result.code, 0, result.stderr);
      assert.equal(stub!.requests.length, 2);
      assert.ok(!stub!.requests[0].prompt.user.endsWith(RETRY_SUFFIX));
      assert.ok(stub!.requests[1].prompt.user.endsWith(RETRY_SUFFIX));
      assert.equal(ledgerEntries(root)[0].status, 'harvested');
    });

    it('after two invalid replies records harvest-failed, keeps the conversation, exits 1, and the next run retries', async () => {
      const { root, inbox, args } = await setup([{ reply: 'nope' }, { reply: '[]' }, { reply: VALID }]);
      const first = await runCli(args('--apply'));
      assert.equal(first.code, 1);
      assert.match(
        first.stdout,
        /^1 conversation was not distilled: harvest output invalid after 2 attempts: .*\. Nothing was written for it; the next harvest tries it again\.\n {2}.*c1\.md$/m,
      );
      const [entry] = ledgerEntries(root);
      assert.equal(entry.status, 'harvest-failed');
      assert.match(entry.error, /harvest output invalid after 2 attempts: reply is not a JSON object/);
      assert.ok(fs.existsSync(path.join(inbox, 'c1.md')));
      assert.equal(fs.readFileSync(path.join(root, 'facts.md'), 'utf8'), '# Facts\n');
      const dry = await runCli(args());
      assert.match(dry.stdout, /conversations: retry:1/);
      const second = await runCli(args('--apply'));
      assert.equal(second.code, 0, second.stderr);
      assert.equal(ledgerEntries(root)[0].status, 'harvested');
      assert.ok(!fs.existsSync(path.join(inbox, 'c1.md')));
    });

    it('a server error is recorded as harvest-failed and the conversation kept', async () => {
      const { root, inbox, args } = await setup([{ status: 500 }, { status: 500 }, { status: 500 }]);
      const result = await runCli(args('--apply'));
      assert.equal(result.code, 1);
      const [entry] = ledgerEntries(root);
      assert.equal(entry.status, 'harvest-failed');
      assert.match(entry.error, /500|server/i);
      assert.ok(fs.existsSync(path.join(inbox, 'c1.md')));
    });

    it('a hang past --timeout fails that conversation with a timeout', async () => {
      const { root, args } = await setup([{ hang: true }, { hang: true }]);
      const result = await runCli(args('--apply', '--timeout', '1'));
      assert.equal(result.code, 1);
      assert.match(ledgerEntries(root)[0].error, /tim(e|ed) ?out/i);
    });

    it('--preview then --apply calls the model once (replies cached in .cache/)', async () => {
      const { root, args } = await setup([{ reply: VALID }]);
      const preview = await runCli(args('--preview'));
      assert.equal(preview.code, 0, preview.stderr);
      assert.match(preview.stdout, /\+- The stub speaks the provider API\./);
      assert.equal(fs.readFileSync(path.join(root, 'facts.md'), 'utf8'), '# Facts\n');
      const apply = await runCli(args('--apply', '--json'));
      assert.equal(apply.code, 0, apply.stderr);
      assert.equal(JSON.parse(apply.stdout).modelCalls, 0);
      assert.equal(stub!.requests.length, 1);
    });
  });
}

describe('summarize first above 64 KB (openai stub)', function () {
  this.timeout(60_000);
  it('summarizes a large conversation in parts, then harvests the summary', async () => {
    const stub = await startStub('openai', [], {
      whenExhausted: (body: any) => {
        const text = JSON.stringify(body);
        return { reply: text.includes('Summarize part of a long conversation') ? '- a summary bullet' : VALID };
      },
    });
    try {
      const { root, inbox } = await makeWorkspace();
      const turns = Array.from(
        { length: 60 },
        (_, i) => `## 10:${String(i % 60).padStart(2, '0')} — user\n${'talk about caching and layers. '.repeat(60)}\n`,
      ).join('\n');
      fs.writeFileSync(path.join(inbox, 'big.md'), `---\nsession_id: big\n---\n\n# Big\n\n${turns}`);
      const result = await runCli(['harvest', '--root', root, '--apply', '--json', '--provider', 'openai', '--base-url', stub.baseUrl]);
      assert.equal(result.code, 0, result.stderr);
      const report = JSON.parse(result.stdout);
      assert.equal(report.conversations[0].summarized, true);
      const summaries = stub.requests.filter((r) => (r.prompt.system ?? '').includes('Summarize part'));
      assert.ok(summaries.length >= 2, `summary calls: ${summaries.length}`);
      const harvest = stub.requests[stub.requests.length - 1];
      assert.match(harvest.prompt.user, /Summary of a long conversation \(\d+ parts\)/);
      assert.ok(harvest.prompt.user.length < 64 * 1024);
      assert.equal(report.modelCalls, summaries.length + 1);
    } finally {
      await stub.close();
    }
  });
});

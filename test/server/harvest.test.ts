/**
 * The harvest in the language server (lore/harvestRun, lore/harvestApply), over LSP to the real
 * dist/server.js, as the extension drives it: the test plays the client, whose provider answers
 * the server's lore/providerGenerate (here the real rules extractor, run on the client side of the
 * connection), and sees progress, cancellation and provider failures as the extension would.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ResponseError } from 'vscode-languageserver-protocol/node';
import { createProvider } from '../../src/core/services/providers/providerRegistry';
import {
  HarvestApplyRequest,
  HarvestChooseRequest,
  HarvestDiscardRequest,
  HarvestCancelNotification,
  HarvestProgressNotification,
  HarvestRunRequest,
  HarvestUndoRequest,
  JournalSummarizeRequest,
  ProviderGenerateRequest,
  type ProviderFailure,
} from '../../src/shared/protocol';
import { REPO_ROOT } from '../helpers/paths';
import { snapshotTree } from '../helpers/cli';
import type { LspTestClient } from './lspClient';
import { makeWorkspace, type TestWorkspace } from './serverFixtures';
import type { ParamsOf, ResultOf } from '../../src/shared/declareMessage';

const CONVERSATION = path.join(REPO_ROOT, 'examples', 'conversations', '2026-11-18-cache-layout.md');
const CLIENT_PROVIDER = { name: 'client-model', label: 'a model of the client', offline: false };

describe('language server: the harvest runs in the server, the model on the client (LSP over stdio)', function () {
  this.timeout(30_000);
  let w: TestWorkspace;
  let client: LspTestClient;
  let calls: ParamsOf<typeof ProviderGenerateRequest>[];
  let progress: ParamsOf<typeof HarvestProgressNotification>[];
  /** How the client answers a model call (default: the rules extractor, on this side of the connection). */
  let answer: (
    params: ParamsOf<typeof ProviderGenerateRequest>,
    token: { isCancellationRequested: boolean; onCancellationRequested: (f: () => void) => unknown },
  ) => Promise<ResultOf<typeof ProviderGenerateRequest>>;

  beforeEach(async () => {
    w = makeWorkspace();
    fs.mkdirSync(w.paths.inbox, { recursive: true });
    fs.copyFileSync(CONVERSATION, path.join(w.paths.inbox, path.basename(CONVERSATION)));
    w.write('src/context/buildContext.ts', 'export const buildContext = 1;\n');
    client = await w.start();
    calls = [];
    progress = [];
    const rules = createProvider('rules');
    answer = (params) => rules.generate(params.request);
    client.connection.onRequest(ProviderGenerateRequest.method, (params: ParamsOf<typeof ProviderGenerateRequest>, token) => {
      calls.push(params);
      return answer(params, token);
    });
    client.connection.onNotification(HarvestProgressNotification.method, (p: ParamsOf<typeof HarvestProgressNotification>) => {
      progress.push(p);
    });
  });

  afterEach(async () => {
    await client.stop();
  });

  /** The store without its derived, deletable folders. */
  const knowledge = () =>
    Object.fromEntries(Object.entries(snapshotTree(w.paths.root)).filter(([file]) => !/^\.(cache|index|logs)\//.test(file)));

  const run = (mode: ParamsOf<typeof HarvestRunRequest>['mode'], runId = 'r1') =>
    client.connection.sendRequest(HarvestRunRequest.type, {
      runId,
      mode,
      sources: [w.paths.inbox],
      provider: CLIENT_PROVIDER,
      reclaim: 'archive',
    });

  it('dry run, preview (the model called through the client, progress sent), nothing written until apply writes the plan; undo takes it back', async () => {
    const before = knowledge();
    const dry = await run('dry-run');
    assert.equal(dry.totals.counts.harvest, 1);
    assert.equal(calls.length, 0, 'a dry run calls no model');
    const preview = await run('preview');
    assert.equal(preview.cancelled, false);
    assert.ok(calls.length >= 1 && calls.every((c) => c.runId === 'r1' && c.request.task === 'harvest'));
    assert.match(calls[0].request.content, /Prompt cache layout/);
    assert.ok(
      progress.some((p) => p.runId === 'r1' && p.message.length > 0),
      'progress reaches the client',
    );
    assert.equal(preview.provider, CLIENT_PROVIDER.label);
    const decisions = preview.plan!.changes.find((c) => c.file.endsWith('decisions.md'));
    assert.match(decisions!.after!, /order the context layers stable to volatile/);
    assert.deepEqual(knowledge(), before, 'a preview writes nothing (the model replies are cached, in .cache/)');
    assert.ok(preview.plan?.id, 'the plan stays in the server, named by an id');
    assert.equal('ledger' in preview.plan, false, 'the ledger does not travel to the client');
    assert.equal(
      preview.plan.changes.some((c) => 'edit' in c),
      false,
      'nor the edits apply replays',
    );
    const applied = await client.connection.sendRequest(HarvestApplyRequest.type, { planId: preview.plan.id });
    assert.equal(applied.stale, undefined);
    assert.ok(applied.applied);
    assert.equal(fs.readFileSync(path.join(w.paths.root, 'decisions.md'), 'utf8'), decisions!.after);
    assert.ok(!fs.existsSync(path.join(w.paths.inbox, path.basename(CONVERSATION))), 'the conversation left the inbox');
    assert.equal(calls.length, calls.filter((c) => c.runId === 'r1').length, 'apply calls no model');
    // The same plan again: the server forgot it once applied.
    await assert.rejects(client.connection.sendRequest(HarvestApplyRequest.type, { planId: preview.plan.id }), /no longer held/);
    // Undo Last Harvest, in the server too: the knowledge is as before the apply, the conversation back in the inbox.
    const undone = await client.connection.sendRequest(HarvestUndoRequest.type, {});
    assert.equal(undone.status, 'undone');
    // (The .gitignore the first apply wrote into the store stays: it is the store's, not the harvest's.)
    const { '.gitignore': _ignore, ...after } = knowledge();
    assert.deepEqual(after, before);
  });

  it('a cancelled run answers cancelled and writes nothing; the client’s model call is cancelled with it', async () => {
    const before = knowledge();
    let cancelledCall = false;
    answer = (_params, token) =>
      new Promise((_resolve, reject) => {
        token.onCancellationRequested(() => {
          cancelledCall = true;
          const failure: ProviderFailure = { provider: CLIENT_PROVIDER.name, kind: 'cancelled', message: 'cancelled' };
          reject(new ResponseError(-32803, `${CLIENT_PROVIDER.name}: cancelled`, failure));
        });
        void client.connection.sendNotification(HarvestCancelNotification.type, { runId: 'r2' });
      });
    const report = await run('preview', 'r2');
    assert.equal(report.cancelled, true);
    assert.ok(cancelledCall, 'the in-flight model call was cancelled');
    assert.deepEqual(knowledge(), before);
  });

  it("Summarize Today's Journal: the server writes the summary the client's model gave into the day's journal; a day without a journal and an offline provider are refused", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const summarize = (date: string, provider = CLIENT_PROVIDER) =>
      client.connection.sendRequest(JournalSummarizeRequest.type, { runId: 'j1', date, provider });
    const none = await summarize('2001-01-01');
    assert.equal(none.summary, undefined);
    assert.equal(calls.length, 0, 'no journal, no model call');
    const applied = await run('apply');
    assert.ok(applied.applied);
    const journal = path.join(w.paths.root, 'journal', `${today}.md`);
    assert.ok(fs.existsSync(journal));
    calls = [];
    answer = async () => ({ text: '# Summary\n- the day settled the context layers.', model: 'client-model-1' });
    const result = await summarize(today);
    assert.equal(calls.length, 1);
    assert.equal(calls[0].runId, 'j1');
    assert.equal(calls[0].request.task, 'summarize');
    assert.match(calls[0].request.content, /^---\ntype: journal\n[\s\S]*### Decisions\n- /, 'the model reads the journal');
    assert.deepEqual(result, {
      date: today,
      file: journal,
      summary: ['Summary', '- the day settled the context layers.'],
      model: 'client-model-1',
    });
    assert.match(fs.readFileSync(journal, 'utf8'), /\n## Summary\n\nSummary\n- the day settled the context layers\.\n\n## /);
    await assert.rejects(summarize(today, { name: 'rules', label: 'rules', offline: true }), /needs a model/);
  });

  it('a provider failure on the client is classified in the server as it would be in process', async () => {
    answer = () => {
      const failure: ProviderFailure = { provider: CLIENT_PROVIDER.name, kind: 'auth', message: 'invalid API key', status: 401 };
      return Promise.reject(new ResponseError(-32803, `${CLIENT_PROVIDER.name}: invalid API key`, failure));
    };
    const report = await run('preview', 'r3');
    assert.equal(report.failed, 1);
    const outcome = report.conversations.find((c) => c.status === 'harvest-failed');
    assert.match(outcome!.error!, /client-model: invalid API key/);
    assert.equal(calls.length, 1, 'an auth failure stops the run: no retry, no next call');
  });

  it('Choose Harvest Items…: the plan the client narrowed (a line and the reclaim rejected) is what the server writes', async () => {
    const preview = await run('preview');
    const rejected = preview.plan!.choices.filter(
      (i) => (i.kind === 'line' && /order the context layers/.test(i.line)) || i.kind === 'reclaim',
    );
    assert.equal(rejected.length, 2);
    const chosen = await client.connection.sendRequest(HarvestChooseRequest.type, {
      planId: preview.plan!.id!,
      rejected: rejected.map((i) => i.id),
    });
    assert.equal(chosen.plan!.id, preview.plan!.id);
    assert.equal(
      chosen.plan!.changes.some((c) => c.file === 'decisions.md'),
      false,
      'the diffs show what remains',
    );
    const applied = await client.connection.sendRequest(HarvestApplyRequest.type, { planId: preview.plan!.id! });
    assert.equal(applied.stale, undefined);
    assert.ok(!fs.existsSync(path.join(w.paths.root, 'decisions.md')), 'its only new line rejected, decisions.md is not written');
    assert.match(fs.readFileSync(path.join(w.paths.root, 'facts.md'), 'utf8'), /byte-identical prefix/);
    assert.ok(fs.existsSync(path.join(w.paths.inbox, path.basename(CONVERSATION))), 'the rejected reclaim kept the conversation');
  });

  it('only a plan the server made can be applied: a discarded or unknown id, or a plan sent back, is refused and nothing is written', async () => {
    const before = knowledge();
    const preview = await run('preview');
    assert.deepEqual(await client.connection.sendRequest(HarvestDiscardRequest.type, { planId: preview.plan!.id! }), { discarded: true });
    await assert.rejects(client.connection.sendRequest(HarvestApplyRequest.type, { planId: preview.plan!.id! }), /no longer held/);
    await assert.rejects(client.connection.sendRequest(HarvestApplyRequest.type, { planId: 'made-up' }), /no longer held/);
    await assert.rejects(client.connection.sendRequest(HarvestApplyRequest.method, { report: preview }), /lore\/harvestApply/);
    await assert.rejects(client.connection.sendRequest(HarvestChooseRequest.method, { planId: 'made-up', rejected: [] }), /no longer held/);
    assert.deepEqual(knowledge(), before);
  });

  it("counts the usage the client's model reports and stops at the caps the client passes (lore.budget.*), naming the setting", async () => {
    const rules = createProvider('rules');
    answer = async (params) => ({
      ...(await rules.generate(params.request)),
      model: 'gpt-4o-mini',
      usage: { inputTokens: 9_000, outputTokens: 500 },
    });
    const preview = await run('preview');
    assert.deepEqual([preview.spending!.run.tokens, preview.spending!.month.tokens], [9_500, 9_500]);
    assert.ok(preview.spending!.run.usd > 0, 'priced at the model the reply names');
    const log = fs.readFileSync(path.join(w.paths.root, '.logs', 'spending.jsonl'), 'utf8');
    assert.match(log, /"provider":"client-model","model":"gpt-4o-mini","calls":1,"inputTokens":9000,"outputTokens":500/);
    assert.match(log, /"via":"vscode"/);

    fs.writeFileSync(path.join(w.paths.inbox, 'second.md'), fs.readFileSync(CONVERSATION, 'utf8').replace('Prompt cache', 'Another cache'));
    const capped = await client.connection.sendRequest(HarvestRunRequest.type, {
      runId: 'r2',
      mode: 'apply',
      sources: [w.paths.inbox],
      provider: { ...CLIENT_PROVIDER, defaultModel: 'gpt-4o-mini' },
      budget: { dailyTokens: 10_000 },
      via: 'scheduled',
    });
    assert.equal(calls.filter((c) => c.runId === 'r2').length, 0, 'the new conversation would pass the daily cap');
    assert.equal(capped.spending!.reused, 1, 'the previewed one reused its cached reply');
    assert.match(
      capped.spending!.stop!.text,
      /daily token cap of 10K tokens: 9\.5K tokens spent today.*Raise lore\.budget\.dailyTokens in settings, or wait until tomorrow/,
    );
    assert.match(fs.readFileSync(path.join(w.paths.root, '.logs', 'spending.jsonl'), 'utf8'), /"reused":1,"via":"scheduled"/);
  });
});

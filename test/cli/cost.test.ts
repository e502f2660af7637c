/**
 * Spending through the CLI: a harvest with a model says what it spent, lore cost and lore sources
 * show the running totals, a re-run says the cached replies cost nothing, and a cap in
 * config.json stops a harvest before any call, on stderr too (where a scheduled run's output goes).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeWorkspace, runCli, transcript } from '../helpers/cli';
import { startStub, type StubServer } from '../helpers/stubServers';

const VALID = JSON.stringify({ facts: [{ statement: 'The stub speaks the provider API.', detail: '' }] });

describe('lore cost and the harvest budget (openai stub)', function () {
  this.timeout(60_000);
  let stub: StubServer | undefined;
  afterEach(async () => {
    await stub?.close();
    stub = undefined;
  });

  async function setup(replies: number) {
    stub = await startStub(
      'openai',
      Array.from({ length: replies }, () => ({ reply: VALID, usage: { input: 20_000, output: 1_000, cacheRead: 10_000 } })),
    );
    const ws = await makeWorkspace();
    fs.writeFileSync(path.join(ws.inbox, 'c1.md'), transcript('c1', 'We talked about the stub.'));
    const harvest = (...extra: string[]) =>
      runCli(['harvest', '--root', ws.root, '--provider', 'openai', '--base-url', stub!.baseUrl, '--model', 'gpt-4o-mini', ...extra]);
    return { ...ws, harvest };
  }

  it('says what a harvest spent, that a re-run reused the cached reply, and lore cost sums them', async () => {
    const { root, ws, harvest } = await setup(1);
    const preview = await harvest('--preview');
    assert.equal(preview.code, 0, preview.stderr + preview.stdout);
    // 10,000 uncached at $0.15, 10,000 cached at $0.075, 1,000 out at $0.60 per million.
    assert.match(preview.stdout, /^spending: spent: 21K tokens, \$0\.003$/m);
    const applied = await harvest('--apply');
    assert.equal(applied.code, 0, applied.stderr + applied.stdout);
    assert.equal(stub!.requests.length, 1);
    assert.match(applied.stdout, /^spending: 1 conversation reused cached replies: no tokens spent on it$/m);
    assert.match(applied.stdout, /^spending: today: 21K tokens, \$0\.003 · this month: 21K tokens, \$0\.003$/m);

    const cost = await runCli(['cost', '--root', root]);
    assert.equal(cost.code, 0, cost.stderr);
    assert.match(cost.stdout, /^this month: 21K tokens, \$0\.003$/m);
    assert.match(cost.stdout, /^ {2}openai gpt-4o-mini: 21K tokens \(20K in, 1\.0K out\), \$0\.003, 1 call$/m);
    assert.match(cost.stdout, /no tokens spent; 1 reused cached reply$/m);
    assert.match(cost.stdout, /caps: none \(set them under "budget" in config\.json\)/);
    const json = JSON.parse((await runCli(['cost', '--root', root, '--json'])).stdout);
    assert.deepEqual([json.month.tokens, json.month.calls, json.month.runs, json.recent.length], [21_000, 1, 2, 2]);

    const sources = await runCli(['sources', '--root', root, '--workspace', ws]);
    assert.match(sources.stdout, /^Spent on model calls: today: 21K tokens, \$0\.003 · this month: 21K tokens, \$0\.003 \(lore cost\)$/m);
  });

  it('stops at a cap of config.json before calling the model, and says which cap and what to do', async () => {
    const { root, harvest } = await setup(1);
    fs.writeFileSync(path.join(root, 'config.json'), JSON.stringify({ budget: { dailyUsd: 0, monthlyTokens: 5_000_000 } }));
    const dry = await harvest('--dry-run');
    assert.match(
      dry.stdout,
      /^spending: a model would read about \d\.\dK tokens \(about <\$0\.001\), before cached replies are counted out$/m,
    );
    assert.match(
      dry.stdout,
      /^spending: that is more than the daily spending cap \(\$0\.00\) leaves: a harvest sends what fits and leaves the rest for later$/m,
    );
    assert.match(dry.stdout, /^spending: today: 0 tokens, \$0\.00 of \$0\.00 · this month: 0 of 5\.0M tokens$/m);

    const applied = await harvest('--apply');
    assert.equal(applied.code, 0, applied.stderr + applied.stdout);
    assert.equal(stub!.requests.length, 0, 'no call past the cap');
    assert.match(
      applied.stderr,
      /^lore: Stopped at the daily spending cap of \$0\.00: \$0\.00 spent today, and the next conversation needs about <\$0\.001\. 1 conversation was left for a later harvest, with nothing spent on it\. Raise "budget": \{"dailyUsd"\} in the store's config\.json, or wait until tomorrow\.$/m,
    );
    assert.ok(!fs.existsSync(path.join(root, 'ledger.json')) || !/c1/.test(fs.readFileSync(path.join(root, 'ledger.json'), 'utf8')));
    assert.ok(fs.existsSync(path.join(root, 'inbox', 'c1.md')), 'left in the inbox for a later harvest');
  });

  it('names a malformed budget in config.json and holds no cap from it', async () => {
    const { root, harvest } = await setup(1);
    fs.writeFileSync(path.join(root, 'config.json'), JSON.stringify({ budget: { dailyUsd: 'five' } }));
    const dry = await harvest('--dry-run');
    assert.match(dry.stdout, /^warning: .*config\.json: budget\.dailyUsd: .*expected number.*the default is used instead$/m);
    assert.match(dry.stdout, /^spending: today: 0 tokens · this month: 0 tokens$/m, 'no cap holds');
  });
});

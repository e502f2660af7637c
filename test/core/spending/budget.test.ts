/**
 * A harvest's spending: every model call counted from the usage the provider reports (or the
 * text, when it reports none) and priced at list prices, one log line per run and model, the caps
 * of config.json and the caller checked before each conversation, and cached replies free.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BudgetGuard, budgetStopText, estimateConversation, resolveCaps } from '../../../src/core/services/spending/budget';
import { defaultPromptsDir } from '../../../src/core/services/harvest/prompts';
import { runHarvest } from '../../../src/core/services/harvest/runHarvest';
import { readSpending, spendingLogFile, spentSoFar, type SpendingRecord } from '../../../src/core/services/spending/spendingLog';
import { pricesWith, SpendingMeter } from '../../../src/core/services/spending/spendingMeter';
import { spendingSummary } from '../../../src/core/services/spending/spendingSummary';
import { harvestSpendingLines } from '../../../src/core/services/spending/spendingText';
import { callCost, priceFor } from '../../../src/core/services/promptCache/modelPrices';
import type { ModelReply, ModelRequest, Provider } from '../../../src/core/services/providers/provider';
import { createProvider } from '../../../src/core/services/providers/providerRegistry';
import { initStore } from '../../../src/core/store/initStore';
import { readLedger } from '../../../src/core/store/ledger';
import { storePaths, type StorePaths } from '../../../src/core/store/storePaths';
import { transcript } from '../../helpers/cli';
import { makeTempDir } from '../../helpers/paths';

const REQUEST: ModelRequest = { task: 'harvest', instructions: 'x'.repeat(400), content: 'y'.repeat(3600) };

/** A model that answers one fact per conversation and reports the usage it is given. */
function stubModel(usage: ModelReply['usage'], model = 'claude-haiku-4-5'): Provider & { calls: number } {
  const provider = {
    name: 'anthropic',
    label: `anthropic ${model} @ stub`,
    offline: false,
    defaultModel: model,
    calls: 0,
    async generate(request: ModelRequest): Promise<ModelReply> {
      provider.calls++;
      const id = /Conversation: (\S+)/.exec(request.content)?.[1] ?? 'x';
      return { text: JSON.stringify({ facts: [{ statement: `learned from ${id}` }] }), model, usage };
    },
  };
  return provider;
}

function store(): { paths: StorePaths; inbox: string } {
  const ws = makeTempDir('lore-budget-');
  const paths = storePaths(path.join(ws, '.lore'), ws);
  initStore(paths, defaultPromptsDir());
  return { paths, inbox: paths.inbox };
}

function writeConfig(paths: StorePaths, config: object): void {
  fs.writeFileSync(paths.config, JSON.stringify(config));
}

describe('harvest spending', () => {
  const now = new Date(2026, 11, 7, 12, 0, 0);

  describe('prices and counts', () => {
    it('prices calls at the list price: cache reads and writes at theirs, output at its own', () => {
      const haiku = priceFor('claude-haiku-4-5-20251001')!;
      // 1M uncached at $1, 1M read at $0.10, 1M written at $1.25, 1M out at $5.
      const usd = callCost(
        { inputTokens: 3_000_000, cacheReadTokens: 1_000_000, cacheWriteTokens: 1_000_000, outputTokens: 1_000_000 },
        haiku,
      );
      assert.equal(usd.toFixed(4), (1 + 0.1 + 1.25 + 5).toFixed(4));
    });

    it("knows the harvest's default models, and config.json's price of a model wins over the table's", () => {
      assert.ok(priceFor('gpt-4o-mini-2024-07-18'), 'the OpenAI default, by its dated snapshot');
      assert.ok(priceFor('gemini-2.5-flash'));
      assert.equal(priceFor('gemini-2.5-flash-lite'), undefined, 'another model is not priced as its neighbour');
      const prices = pricesWith({ 'gpt-4o-mini': { input: 10, output: 20 } });
      assert.equal(priceFor('gpt-4o-mini', prices)!.input, 10);
      assert.equal(priceFor('my-local-finetune', pricesWith({ 'my-local-finetune': { input: 1, output: 2 } }))!.cacheRead, 1);
    });

    it('counts the usage a provider reports, per model, and prices it', () => {
      const meter = new SpendingMeter('anthropic', pricesWith(undefined));
      const usage = { inputTokens: 1200, outputTokens: 34, cacheReadTokens: 1000, cacheWriteTokens: 0 };
      meter.count(REQUEST, { text: '{}', model: 'claude-haiku-4-5', usage });
      meter.count(REQUEST, { text: '{}', model: 'claude-haiku-4-5', usage });
      const [record] = meter.totals(now);
      assert.deepEqual(
        [record.calls, record.inputTokens, record.outputTokens, record.cacheReadTokens, record.estimated],
        [2, 2400, 68, 2000, undefined],
      );
      const expected = (2 * (200 * 1 + 1000 * 0.1 + 34 * 5)) / 1_000_000;
      assert.equal(record.usd!.toFixed(8), expected.toFixed(8));
      assert.deepEqual(meter.spent(), { tokens: 2468, usd: record.usd });
    });

    it('counts a reply without usage from its text, and says so; an unknown model gets tokens only', () => {
      const meter = new SpendingMeter('vscode-lm', pricesWith(undefined));
      meter.count(REQUEST, { text: 'z'.repeat(400), model: 'copilot-something' });
      const [record] = meter.totals(now);
      assert.deepEqual([record.inputTokens, record.outputTokens, record.estimated, record.usd], [1000, 100, true, undefined]);
      assert.deepEqual(meter.unpricedModels(), ['copilot-something']);
    });

    it('costs a local model nothing, in money', () => {
      const meter = new SpendingMeter('ollama', pricesWith(undefined));
      meter.count(REQUEST, { text: '{}', model: 'llama3.2', usage: { inputTokens: 500, outputTokens: 50 } });
      assert.equal(meter.totals(now)[0].usd, 0);
    });
  });

  describe('caps', () => {
    it('holds the lower of two places that set a cap, and names where it was set', () => {
      const caps = resolveCaps([
        { caps: { dailyTokens: 1000, monthlyUsd: 5 }, where: (k) => `config ${k}` },
        { caps: { dailyTokens: 5000, monthlyUsd: 2 }, where: (k) => `settings ${k}` },
      ]);
      assert.deepEqual(caps, {
        dailyTokens: { limit: 1000, where: 'config dailyTokens' },
        monthlyUsd: { limit: 2, where: 'settings monthlyUsd' },
      });
    });

    it('stops at the first cap the next conversation would pass, reading the periods again before each check', () => {
      const caps = resolveCaps([{ caps: { dailyTokens: 10_000, monthlyTokens: 1_000_000 }, where: (k) => k }]);
      // What the log holds: 6,000 before the run, then the run's 4,000 once its calls are recorded.
      let today = 6_000;
      const guard = new BudgetGuard(caps, () => ({ today: { tokens: today, usd: 0 }, month: { tokens: today, usd: 0 } }));
      assert.equal(guard.check({ tokens: 0, usd: 0 }, { inputTokens: 3_000, outputTokens: 1_000, tokens: 4_000 }), undefined);
      today = 10_000;
      const stop = guard.check({ tokens: 4_000, usd: 0 }, { inputTokens: 500, outputTokens: 1_000, tokens: 1_500 });
      assert.deepEqual(stop && [stop.cap, stop.spent, stop.needed, stop.left], ['dailyTokens', 10_000, 1_500, 1]);
      guard.check({ tokens: 4_000, usd: 0 }, { inputTokens: 500, outputTokens: 1_000, tokens: 1_500 });
      assert.equal(guard.stop!.left, 2, 'the first cap is kept, and every conversation left out counted');
      assert.match(
        budgetStopText(guard.stop!),
        /^Stopped at the daily token cap of 10K tokens: 10K tokens spent today.*2 conversations were left for a later harvest.*Raise dailyTokens, or wait until tomorrow\.$/,
      );
    });

    it('leaves a money cap out for a model without a price, never the token caps', () => {
      const caps = resolveCaps([{ caps: { perHarvestUsd: 0, perHarvestTokens: 100 }, where: (k) => k }]);
      const guard = new BudgetGuard(caps, () => ({ today: { tokens: 0, usd: 0 }, month: { tokens: 0, usd: 0 } }));
      assert.equal(guard.check({ tokens: 0, usd: 0 }, { inputTokens: 50, outputTokens: 10, tokens: 60 }), undefined);
      assert.equal(guard.check({ tokens: 0, usd: 0 }, { inputTokens: 50, outputTokens: 10, tokens: 60, usd: 0.01 })?.cap, 'perHarvestUsd');
    });

    it('estimates a large conversation with its summaries', () => {
      const small = estimateConversation(40_000, { harvest: 4000, summarize: 2000 }, undefined);
      const large = estimateConversation(400_000, { harvest: 4000, summarize: 2000 }, priceFor('gpt-4o-mini'));
      assert.equal(small.usd, undefined);
      assert.ok(small.inputTokens >= 11_000 && small.inputTokens < 13_000);
      assert.ok(large.inputTokens > 100_000 + 9 * 500, 'every part is summarized before the harvest reads the summaries');
      assert.ok(large.usd! > 0);
    });
  });

  describe('the log', () => {
    it('sums today and this month in local time, skipping torn lines', () => {
      const { paths } = store();
      const line = (at: Date, tokens: number, usd?: number): SpendingRecord => ({
        at: at.toISOString(),
        run: at.toISOString(),
        provider: 'openai',
        model: 'gpt-4o-mini',
        calls: 1,
        inputTokens: tokens,
        outputTokens: 0,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
        ...(usd !== undefined ? { usd } : {}),
      });
      fs.mkdirSync(path.dirname(spendingLogFile(paths)), { recursive: true });
      fs.writeFileSync(
        spendingLogFile(paths),
        [line(new Date(2026, 10, 30, 23), 1_000, 1), line(new Date(2026, 11, 1, 1), 200, 0.5), line(new Date(2026, 11, 7, 8), 30)]
          .map((r) => JSON.stringify(r))
          .join('\n') + '\n{"at": "2026-12-07T09:00',
      );
      const spent = spentSoFar(paths, now);
      assert.deepEqual(
        [spent.today.tokens, spent.today.unpricedTokens, spent.month.tokens, spent.month.usd, spent.month.runs],
        [30, 30, 230, 0.5, 2],
      );
    });
  });

  describe('runHarvest', () => {
    function inboxOf(paths: StorePaths, count: number): void {
      for (let i = 0; i < count; i++)
        fs.writeFileSync(path.join(paths.inbox, `c${i}.md`), transcript(`c${i}`, `We talked about topic ${i}.`));
    }

    it('records what a harvest spent, and a re-run reuses the cached replies and spends nothing', async () => {
      const { paths } = store();
      inboxOf(paths, 2);
      const model = stubModel({ inputTokens: 1200, outputTokens: 34, cacheReadTokens: 1000, cacheWriteTokens: 0 });
      const preview = await runHarvest({ paths, mode: 'preview', provider: model, now, spending: { via: 'cli' } });
      assert.equal(model.calls, 2);
      assert.deepEqual([preview.spending!.run.tokens, preview.spending!.reused], [2468, 0]);
      assert.ok(preview.spending!.run.usd > 0);

      const applied = await runHarvest({ paths, mode: 'apply', provider: model, now });
      assert.equal(model.calls, 2, 'the preview replies are reused');
      assert.deepEqual([applied.spending!.run.tokens, applied.spending!.reused], [0, 2]);
      // One line per call, as it ended, then the applied run's reused replies; each run under one id.
      const records = readSpending(paths);
      assert.deepEqual(
        records.map((r) => [r.calls, r.inputTokens + r.outputTokens, r.reused ?? 0, r.via ?? '', r.task]),
        [
          [1, 1234, 0, 'cli', 'harvest'],
          [1, 1234, 0, 'cli', 'harvest'],
          [0, 0, 2, '', 'harvest'],
        ],
      );
      assert.equal(records[0].run, records[1].run);
      assert.notEqual(records[1].run, records[2].run);
      assert.equal(applied.spending!.month.tokens, 2468);
    });

    it('stops at a cap: what fits is harvested, the rest stays out of the ledger, and the report says why', async () => {
      const { paths } = store();
      inboxOf(paths, 3);
      // Each conversation is estimated at about 3,200 tokens (prompt, items shown, reply); the reported usage is 5,000 a call.
      writeConfig(paths, { budget: { perHarvestTokens: 8_000 } });
      const model = stubModel({ inputTokens: 4_900, outputTokens: 100 });
      const report = await runHarvest({ paths, mode: 'apply', provider: model, now });
      assert.equal(model.calls, 1, 'the second conversation would pass the cap after the first one spent 5,000');
      assert.equal(report.spending!.stop?.cap, 'perHarvestTokens');
      assert.equal(report.spending!.stop?.left, 2);
      assert.match(
        report.warnings.join('\n'),
        /Stopped at the token cap per harvest of 8\.0K tokens: 5\.0K tokens spent by this harvest.*Raise "budget": \{"perHarvestTokens"\} in the store's config\.json, or harvest again/,
      );
      const ledger = readLedger(paths.ledger);
      assert.equal(Object.keys(ledger.entries).length, 1, 'the conversations left out are not recorded');
      assert.equal(fs.readdirSync(paths.inbox).length, 2, 'and stay in the inbox for the next harvest');
    });

    it("applies the caller's caps with config.json's, naming the setting", async () => {
      const { paths } = store();
      inboxOf(paths, 1);
      writeConfig(paths, { budget: { dailyTokens: 1_000_000 } });
      const model = stubModel({ inputTokens: 100, outputTokens: 10 });
      const report = await runHarvest({ paths, mode: 'preview', provider: model, now, spending: { caps: { dailyTokens: 0 } } });
      assert.equal(model.calls, 0);
      assert.match(report.spending!.stop!.text, /Raise lore\.budget\.dailyTokens in settings, or wait until tomorrow/);
    });

    it('never counts or caps the offline extractor', async () => {
      const { paths } = store();
      inboxOf(paths, 2);
      writeConfig(paths, { budget: { perHarvestTokens: 0, dailyUsd: 0 } });
      const report = await runHarvest({ paths, mode: 'apply', provider: createProvider('rules'), now });
      assert.equal(report.spending!.stop, undefined);
      assert.equal(report.conversations.filter((c) => c.status === 'harvested').length, 2);
      assert.ok(!fs.existsSync(spendingLogFile(paths)), 'nothing spent, nothing written');
    });

    it("a dry run estimates the harvest and says when the caps would stop it; lore cost's summary lists it by model", async () => {
      const { paths } = store();
      inboxOf(paths, 2);
      writeConfig(paths, { budget: { monthlyUsd: 0.000001 } });
      const model = stubModel({ inputTokens: 100, outputTokens: 10 }, 'gpt-4o-mini');
      const dry = await runHarvest({ paths, mode: 'dry-run', provider: model, now });
      assert.equal(model.calls, 0);
      assert.ok(dry.spending!.estimate!.tokens > 2 * 1000 && dry.spending!.estimate!.usd! > 0);
      assert.match(harvestSpendingLines(dry.spending!, 'dry-run').join('\n'), /more than the monthly spending cap \(<\$0\.001\) leaves/);

      fs.writeFileSync(paths.config, '{}');
      await runHarvest({ paths, mode: 'preview', provider: model, now });
      const summary = spendingSummary(paths, now);
      assert.deepEqual(
        summary.byModel.map((m) => [m.provider, m.model, m.tokens, m.calls]),
        [['anthropic', 'gpt-4o-mini', 220, 2]],
      );
      assert.equal(summary.recent.length, 1);
    });
  });
});

/**
 * Every model call is metered as it ends, whatever it served: a harvest killed after its first
 * call keeps that call in the log, a journal summary or tidy request is refused at the daily and
 * monthly caps (counting what another process recorded a moment before), and the offline
 * extractor is never wrapped.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { meteredProvider, SpendingCapError } from '../../../src/core/services/spending/meteredTask';
import { defaultPromptsDir } from '../../../src/core/services/harvest/prompts';
import { runHarvest } from '../../../src/core/services/harvest/runHarvest';
import { appendSpending, readSpending, type SpendingRecord } from '../../../src/core/services/spending/spendingLog';
import { spendingSummary } from '../../../src/core/services/spending/spendingSummary';
import type { ModelReply, ModelRequest, Provider } from '../../../src/core/services/providers/provider';
import { createProvider } from '../../../src/core/services/providers/providerRegistry';
import { initStore } from '../../../src/core/store/initStore';
import { storePaths, type StorePaths } from '../../../src/core/store/storePaths';
import { transcript } from '../../helpers/cli';
import { makeTempDir } from '../../helpers/paths';

const REQUEST: ModelRequest = { task: 'summarize', instructions: 'x'.repeat(400), content: 'y'.repeat(3600) };

function stubModel(): Provider & { calls: number } {
  const provider = {
    name: 'openai',
    label: 'openai gpt-4o-mini @ stub',
    offline: false,
    defaultModel: 'gpt-4o-mini',
    calls: 0,
    async generate(request: ModelRequest): Promise<ModelReply> {
      provider.calls++;
      const id = /Conversation: (\S+)/.exec(request.content)?.[1] ?? 'x';
      return {
        text: JSON.stringify({ facts: [{ statement: `learned from ${id}` }] }),
        model: 'gpt-4o-mini',
        usage: { inputTokens: 1000, outputTokens: 100 },
      };
    },
  };
  return provider;
}

function store(): StorePaths {
  const ws = makeTempDir('lore-meter-');
  const paths = storePaths(path.join(ws, '.lore'), ws);
  initStore(paths, defaultPromptsDir());
  return paths;
}

/** A call recorded by another process, `tokens` in all. */
function otherCall(tokens: number): SpendingRecord {
  return {
    at: new Date().toISOString(),
    run: 'other-process',
    task: 'harvest',
    provider: 'openai',
    model: 'gpt-4o-mini',
    calls: 1,
    inputTokens: tokens,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
  };
}

describe('metered model calls', () => {
  it('a harvest that dies after its first call still has that call in the log', async () => {
    const paths = store();
    for (const id of ['c0', 'c1']) fs.writeFileSync(path.join(paths.inbox, `${id}.md`), transcript(id, `We talked about ${id}.`));
    const model = stubModel();
    let distilling = 0;
    await assert.rejects(
      runHarvest({
        paths,
        mode: 'preview',
        provider: model,
        // The process "dies" as the second conversation starts: the run never reaches its end.
        onProgress: (line) => {
          if (line.startsWith('distilling') && ++distilling === 2) throw new Error('killed');
        },
      }),
      /killed/,
    );
    assert.equal(model.calls, 1);
    const records = readSpending(paths);
    assert.deepEqual(
      records.map((r) => [r.task, r.calls, r.inputTokens, r.outputTokens]),
      [['harvest', 1, 1000, 100]],
    );
  });

  it('records each journal or tidy call with its task and one run id, and lore cost sums them by task', async () => {
    const paths = store();
    const model = stubModel();
    const { provider } = meteredProvider(paths, model, 'tidy', "the tidy's next request", { via: 'cli' });
    await provider.generate(REQUEST);
    await provider.generate(REQUEST);
    const records = readSpending(paths);
    assert.deepEqual(
      records.map((r) => [r.task, r.calls, r.via]),
      [
        ['tidy', 1, 'cli'],
        ['tidy', 1, 'cli'],
      ],
    );
    assert.equal(records[0].run, records[1].run);
    const summary = spendingSummary(paths, new Date());
    assert.deepEqual(
      summary.byTask.map((t) => [t.task, t.tokens, t.calls]),
      [['tidy', 2200, 2]],
    );
    assert.deepEqual(
      summary.recent.map((r) => [r.task, r.calls]),
      [['tidy', 2]],
    );
  });

  it('refuses a request past the daily cap, counting what another process recorded just before', async () => {
    const paths = store();
    fs.writeFileSync(paths.config, JSON.stringify({ budget: { dailyTokens: 5_000, perHarvestTokens: 10 } }));
    const model = stubModel();
    const { provider } = meteredProvider(paths, model, 'journal', 'the journal summary');
    // About 1,000 tokens in and 1,000 allowed for the reply: it fits (the per-harvest cap is a harvest's own).
    await provider.generate(REQUEST);
    assert.equal(model.calls, 1);
    appendSpending(paths, [otherCall(2_500)]);
    await assert.rejects(provider.generate(REQUEST), (error: unknown) => {
      assert.ok(error instanceof SpendingCapError);
      assert.equal(error.stop.cap, 'dailyTokens');
      assert.equal(error.stop.spent, 3_600);
      assert.match(
        error.message,
        /^Stopped at the daily token cap of 5\.0K tokens: 3\.6K tokens spent today, and the journal summary needs about 2\.0K tokens, so it was not sent\. Raise "budget": \{"dailyTokens"\} in the store's config\.json, or wait until tomorrow\.$/,
      );
      return true;
    });
    assert.equal(model.calls, 1, 'nothing sent past the cap');
  });

  it("a caller's own cap holds beside config.json's, and the offline extractor is never wrapped or recorded", async () => {
    const paths = store();
    const model = stubModel();
    const capped = meteredProvider(paths, model, 'tidy', "the tidy's next request", { caps: { monthlyUsd: 0 } });
    await assert.rejects(
      capped.provider.generate(REQUEST),
      /the monthly spending cap of \$0\.00.*Raise lore\.budget\.monthlyUsd in settings, or wait until next month\./,
    );
    const rules = createProvider('rules');
    assert.equal(meteredProvider(paths, rules, 'tidy', 'x').provider, rules);
    assert.deepEqual(readSpending(paths), []);
  });
});

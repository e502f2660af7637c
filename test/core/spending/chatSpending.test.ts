/**
 * @lore chat's calls are counted as the editor sees them: a direct provider's reported usage as it
 * came, a VS Code language model's (it reports none) from the text, marked estimated; each call is
 * written to the log as `chat`, priced, and held to the daily and monthly caps like a tidy's.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { defaultPromptsDir } from '../../../src/core/services/harvest/prompts';
import { recordTaskCall, taskBudget, taskCallOf } from '../../../src/core/services/spending/meteredTask';
import { readSpending } from '../../../src/core/services/spending/spendingLog';
import { spendingSummary } from '../../../src/core/services/spending/spendingSummary';
import { initStore } from '../../../src/core/store/initStore';
import { storePaths, type StorePaths } from '../../../src/core/store/storePaths';
import { makeTempDir } from '../../helpers/paths';

function store(): StorePaths {
  const ws = makeTempDir('lore-chat-spend-');
  const paths = storePaths(path.join(ws, '.lore'), ws);
  initStore(paths, defaultPromptsDir());
  return paths;
}

describe("@lore chat's spending", () => {
  it('estimates a call without usage from the text sent and received (bytes / 4), and says it is estimated', () => {
    const call = taskCallOf('vscode-lm', 'gpt-4o', 'q'.repeat(4_000), 'a'.repeat(400));
    assert.deepEqual(call, { provider: 'vscode-lm', model: 'gpt-4o', inputTokens: 1_000, outputTokens: 100, estimated: true });
    // Bytes, not characters: a non-ASCII answer costs more tokens than its length.
    assert.equal(taskCallOf('vscode-lm', 'm', '', 'é'.repeat(400)).outputTokens, 200);
    // An empty usage (a compatible server that reports zeros) is no usage.
    assert.equal(taskCallOf('openai', 'm', 'q'.repeat(40), 'a', { inputTokens: 0, outputTokens: 0 }).estimated, true);
  });

  it("keeps a direct provider's reported usage, cache tokens included, and is not estimated", () => {
    const call = taskCallOf('anthropic', 'claude-x', 'q'.repeat(4_000), 'a', {
      inputTokens: 5_000,
      outputTokens: 300,
      cacheReadTokens: 4_000,
      cacheWriteTokens: 0,
    });
    assert.deepEqual(call, {
      provider: 'anthropic',
      model: 'claude-x',
      inputTokens: 5_000,
      outputTokens: 300,
      cacheReadTokens: 4_000,
      cacheWriteTokens: 0,
    });
  });

  it('writes a call to the log as chat, priced at list price, and lore cost counts it by task', () => {
    const paths = store();
    const at = new Date();
    const line = recordTaskCall(
      paths,
      'chat',
      { provider: 'openai', model: 'gpt-4o-mini', inputTokens: 1_000_000, outputTokens: 1_000_000 },
      { run: 'lore-chat-1', via: 'vscode', clock: () => at },
    );
    // GPT-4o mini: $0.15 in, $0.60 out per million.
    assert.ok(line.usd !== undefined && Math.abs(line.usd - 0.75) < 1e-9, String(line.usd));
    const records = readSpending(paths);
    assert.deepEqual(
      records.map((r) => [r.task, r.run, r.via, r.provider, r.model, r.calls, r.estimated]),
      [['chat', 'lore-chat-1', 'vscode', 'openai', 'gpt-4o-mini', 1, undefined]],
    );
    recordTaskCall(paths, 'chat', taskCallOf('vscode-lm', 'unpriced-model', 'q'.repeat(400), 'a'.repeat(40)), { run: 'lore-chat-1' });
    const [, estimated] = readSpending(paths);
    assert.equal(estimated.estimated, true);
    assert.equal(estimated.usd, undefined, 'an unknown model is tokens only');
    assert.deepEqual(
      spendingSummary(paths, at).byTask.map((t) => [t.task, t.calls, t.tokens]),
      [['chat', 2, 2_000_110]],
    );
  });

  it("refuses a call past the daily cap with the cap's words, counting the chat calls already recorded", () => {
    const paths = store();
    fs.writeFileSync(paths.config, JSON.stringify({ budget: { dailyTokens: 5_000 } }));
    const budget = taskBudget(paths);
    // 1,000 tokens sent and 1,000 allowed for the reply: it fits.
    assert.equal(budget.check('openai', 'gpt-4o-mini', 1_000, "@lore's answer"), undefined);
    recordTaskCall(paths, 'chat', { provider: 'openai', model: 'gpt-4o-mini', inputTokens: 3_000, outputTokens: 500 }, { run: 'd' });
    const refusal = budget.check('openai', 'gpt-4o-mini', 1_000, "@lore's answer");
    assert.ok(refusal);
    assert.equal(refusal.stop.cap, 'dailyTokens');
    assert.match(
      refusal.message,
      /^Stopped at the daily token cap of 5\.0K tokens: 3\.5K tokens spent today, and @lore's answer needs about 2\.0K tokens, so it was not sent\./,
    );
    // A settings cap holds beside config.json's.
    assert.match(
      taskBudget(paths, { caps: { monthlyUsd: 0 } }).check('openai', 'gpt-4o-mini', 10, 'x')?.message ?? '',
      /lore\.budget\.monthlyUsd in settings/,
    );
  });
});

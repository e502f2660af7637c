/**
 * Spending in words, one way for every place that shows it (the harvest's report, `lore sources`,
 * `lore cost`, VS Code's Ledger view): "this month: 1.2M tokens, $0.84 of $5.00".
 */
import { formatTokens } from '../../model/format';
import { formatUsd } from '../promptCache/modelPrices';
import { BudgetGuard, capAmount, capName, type ResolvedCaps } from './budget';
import type { HarvestSpending } from './harvestSpending';
import type { SpendingTask, SpendingTotals } from './spendingLog';

type Totals = Pick<SpendingTotals, 'tokens' | 'usd' | 'unpricedTokens'>;

/** What a model call served, in words. */
export const TASK_NAMES: Record<SpendingTask, string> = {
  harvest: 'harvest',
  journal: 'journal summary',
  tidy: 'tidy',
  chat: '@lore chat',
};

/** A period's spending against its caps: `this month: 1.2M of 5.0M tokens, $0.84 of $5.00`. */
export function periodText(label: 'today' | 'this month', totals: Totals, caps: ResolvedCaps): string {
  const tokenCap = caps[label === 'today' ? 'dailyTokens' : 'monthlyTokens'];
  const usdCap = caps[label === 'today' ? 'dailyUsd' : 'monthlyUsd'];
  const tokens = tokenCap
    ? `${formatTokens(totals.tokens)} of ${formatTokens(tokenCap.limit)} tokens`
    : `${formatTokens(totals.tokens)} tokens`;
  const priced = totals.tokens > totals.unpricedTokens || usdCap;
  const usd = priced ? `, ${formatUsd(totals.usd)}${usdCap ? ` of ${formatUsd(usdCap.limit)}` : ''}` : '';
  const unpriced =
    totals.unpricedTokens > 0 && totals.unpricedTokens < totals.tokens
      ? ` (${formatTokens(totals.unpricedTokens)} tokens at no known price)`
      : '';
  return `${label}: ${tokens}${usd}${unpriced}`;
}

/** Today and this month on one line. */
export function periodsText(spending: { today: Totals; month: Totals; caps: ResolvedCaps }): string {
  return `${periodText('today', spending.today, spending.caps)} · ${periodText('this month', spending.month, spending.caps)}`;
}

/** The per-harvest caps, when set: `at most 200K tokens, $0.50 a harvest`. */
export function perHarvestText(caps: ResolvedCaps): string | undefined {
  const parts = [
    caps.perHarvestTokens ? `${formatTokens(caps.perHarvestTokens.limit)} tokens` : '',
    caps.perHarvestUsd ? formatUsd(caps.perHarvestUsd.limit) : '',
  ].filter(Boolean);
  return parts.length ? `at most ${parts.join(', ')} a harvest` : undefined;
}

/**
 * What a harvest report says about spending: for a dry run its estimate, for a run what it
 * spent, the reused replies (no tokens spent), then today and this month.
 */
export function harvestSpendingLines(spending: HarvestSpending, mode: 'dry-run' | 'preview' | 'apply'): string[] {
  const lines: string[] = [];
  if (mode === 'dry-run') {
    if (spending.estimate) {
      const usd = spending.estimate.usd !== undefined ? ` (about ${formatUsd(spending.estimate.usd)})` : ' (no known price for this model)';
      lines.push(`a model would read about ${formatTokens(spending.estimate.tokens)} tokens${usd}, before cached replies are counted out`);
      // Judged as a whole: a harvest checks each conversation, so some may still go.
      const passed = new BudgetGuard(spending.caps, () => spending).check({ tokens: 0, usd: 0 }, spending.estimate);
      if (passed)
        lines.push(
          `that is more than ${capName(passed.cap)} (${capAmount(passed.cap, passed.limit)}) leaves: a harvest sends what fits and leaves the rest for later`,
        );
    }
  } else {
    const run = spending.run;
    if (run.tokens > 0) lines.push(`spent: ${formatTokens(run.tokens)} tokens${run.usd > 0 ? `, ${formatUsd(run.usd)}` : ''}`);
    if (spending.reused > 0)
      lines.push(
        `${spending.reused === 1 ? '1 conversation' : `${spending.reused} conversations`} reused cached replies: no tokens spent on ${spending.reused === 1 ? 'it' : 'them'}`,
      );
  }
  const perHarvest = perHarvestText(spending.caps);
  lines.push(`${periodsText(spending)}${perHarvest ? ` · ${perHarvest}` : ''}`);
  return lines;
}

/** A run's spending in one or two sentences, for a message: what it spent, the cached replies, a cap that stopped it. */
export function runSpendingSentence(spending: HarvestSpending | undefined): string {
  if (!spending) return '';
  const parts: string[] = [];
  const { run, reused } = spending;
  if (run.tokens > 0) parts.push(`Spent ${formatTokens(run.tokens)} tokens${run.usd > 0 ? ` (${formatUsd(run.usd)})` : ''}.`);
  if (reused > 0)
    parts.push(
      `${reused === 1 ? '1 conversation' : `${reused} conversations`} reused cached replies: no tokens spent on ${reused === 1 ? 'it' : 'them'}.`,
    );
  if (spending.stop) parts.push(spending.stop.text);
  return parts.join(' ');
}

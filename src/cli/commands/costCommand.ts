/** `lore cost`: what model calls cost on this machine, today and this month, against the caps, by task and model. */
import { spendingSummary, type SpendingSummary } from '../../core/services/spending/spendingSummary';
import { periodText, perHarvestText, TASK_NAMES } from '../../core/services/spending/spendingText';
import { formatUsd } from '../../core/services/promptCache/modelPrices';
import { humanTime } from '../../core/model/format';
import { command, type Parsed } from '../command';
import { EXIT_OK, formatTokens, printable, type Output } from '../cliSupport';

export const costCommand = command({
  name: 'cost',
  usage: ['[--root DIR] [--json]'],
  description: `What model calls from this machine cost (harvests, journal summaries, tidies with a model):
today and this month (tokens, and dollars at list prices where the model's price is known)
against the caps in config.json's "budget" (perHarvestTokens, dailyTokens, monthlyTokens,
perHarvestUsd, dailyUsd, monthlyUsd; the daily and monthly ones hold for every task), this month
by task and by provider and model, and the last runs. Cached replies and the offline extractor
cost nothing. Kept in <store>/.logs/spending.jsonl, one line per call as it ends, which git
ignores; reads and writes nothing else.`,
  options: {},
  takes: { positionals: false },
  run: cost,
});

async function cost(parsed: Parsed, io: Output): Promise<number> {
  const summary = spendingSummary(parsed.paths, new Date());
  if (parsed.values.json) io.out(JSON.stringify(summary, null, 2));
  else io.out(costText(summary));
  return EXIT_OK;
}

function usdOrTokensOnly(usd: number | undefined, unpricedTokens = 0, tokens = 0): string {
  if (usd === undefined || (unpricedTokens > 0 && unpricedTokens === tokens)) return 'no known price';
  return formatUsd(usd);
}

function costText(summary: SpendingSummary): string {
  const lines = [periodText('today', summary.today, summary.caps), periodText('this month', summary.month, summary.caps)];
  const perHarvest = perHarvestText(summary.caps);
  if (perHarvest) lines.push(`per harvest: ${perHarvest}`);
  if (!Object.keys(summary.caps).length) lines.push('caps: none (set them under "budget" in config.json)');
  if (summary.byTask.length) {
    lines.push('', 'this month by task:');
    for (const t of summary.byTask)
      lines.push(
        `  ${TASK_NAMES[t.task]}: ${formatTokens(t.tokens)} tokens, ${usdOrTokensOnly(t.usd, t.unpricedTokens, t.tokens)}, ${t.calls} call${t.calls === 1 ? '' : 's'}`,
      );
  }
  if (summary.byModel.length) {
    lines.push('', 'this month by model:');
    for (const m of summary.byModel) {
      const counted = m.estimated ? ' (some counted from the text: the provider reported no usage)' : '';
      lines.push(
        `  ${printable(m.provider)} ${printable(m.model || '(unnamed)')}: ${formatTokens(m.tokens)} tokens (${formatTokens(m.inputTokens)} in, ${formatTokens(m.outputTokens)} out), ${usdOrTokensOnly(m.usd, m.unpricedTokens, m.tokens)}, ${m.calls} call${m.calls === 1 ? '' : 's'}${counted}`,
      );
    }
  }
  if (summary.recent.length) {
    lines.push('', 'last runs:');
    const now = Date.now();
    for (const run of summary.recent) {
      const spent = run.calls
        ? `${formatTokens(run.tokens)} tokens, ${usdOrTokensOnly(run.usd)}, ${run.calls} call${run.calls === 1 ? '' : 's'}`
        : 'no tokens spent';
      const reused = run.reused ? `; ${run.reused} reused cached repl${run.reused === 1 ? 'y' : 'ies'}` : '';
      const via = run.via === 'scheduled' ? ' (scheduled)' : '';
      lines.push(
        `  ${humanTime(run.at, { now })}${via}, ${TASK_NAMES[run.task]}: ${printable(run.provider)} ${printable(run.models.join(', '))}: ${spent}${reused}`,
      );
    }
  } else lines.push('', 'Lore has not called a model from this machine yet');
  return lines.join('\n');
}

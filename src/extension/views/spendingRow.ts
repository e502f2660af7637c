/**
 * The Ledger view's top row once Lore has called a model (or a cap is set): what this month
 * cost, against its caps, with today beside it and, on hover, each task's (harvest, journal
 * summary, tidy) and each provider's and model's share.
 * Read from the store's spending log (core's spendingSummary); `lore cost` has the same figures.
 */
import * as vscode from 'vscode';
import { spendingSummary, type SpendingSummary } from '../../core/services/spending/spendingSummary';
import { periodText, perHarvestText, TASK_NAMES } from '../../core/services/spending/spendingText';
import { formatUsd } from '../../core/services/promptCache/modelPrices';
import { formatTokens } from '../../core/model/format';
import type { StorePaths } from '../../core/store/storePaths';
import { readSettings } from '../settings';
import type { TreeNode } from './treeBase';

export interface SpendingNode extends TreeNode {
  kind: 'spending';
  summary: SpendingSummary;
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The hover: the caps, then this month by provider and model. */
function tooltipText(summary: SpendingSummary): string {
  const lines = [
    capitalized(periodText('this month', summary.month, summary.caps)),
    capitalized(periodText('today', summary.today, summary.caps)),
  ];
  const perHarvest = perHarvestText(summary.caps);
  if (perHarvest) lines.push(capitalized(perHarvest));
  // By task only when more than harvests spent: a harvest-only month says nothing new by task.
  if (summary.byTask.length > 1) lines.push('', 'This month by task:');
  for (const t of summary.byTask.length > 1 ? summary.byTask : [])
    lines.push(
      `${capitalized(TASK_NAMES[t.task])}: ${formatTokens(t.tokens)} tokens, ${t.unpricedTokens === t.tokens ? 'no known price' : formatUsd(t.usd)}`,
    );
  if (summary.byModel.length) lines.push('', 'This month by model:');
  for (const m of summary.byModel) {
    const money = m.unpricedTokens === m.tokens ? 'no known price' : formatUsd(m.usd);
    lines.push(
      `${m.provider} ${m.model || '(unnamed)'}: ${formatTokens(m.tokens)} tokens, ${money}, ${m.calls} call${m.calls === 1 ? '' : 's'}`,
    );
  }
  lines.push(
    '',
    'Caps: lore.budget.* in settings, or "budget" in the store\'s config.json. Cached replies and the offline extractor cost nothing.',
  );
  return lines.join('\n');
}

/** The row, or undefined while nothing was spent this month and no cap is set. */
export function spendingNode(paths: StorePaths, now = new Date()): SpendingNode | undefined {
  const summary = spendingSummary(paths, now, readSettings().budget);
  if (summary.month.tokens === 0 && Object.keys(summary.caps).length === 0) return undefined;
  return {
    kind: 'spending',
    summary,
    toTreeItem: () => {
      const item = new vscode.TreeItem(capitalized(periodText('this month', summary.month, summary.caps)));
      item.description = periodText('today', summary.today, summary.caps);
      // Plain text: model names come from the provider's replies.
      item.tooltip = tooltipText(summary);
      item.iconPath = new vscode.ThemeIcon('credit-card');
      item.contextValue = 'lore.spending';
      return item;
    },
  };
}

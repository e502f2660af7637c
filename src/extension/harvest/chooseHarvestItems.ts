/**
 * "Lore: Choose Harvest Items…": the pending plan as a checklist, every new line (by file) and
 * every reclaim of a conversation ticked; what the person unticks leaves the plan
 * (core/harvest/planSelection.ts), and the diff opens again on what remains.
 */
import * as vscode from 'vscode';
import type { PlanItem } from '../../core/services/harvest/planSelection';
import { runCommand } from '../log';
import type { HarvestController } from './harvestController';
import { planTabs } from './pendingPlanStatus';

interface ItemPick extends vscode.QuickPickItem {
  item: PlanItem;
}

function toPick(item: PlanItem): ItemPick {
  if (item.kind === 'reclaim') {
    const verb = item.action === 'delete' ? 'delete' : 'archive';
    return {
      item,
      label: `$(inbox) ${item.path}`,
      description: `${verb} after the harvest (untick to keep it in the inbox)`,
      picked: true,
    };
  }
  return { item, label: item.line, description: item.file, picked: true };
}

export function chooseHarvestItemsCommand(harvest: HarvestController): Promise<unknown> {
  return runCommand('Choose Harvest Items', async () => {
    const pending = harvest.pending;
    const plan = pending?.report.plan;
    if (!pending || !plan) {
      void vscode.window.showInformationMessage('Lore: there is no harvest plan to choose from. Run "Lore: Harvest Conversations…" first.');
      return undefined;
    }
    const items = plan.choices;
    const picks = await vscode.window.showQuickPick(items.map(toPick), {
      canPickMany: true,
      title: 'Lore harvest: the items to write',
      placeHolder: 'Untick what should not be written (or reclaimed); Enter keeps the ticked ones',
    });
    if (!picks) return undefined; // Escape changes nothing.
    const kept = new Set(picks.map((p) => p.item.id));
    const rejected = items.filter((i) => !kept.has(i.id)).map((i) => i.id);
    if (rejected.length === 0) return undefined;
    await harvest.rejectItems(rejected);
    // The open diffs show the plan as it was: show the plan as it is now.
    const tabs = planTabs();
    if (tabs.length) await vscode.window.tabGroups.close(tabs, true);
    const first = harvest.pending?.report.plan?.changes[0];
    if (first) await harvest.showChange(first.file);
    return rejected.length;
  });
}

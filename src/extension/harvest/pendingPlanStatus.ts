/**
 * Keeps a pending harvest plan in sight until it is applied or discarded: a status bar item "Lore:
 * harvest plan ready" stays while a plan is pending, a shortcut to the Harvest Plan view
 * (planView.ts), and its tooltip links to Apply, Choose Items, Review and Discard. Once the plan is
 * applied or discarded the item goes, and so do the "(proposed by Lore harvest)" diff tabs, whose
 * documents no longer show anything that will be written.
 */
import * as vscode from 'vscode';
import { Disposable } from '../lifecycle';
import type { HarvestController } from './harvestController';
import { PLAN_SCHEME } from './planDocuments';
import { PLAN_VIEW } from './planView';
import { planSummary } from './planTreeModel';

/** The commands the tooltip's links run. */
const LINKED = ['lore.applyHarvest', 'lore.chooseHarvestItems', 'lore.reviewHarvest', 'lore.discardHarvest'];

/** True for a tab that shows a document of the plan (alone, or as either side of a diff). */
function isPlanTab(tab: vscode.Tab): boolean {
  const input = tab.input;
  if (input instanceof vscode.TabInputTextDiff) return input.original.scheme === PLAN_SCHEME || input.modified.scheme === PLAN_SCHEME;
  return input instanceof vscode.TabInputText && input.uri.scheme === PLAN_SCHEME;
}

/** The open tabs of plan documents. */
export function planTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((group) => group.tabs.filter(isPlanTab));
}

export class PendingPlanStatus extends Disposable {
  readonly item = this._register(vscode.window.createStatusBarItem('lore.harvestPlan', vscode.StatusBarAlignment.Left, 100));
  /** Whether the item is shown (the status bar API cannot be asked). */
  shown = false;

  constructor(private readonly harvest: HarvestController) {
    super();
    this.item.name = 'Lore Harvest Plan';
    this.item.command = 'lore.harvestPlanActions';
    this._register(
      vscode.commands.registerCommand('lore.harvestPlanActions', () =>
        this.harvest.pending ? vscode.commands.executeCommand(`${PLAN_VIEW}.focus`) : undefined,
      ),
    );
    this._register(harvest.onDidChangePending(() => void this.update()));
    void this.update();
  }

  private async update(): Promise<void> {
    const report = this.harvest.pending?.report;
    if (!report?.plan) {
      this.item.hide();
      this.shown = false;
      // The plan's documents are emptied when it goes; their tabs would show nothing true.
      const tabs = planTabs();
      if (tabs.length) await vscode.window.tabGroups.close(tabs, true);
      return;
    }
    this.item.text = '$(checklist) Lore: harvest plan ready';
    const tooltip = new vscode.MarkdownString(
      `**Lore harvest plan**: ${planSummary(report)}. Nothing is written until you apply.\n\n[Apply](command:lore.applyHarvest) · [Choose Items…](command:lore.chooseHarvestItems) · [Review Changes…](command:lore.reviewHarvest) · [Discard](command:lore.discardHarvest)`,
    );
    tooltip.isTrusted = { enabledCommands: LINKED };
    this.item.tooltip = tooltip;
    this.item.accessibilityInformation = { label: 'Lore: a harvest plan is ready. Activate to show it, then apply or discard it.' };
    this.item.show();
    this.shown = true;
  }
}

/**
 * Keeps a pending harvest plan reachable until it is applied or discarded: the plan's message
 * disappears after a few seconds, and the diff editor's title buttons are unlabelled icons. A
 * status bar item "Lore: harvest plan ready" stays while a plan is pending; clicking it offers
 * Apply, Choose Items, Review and Discard by name, and its tooltip links to them. Once the plan
 * is applied or discarded the item goes, and so do the "(proposed by Lore harvest)" diff tabs,
 * whose documents no longer show anything that will be written.
 */
import * as vscode from 'vscode';
import { itemCountsText, reclaimText } from '../../core/model/format';
import { Disposable } from '../lifecycle';
import type { HarvestController } from './harvestController';
import { PLAN_SCHEME } from './planDocuments';

/** The actions, named as the person reads them, and the commands that do them. */
const ACTIONS = [
  { label: '$(check) Apply Harvest', detail: 'Write exactly the previewed plan (no model call).', command: 'lore.applyHarvest' },
  {
    label: '$(checklist) Choose Items…',
    detail: 'Untick single lines or reclaims to leave them out of the plan.',
    command: 'lore.chooseHarvestItems',
  },
  { label: '$(diff) Review Changes…', detail: 'Open a proposed change as a diff.', command: 'lore.reviewHarvest' },
  { label: '$(discard) Discard Plan', detail: 'Write nothing and forget this plan.', command: 'lore.discardHarvest' },
];

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
    this._register(vscode.commands.registerCommand('lore.harvestPlanActions', () => this.offerActions()));
    this._register(harvest.onDidChangePending(() => void this.update()));
    void this.update();
  }

  private async update(): Promise<void> {
    const plan = this.harvest.pending?.report.plan;
    if (!plan) {
      this.item.hide();
      this.shown = false;
      // The plan's documents are emptied when it goes; their tabs would show nothing true.
      const tabs = planTabs();
      if (tabs.length) await vscode.window.tabGroups.close(tabs, true);
      return;
    }
    const reclaims = reclaimText(
      plan.outcomes.flatMap((o) => (o.reclaim ? [o.reclaim] : [])),
      true,
    );
    this.item.text = '$(checklist) Lore: harvest plan ready';
    const tooltip = new vscode.MarkdownString(
      `**Lore harvest plan**: ${itemCountsText(plan.items)}; ${plan.changes.length} file(s) change${reclaims ? `, ${reclaims}` : ''}. Nothing is written until you apply.\n\n[Apply](command:lore.applyHarvest) · [Choose Items…](command:lore.chooseHarvestItems) · [Review Changes…](command:lore.reviewHarvest) · [Discard](command:lore.discardHarvest)`,
    );
    tooltip.isTrusted = { enabledCommands: ACTIONS.map((a) => a.command) };
    this.item.tooltip = tooltip;
    this.item.accessibilityInformation = { label: 'Lore: a harvest plan is ready. Activate to apply, review or discard it.' };
    this.item.show();
    this.shown = true;
  }

  private async offerActions(): Promise<void> {
    if (!this.harvest.pending) return;
    const pick = await vscode.window.showQuickPick(ACTIONS, {
      title: 'Lore harvest plan',
      placeHolder: 'Apply, review or discard the pending harvest plan',
    });
    if (pick) await vscode.commands.executeCommand(pick.command);
  }
}

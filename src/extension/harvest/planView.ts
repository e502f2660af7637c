/**
 * The Harvest Plan view (`lore.plan`): the pending plan as a place that stays until it is applied
 * or discarded, first in the Lore sidebar and shown only while a plan is pending (the context key
 * `lore.harvestPending`, set here). A notification vanishes while the person reads the diff; this
 * view does not. Its rows (planTreeModel.ts): what will be written, each file (click: its diff),
 * each item with a tick (untick: left out of the plan, as Choose Items… does), what is held for
 * review and why, and the conversations that were not distilled and why. Apply and Discard are its
 * title buttons. A plan lives in the language server: after a window reload or a server restart
 * there is none, and the view goes rather than offer an Apply that cannot work.
 */
import * as vscode from 'vscode';
import { Disposable } from '../lifecycle';
import { logger, runCommand } from '../log';
import type { HarvestController } from './harvestController';
import { planRows, sameChoice, type PlanRow } from './planTreeModel';

const log = logger('harvest');

export const PLAN_VIEW = 'lore.plan';
/** The command a file row runs: the diff of that file's proposed change. */
const SHOW_CHANGE = 'lore.showPlanChange';

const ICONS: Record<PlanRow['kind'], string> = {
  summary: 'checklist',
  section: '',
  file: 'diff',
  item: '',
  held: 'shield',
  problem: 'warning',
};

const SECTION_ICONS = { files: 'files', items: 'list-unordered', held: 'shield', problems: 'warning' } as const;

export class PlanView extends Disposable implements vscode.TreeDataProvider<PlanRow> {
  private readonly emitter = this._register(new vscode.EventEmitter<PlanRow | undefined>());
  readonly onDidChangeTreeData = this.emitter.event;
  readonly view: vscode.TreeView<PlanRow>;
  /** The last `setContext` of `lore.harvestPending`: the view exists for the workbench once it is done. */
  private contextSet: Thenable<unknown> = Promise.resolve();
  /** Unticks are handled one after another: each is matched against the plan as the previous one left it. */
  private leaving: Promise<unknown> = Promise.resolve();

  constructor(private readonly harvest: HarvestController) {
    super();
    this.view = this._register(vscode.window.createTreeView(PLAN_VIEW, { treeDataProvider: this, manageCheckboxStateManually: true }));
    this._register(this.view.onDidChangeCheckboxState((e) => this.leaveOut(e.items)));
    this._register(vscode.commands.registerCommand(SHOW_CHANGE, (file: unknown) => typeof file === 'string' && harvest.showChange(file)));
    this._register(harvest.onDidChangePending(() => this.update()));
    this._register(harvest.onDidPreview(() => void this.reveal()));
    this.update();
  }

  private update(): void {
    this.contextSet = vscode.commands.executeCommand('setContext', 'lore.harvestPending', this.harvest.pending !== undefined);
    this.emitter.fire(undefined);
  }

  /** Shows and focuses the view (after a preview, or from the status bar item). */
  async reveal(): Promise<void> {
    await this.contextSet;
    if (this.harvest.pending) await vscode.commands.executeCommand(`${PLAN_VIEW}.focus`);
  }

  /** The rows as shown now (the integration tests read them). */
  rows(): PlanRow[] {
    return planRows(this.harvest.pending?.report);
  }

  getChildren(row?: PlanRow): PlanRow[] {
    if (!row) return this.rows();
    return row.kind === 'section' ? row.children : [];
  }

  getTreeItem(row: PlanRow): vscode.TreeItem {
    const collapsible = row.kind === 'section' ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None;
    const item = new vscode.TreeItem(row.label, collapsible);
    if (row.kind !== 'section') {
      item.description = 'description' in row ? row.description : undefined;
      // Plain strings: conversation text and file names render as text, never as markdown or links.
      item.tooltip = row.kind === 'file' ? `${row.file}\n\nClick to see the change.` : row.tooltip;
    }
    const icon = row.kind === 'section' ? SECTION_ICONS[row.section] : ICONS[row.kind];
    if (icon) item.iconPath = new vscode.ThemeIcon(icon);
    if (row.kind === 'file') item.command = { command: SHOW_CHANGE, title: 'Show Change', arguments: [row.file] };
    if (row.kind === 'item') item.checkboxState = vscode.TreeItemCheckboxState.Checked;
    item.contextValue = `lore.plan.${row.kind}`;
    return item;
  }

  /** Leaves the unticked items out of the pending plan; the open diffs show what remains. */
  private leaveOut(changed: ReadonlyArray<[PlanRow, vscode.TreeItemCheckboxState]>): void {
    const unticked = changed.flatMap(([row, state]) =>
      row.kind === 'item' && state === vscode.TreeItemCheckboxState.Unchecked ? [row] : [],
    );
    if (!unticked.length) return;
    // Ids are positions in the plan a row was drawn from: match each by what it is in the plan as it is then.
    const wanted = unticked.map((row) => row.choice);
    this.leaving = this.leaving.then(() =>
      runCommand('Leave Out of Harvest', async () => {
        const now = this.harvest.pending?.report.plan?.choices ?? [];
        const ids = wanted.flatMap((w) => now.filter((c) => sameChoice(c, w)).map((c) => c.id));
        await this.harvest.rejectItems(ids);
        log.info(`left ${ids.length} item(s) out of the harvest plan`);
      }),
    );
  }
}

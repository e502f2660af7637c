/**
 * The harvest in VS Code: dry-run report → (user confirms) → distill with progress and
 * cancellation → the plan shown as diffs → (user accepts) → apply that plan, with no model call.
 * Nothing is written before the user accepts; a cancelled harvest writes nothing. The runs and
 * the apply happen in the language server (harvestClient.ts), which keeps the pending plan; this
 * side keeps what it shows and the plan's id.
 */
import * as vscode from 'vscode';
import { defaultHarvestSources } from '../../core/services/harvest/agentSources';
import { currentHost } from '../../core/services/discovery/host';
import type { UndoOutcome } from '../../core/store/changes/undoOutcome';
import type { Provider } from '../../core/services/providers/provider';
import { logger } from '../log';
import { readSettings } from '../settings';
import type { StoreService } from '../storeService';
import type { JournalSummarizeRequest, ShownReport } from '../../shared/protocol';
import type { HarvestRunOptions, HarvestClient } from './harvestClient';
import { PlanDocumentProvider, toPlanUri } from './planDocuments';
import type { ResultOf } from '../../shared/declareMessage';

const log = logger('harvest');

export interface PendingHarvest {
  /** The preview as shown: its plan (in the server, `report.plan.id`) is what apply writes. */
  report: ShownReport;
  /** The sources the preview read (a stale preview is made again from these). */
  sources: string[];
}

export class HarvestController implements vscode.Disposable {
  readonly documents = new PlanDocumentProvider();
  private pendingHarvest: PendingHarvest | undefined;
  private running: AbortController | undefined;
  private readonly emitter = new vscode.EventEmitter<void>();
  /** Fires when a plan becomes pending or is applied/discarded. */
  readonly onDidChangePending = this.emitter.event;
  private readonly previewed = new vscode.EventEmitter<PendingHarvest>();
  /** Fires when a preview made a plan pending (the Harvest Plan view shows itself). */
  readonly onDidPreview = this.previewed.event;

  /** A plan lives in the language server: when it restarts the plan is gone, and so is the Apply that would fail. */
  private readonly serverStarts: vscode.Disposable;

  constructor(
    private readonly store: StoreService,
    private readonly server: HarvestClient,
  ) {
    this.serverStarts = server.onDidStart(() => {
      if (!this.pendingHarvest) return;
      log.warn('the language server restarted: the harvest plan it held is gone, nothing was written');
      this.forget();
      void vscode.window.showWarningMessage(
        "Lore: the harvest plan was lost when Lore's background process restarted. Nothing was written; harvest again to see it.",
      );
    });
  }

  get pending(): PendingHarvest | undefined {
    return this.pendingHarvest;
  }

  get isRunning(): boolean {
    return this.running !== undefined;
  }

  /** The conversation sources the settings ask for (the same defaults as `lore harvest`, switched by `lore.sources.*`). */
  sources(): string[] {
    const settings = readSettings();
    const switches = {
      inbox: settings.sourcesInbox,
      claudeCode: settings.sourcesClaudeCode,
      codex: settings.sourcesCodex,
      aider: settings.sourcesAider,
    };
    return [...defaultHarvestSources(this.store.paths, switches, currentHost()).sources, ...settings.sourcesExtra];
  }

  private options(mode: HarvestRunOptions['mode']): HarvestRunOptions {
    const settings = readSettings();
    return {
      mode,
      reclaim: settings.reclaim,
      transcripts: settings.transcripts,
      digestEnabled: settings.digestEnabled,
      privateMarkers: settings.privateMarkers,
      timeoutMs: settings.timeoutSeconds * 1000,
      budget: settings.budget,
    };
  }

  /** Classifies and estimates, writing nothing. */
  async dryRun(provider: Provider, sources = this.sources()): Promise<ShownReport> {
    return this.server.run(provider, sources, this.options('dry-run'));
  }

  /** The scheduled harvest: distill and apply at once, the configured sources, no preview. */
  async applyNow(provider: Provider, onProgress?: (message: string) => void): Promise<ShownReport> {
    // As before the move to the server: the store's config.json decides about transcripts here.
    const report = await this.server.run(
      provider,
      this.sources(),
      { ...this.options('apply'), transcripts: undefined, via: 'scheduled' },
      undefined,
      onProgress,
    );
    this.store.fireChanged();
    return report;
  }

  /** Distills and builds the plan; the plan becomes pending. Returns undefined when cancelled. */
  async preview(
    provider: Provider,
    sources: string[],
    token?: vscode.CancellationToken,
    progress?: (message: string) => void,
  ): Promise<PendingHarvest | undefined> {
    this.discard();
    const controller = new AbortController();
    this.running = controller;
    const subscription = token?.onCancellationRequested(() => controller.abort());
    try {
      const report = await this.server.run(provider, sources, this.options('preview'), controller.signal, progress);
      if (report.cancelled) {
        log.info('harvest cancelled; nothing was written');
        return undefined;
      }
      const previewed = report.conversations.filter((c) => c.status || c.reclaim).length;
      this.pendingHarvest = { report, sources };
      this.documents.setPlan(report.plan);
      this.emitter.fire();
      this.previewed.fire(this.pendingHarvest);
      log.info(`plan: ${report.plan?.changes.length ?? 0} file(s) change, ${previewed} conversation(s)`);
      for (const warning of report.warnings) log.warn(warning);
      return this.pendingHarvest;
    } finally {
      subscription?.dispose();
      if (this.running === controller) this.running = undefined;
    }
  }

  /** Cancels a running distillation (the progress notification's Cancel button does the same). */
  cancel(): void {
    this.running?.abort();
  }

  /** Opens the diff of one planned change. */
  async showChange(file: string): Promise<void> {
    const version = this.documents.version;
    const title = `${file} (proposed by Lore harvest)`;
    await vscode.commands.executeCommand('vscode.diff', toPlanUri(file, 'before', version), toPlanUri(file, 'after', version), title, {
      preview: true,
    });
  }

  /**
   * Writes the pending plan exactly as previewed, calling no model. When the preview went stale
   * (a conversation changed, a new one arrived, the ledger moved on) nothing is written and the
   * report's `stale` says why. The plan is dropped once applied or found stale.
   */
  async apply(): Promise<ShownReport | undefined> {
    const pending = this.pendingHarvest;
    if (!pending) return undefined;
    const plan = pending.report.plan;
    if (!plan?.id || (!plan.changes.length && !plan.outcomes.some((o) => o.status || o.reclaim))) {
      this.discard();
      return pending.report;
    }
    // On an error (store busy, disk full) the plan stays pending: applying it again is safe.
    const report = await this.server.apply(plan.id);
    this.forget();
    if (report.stale) log.warn(`harvest preview out of date, nothing written: ${report.stale.join('; ')}`);
    else this.store.fireChanged();
    return report;
  }

  /**
   * Takes the rejected items (ids from planItems of the pending plan) out of the pending plan;
   * the diffs show what remains, and Apply writes exactly that.
   */
  async rejectItems(ids: readonly string[]): Promise<void> {
    const pending = this.pendingHarvest;
    const planId = pending?.report.plan?.id;
    if (!pending || !planId || ids.length === 0) return;
    const report = await this.server.choose(planId, [...ids]);
    if (this.pendingHarvest !== pending) return; // discarded or replaced meanwhile
    this.pendingHarvest = { ...pending, report };
    this.documents.setPlan(report.plan);
    this.emitter.fire();
  }

  /** Has `provider` summarize the journal of `date` (in the server; the model is called here). */
  summarizeJournal(provider: Provider, date: string, signal?: AbortSignal): Promise<ResultOf<typeof JournalSummarizeRequest>> {
    const settings = readSettings();
    return this.server.summarizeJournal(provider, date, { timeoutMs: settings.timeoutSeconds * 1000, signal, budget: settings.budget });
  }

  /** Puts the store back as it was before the last apply ("Undo Last Harvest"), or says why not. */
  async undo(): Promise<UndoOutcome> {
    const outcome = await this.server.undo();
    if (outcome.status === 'undone') this.store.fireChanged();
    return outcome;
  }

  /** Drops the pending plan, here and in the server (nothing is written). */
  discard(): void {
    const planId = this.pendingHarvest?.report.plan?.id;
    if (planId)
      void this.server
        .discard(planId)
        .catch((error: unknown) =>
          log.warn(`the server did not forget plan ${planId}: ${error instanceof Error ? error.message : String(error)}`),
        );
    this.forget();
  }

  /** Drops the pending plan here (the server forgot it: applied or found stale). */
  private forget(): void {
    if (!this.pendingHarvest) return;
    this.pendingHarvest = undefined;
    this.documents.setPlan(undefined);
    this.emitter.fire();
  }

  dispose(): void {
    this.serverStarts.dispose();
    this.cancel();
    this.documents.dispose();
    this.emitter.dispose();
    this.previewed.dispose();
  }
}

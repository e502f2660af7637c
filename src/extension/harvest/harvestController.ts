/**
 * The harvest in VS Code: dry-run report → (user confirms) → distill with progress and
 * cancellation → the plan shown as diffs → (user accepts) → apply that plan, with no model call.
 * Nothing is written before the user accepts; a cancelled harvest writes nothing. The runs and
 * the apply happen in the language server (harvestServer.ts); the pending plan is kept here.
 */
import * as vscode from 'vscode';
import { agentSources } from '../../core/services/harvest/agentSources';
import type { HarvestReport } from '../../core/services/harvest/runHarvest';
import { queuedTranscripts } from '../../core/store/captureQueue';
import { withoutItems } from '../../core/services/harvest/planSelection';
import type { UndoOutcome } from '../../core/store/changes/undoLastHarvest';
import type { Provider } from '../../core/services/providers/provider';
import { logger } from '../log';
import { readSettings } from '../settings';
import type { StoreService } from '../storeService';
import type { JournalSummarizeRequest } from '../../shared/protocol';
import type { HarvestRunOptions, HarvestServer } from './harvestServer';
import { PlanDocumentProvider, toPlanUri } from './planDocuments';

const log = logger('harvest');

export interface PendingHarvest {
  /** The preview as shown: its plan is what apply writes. */
  report: HarvestReport;
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

  constructor(private readonly store: StoreService, private readonly server: HarvestServer) {}

  get pending(): PendingHarvest | undefined {
    return this.pendingHarvest;
  }

  get isRunning(): boolean {
    return this.running !== undefined;
  }

  /** The conversation sources the settings ask for. */
  sources(): string[] {
    const settings = readSettings();
    const paths = this.store.paths;
    // The inbox comes with the sessions agent hooks queued (`lore hook`), as in `lore harvest`.
    const sources = settings.sourcesInbox ? [paths.inbox, ...queuedTranscripts(paths)] : [];
    sources.push(...agentSources(paths.workspace, { claudeCode: settings.sourcesClaudeCode, codex: settings.sourcesCodex, aider: settings.sourcesAider }));
    sources.push(...settings.sourcesExtra);
    return sources;
  }

  private options(mode: HarvestRunOptions['mode']): HarvestRunOptions {
    const settings = readSettings();
    return { mode, reclaim: settings.reclaim, transcripts: settings.transcripts, digestEnabled: settings.digestEnabled, privateMarkers: settings.privateMarkers, timeoutMs: settings.timeoutSeconds * 1000 };
  }

  /** Classifies and estimates, writing nothing. */
  async dryRun(provider: Provider, sources = this.sources()): Promise<HarvestReport> {
    return this.server.run(provider, sources, this.options('dry-run'));
  }

  /** The scheduled harvest: distill and apply at once, the configured sources, no preview. */
  async applyNow(provider: Provider, onProgress?: (message: string) => void): Promise<HarvestReport> {
    // As before the move to the server: the store's config.json decides about transcripts here.
    const report = await this.server.run(provider, this.sources(), { ...this.options('apply'), transcripts: undefined }, undefined, onProgress);
    this.store.fireChanged();
    return report;
  }

  /** Distills and builds the plan; the plan becomes pending. Returns undefined when cancelled. */
  async preview(provider: Provider, sources: string[], token?: vscode.CancellationToken, progress?: (message: string) => void): Promise<PendingHarvest | undefined> {
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
    await vscode.commands.executeCommand('vscode.diff', toPlanUri(file, 'before', version), toPlanUri(file, 'after', version), title, { preview: true });
  }

  /**
   * Writes the pending plan exactly as previewed, calling no model. When the preview went stale
   * (a conversation changed, a new one arrived, the ledger moved on) nothing is written and the
   * report's `stale` says why. The plan is dropped once applied or found stale.
   */
  async apply(): Promise<HarvestReport | undefined> {
    const pending = this.pendingHarvest;
    if (!pending) return undefined;
    const plan = pending.report.plan;
    if (!plan || (!plan.changes.length && !plan.outcomes.some((o) => o.status || o.reclaim))) {
      this.discard();
      return pending.report;
    }
    // On an error (store busy, disk full) the plan stays pending: applying it again is safe.
    const report = await this.server.apply(pending.report);
    this.discard();
    if (report.stale) log.warn(`harvest preview out of date, nothing written: ${report.stale.join('; ')}`);
    else this.store.fireChanged();
    return report;
  }

  /**
   * Takes the rejected items (ids from planItems of the pending plan) out of the pending plan;
   * the diffs show what remains, and Apply writes exactly that.
   */
  rejectItems(ids: readonly string[]): void {
    const pending = this.pendingHarvest;
    if (!pending?.report.plan || ids.length === 0) return;
    const plan = withoutItems(this.store.paths, pending.report.plan, ids);
    this.pendingHarvest = { ...pending, report: { ...pending.report, plan, conversations: plan.outcomes } };
    this.documents.setPlan(plan);
    this.emitter.fire();
  }

  /** Has `provider` summarize the journal of `date` (in the server; the model is called here). */
  summarizeJournal(provider: Provider, date: string, signal?: AbortSignal): Promise<JournalSummarizeRequest.Result> {
    return this.server.summarizeJournal(provider, date, { timeoutMs: readSettings().timeoutSeconds * 1000, signal });
  }

  /** Puts the store back as it was before the last apply ("Undo Last Harvest"), or says why not. */
  async undo(): Promise<UndoOutcome> {
    const outcome = await this.server.undo();
    if (outcome.status === 'undone') this.store.fireChanged();
    return outcome;
  }

  discard(): void {
    if (!this.pendingHarvest) return;
    this.pendingHarvest = undefined;
    this.documents.setPlan(undefined);
    this.emitter.fire();
  }

  dispose(): void {
    this.cancel();
    this.documents.dispose();
    this.emitter.dispose();
  }
}

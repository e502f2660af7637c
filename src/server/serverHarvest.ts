/**
 * The harvest in the language server: `lore/harvestRun` runs core's runHarvest here (scan,
 * classify, import, distill's parsing, plan, and apply for the scheduled harvest) and
 * `lore/harvestApply` writes a previewed plan (`lore/harvestUndo` takes the last one back), so the
 * extension host keeps none of that code. A preview's plan stays here, named by an id: the client
 * gets what it shows (ShownPlan) and applies, narrows or discards the plan by that id, so no ledger
 * or edit travels to the client and back. The
 * model is the client's: each call goes back as `lore/providerGenerate` (VS Code's language
 * models exist only in the extension host, and API keys stay in its secret storage), except
 * for the offline rules extractor, which runs here. Free of the connection (ServerHarvestHooks),
 * so tests can drive it in process.
 */
import { applyPreviewedHarvest } from '../core/services/harvest/applyPreviewed';
import { runHarvest, type HarvestReport } from '../core/services/harvest/runHarvest';
import { randomUUID } from 'node:crypto';
import { planItems, withoutItems } from '../core/services/harvest/planSelection';
import { undoLastHarvest } from '../core/store/changes/undoLastHarvest';
import { type UndoOutcome } from '../core/store/changes/undoOutcome';
import { ProviderError, type ModelReply, type ModelRequest, type Provider } from '../core/services/providers/provider';
import { createProvider } from '../core/services/providers/providerRegistry';
import type { StorePaths } from '../core/store/storePaths';
import { journalPath } from '../core/store/journal/journalFile';
import { summarizeJournal } from '../core/services/harvest/summarizeJournal';
import type { HarvestRunRequest, JournalSummarizeRequest, ProviderFailure, ShownReport } from '../shared/protocol';
import type { ParamsOf, ResultOf } from '../shared/declareMessage';

/** Previews kept at once: one is pending per window; a few more cover a client that lost track (a reload). */
const KEPT_PLANS = 4;

/** What the harvest needs from the connection. */
export interface ServerHarvestHooks {
  progress(runId: string, message: string): void;
  /** One model call on the client; rejects with an error whose `data` is a ProviderFailure when the provider failed. */
  generate(runId: string, request: Omit<ModelRequest, 'signal'>, signal: AbortSignal | undefined): Promise<ModelReply>;
}

/** Whether an error's data is what the client sends for a provider's failure. */
function providerFailure(data: unknown): ProviderFailure | undefined {
  const d = data as Partial<ProviderFailure> | undefined;
  return d && typeof d.provider === 'string' && typeof d.kind === 'string' && typeof d.message === 'string'
    ? (d as ProviderFailure)
    : undefined;
}

/** The client's provider as runHarvest sees it: each call made on the client, its errors classified as there. */
function clientProvider(runId: string, described: ParamsOf<typeof HarvestRunRequest>['provider'], hooks: ServerHarvestHooks): Provider {
  return {
    name: described.name,
    label: described.label,
    offline: described.offline,
    ...(described.defaultModel ? { defaultModel: described.defaultModel } : {}),
    async generate(request: ModelRequest): Promise<ModelReply> {
      const { signal, ...rest } = request;
      if (signal?.aborted) throw new ProviderError(described.name, 'cancelled', 'cancelled');
      try {
        return await hooks.generate(runId, rest, signal);
      } catch (error) {
        const failure = providerFailure((error as { data?: unknown }).data);
        if (failure) throw new ProviderError(failure.provider, failure.kind, failure.message, failure.status);
        if (signal?.aborted) throw new ProviderError(described.name, 'cancelled', 'cancelled');
        throw new Error((error as Error).message, { cause: error });
      }
    },
  };
}

/** Runs and applies harvests for one store; one AbortController per running run. */
export class ServerHarvest {
  private readonly running = new Map<string, AbortController>();
  /** Previewed reports by plan id, oldest first. */
  private readonly plans = new Map<string, HarvestReport>();

  constructor(
    private readonly paths: StorePaths,
    private readonly hooks: ServerHarvestHooks,
  ) {}

  /** A dry run, preview or (scheduled) apply, as runHarvest would do it in the client's process. */
  async run(params: ParamsOf<typeof HarvestRunRequest>): Promise<ShownReport> {
    const report = await this.runHarvest(params);
    if (params.mode !== 'preview' || !report.plan || report.cancelled) return this.shown(report);
    const id = randomUUID();
    this.plans.set(id, report);
    while (this.plans.size > KEPT_PLANS) this.plans.delete(this.plans.keys().next().value!);
    return this.shown(report, id);
  }

  /** The report as the client shows it: the plan without what only apply needs. */
  private shown(report: HarvestReport, id?: string): ShownReport {
    const { plan, ...rest } = report;
    if (!plan) return rest;
    return {
      ...rest,
      plan: {
        ...(id ? { id } : {}),
        changes: plan.changes.map(({ file, before, after, added }) => ({ file, before, after, added })),
        outcomes: plan.outcomes,
        items: plan.items,
        orphanNotes: plan.orphanNotes,
        digestEnabled: plan.digestEnabled,
        held: plan.held,
        choices: planItems(this.paths, plan),
      },
    };
  }

  private planned(planId: string): HarvestReport {
    const report = this.plans.get(planId);
    if (!report)
      throw new Error(
        'this harvest plan is no longer held by the language server (it restarted, or the plan was applied or discarded); preview the harvest again',
      );
    return report;
  }

  private async runHarvest(params: ParamsOf<typeof HarvestRunRequest>): Promise<HarvestReport> {
    const controller = new AbortController();
    this.running.get(params.runId)?.abort();
    this.running.set(params.runId, controller);
    try {
      const provider =
        params.provider.name === 'rules' ? createProvider('rules') : clientProvider(params.runId, params.provider, this.hooks);
      return await runHarvest({
        paths: this.paths,
        sources: params.sources,
        mode: params.mode,
        provider,
        reclaim: params.reclaim,
        transcripts: params.transcripts,
        digestEnabled: params.digestEnabled,
        privateMarkers: params.privateMarkers,
        timeoutMs: params.timeoutMs,
        signal: controller.signal,
        onProgress: (message) => this.hooks.progress(params.runId, message),
        spending: { caps: params.budget, via: params.via ?? 'vscode' },
      });
    } finally {
      if (this.running.get(params.runId) === controller) this.running.delete(params.runId);
    }
  }

  /**
   * "Summarize Today's Journal": the day's journal condensed by the client's model (a summary
   * needs a model: the offline rules extractor has none to offer).
   */
  async summarizeJournal(params: ParamsOf<typeof JournalSummarizeRequest>): Promise<ResultOf<typeof JournalSummarizeRequest>> {
    if (params.provider.offline)
      throw new Error(`summarizing the journal needs a model; ${params.provider.label} has none (choose a provider in lore.provider)`);
    const controller = new AbortController();
    this.running.get(params.runId)?.abort();
    this.running.set(params.runId, controller);
    try {
      const provider = clientProvider(params.runId, params.provider, this.hooks);
      const result = await summarizeJournal(this.paths, params.date, provider, {
        timeoutMs: params.timeoutMs,
        signal: controller.signal,
        spending: { caps: params.budget, via: 'vscode' },
      });
      const base = { date: params.date, file: journalPath(this.paths, params.date) };
      if (!result) return base;
      return {
        ...base,
        summary: result.summary,
        ...(result.model ? { model: result.model } : {}),
        ...(result.history?.warning ? { warning: result.history.warning } : {}),
      };
    } finally {
      if (this.running.get(params.runId) === controller) this.running.delete(params.runId);
    }
  }

  /** Stops a running run (it answers with `cancelled: true`); unknown ids are ignored. */
  cancel(runId: string): void {
    this.running.get(runId)?.abort();
  }

  /** Writes previewed plan `planId` as shown; it is forgotten once applied or found stale (an error, e.g. a busy store, keeps it). */
  async apply(planId: string): Promise<ShownReport> {
    const report = await applyPreviewedHarvest(this.paths, this.planned(planId));
    this.plans.delete(planId);
    return this.shown(report);
  }

  /** Leaves the rejected lines and reclaims (ids of the plan's choices) out of plan `planId`. */
  choose(planId: string, rejected: readonly string[]): ShownReport {
    const report = this.planned(planId);
    const plan = withoutItems(this.paths, report.plan!, rejected);
    const narrowed = { ...report, plan, conversations: plan.outcomes };
    this.plans.set(planId, narrowed);
    return this.shown(narrowed, planId);
  }

  /** Forgets plan `planId` unwritten. */
  discard(planId: string): boolean {
    return this.plans.delete(planId);
  }

  /** "Undo Last Harvest": the store as it was before the last apply, or why not. */
  undo(): Promise<UndoOutcome> {
    return undoLastHarvest(this.paths);
  }

  dispose(): void {
    for (const controller of this.running.values()) controller.abort();
    this.running.clear();
  }
}

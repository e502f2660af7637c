/**
 * The harvest between the VS Code client and the language server (part of the shared protocol,
 * re-exported by protocol.ts): runs, apply, undo, the journal summary, cancellation and progress,
 * and the model calls the server makes back on the client (the provider and the topic gate).
 */
import type { z } from 'zod';
import type { HarvestPlan } from '../core/store/harvestPlan';
import type { PlanItem } from '../core/services/harvest/planSelection';
import type { HarvestMode, HarvestReport } from '../core/services/harvest/runHarvest';
import type { UndoOutcome } from '../core/store/changes/undoOutcome';
import type { ModelReply, ModelRequest, ProviderErrorKind } from '../core/services/providers/provider';
import type { PrivateMarkers } from '../core/model/safety/privateSpans';
import { BUDGET_CAP_KEYS, type BudgetCaps, type ReclaimMode } from '../core/model/storeConfigFormat';
import { filePath } from './boundedText';
import { notification, request, returns } from './declareMessage';

/**
 * A harvest plan as the client shows it: what the diff view and the summaries need. The plan
 * itself (with the ledger, transcripts and edits apply replays) stays in the server, named by
 * `id`; the client applies, narrows or discards it by that id.
 */
export interface ShownPlan extends Pick<HarvestPlan, 'outcomes' | 'items' | 'orphanNotes' | 'digestEnabled' | 'held'> {
  /** The server's name of the plan (absent for a plan already applied: the scheduled harvest's). */
  id?: string;
  /** The files it changes: the texts before and after, for the diff view. */
  changes: Array<Pick<HarvestPlan['changes'][number], 'file' | 'before' | 'after' | 'added'>>;
  /** The lines and reclaims a person may leave out (Choose Items…), ids for lore/harvestChoose. */
  choices: PlanItem[];
}

/** A harvest report with its plan as shown to the client. */
export type ShownReport = Omit<HarvestReport, 'plan'> & { plan?: ShownPlan };

/**
 * Client → server: a harvest run (dry run, preview, or apply for the scheduled harvest) with
 * core's runHarvest in the server process: scanning, the importers, distillation's parsing, the
 * plan. The model is called back on the client (`lore/providerGenerate`), which holds the
 * provider (VS Code's language models live in the extension host, and the keys in its secret
 * storage). Progress comes as `lore/harvestProgress`; `lore/harvestCancel` stops the run, which
 * then answers with `cancelled: true` and nothing written.
 */
export const HarvestRunRequest = request({
  method: 'lore/harvestRun',
  direction: 'toServer',
  // runId names this run in progress, provider calls and cancellation; provider: the client's, as
  // runHarvest reports it (the offline rules extractor runs in the server); privateMarkers: a
  // marker pair around private text besides `<private>` and config.json's (lore.privateMarkers).
  // A preview's plan is kept in the server under `plan.id` until applied or discarded.
  params: (z) =>
    z.object({
      runId: z.string().min(1).max(200),
      mode: z.enum(['dry-run', 'preview', 'apply']),
      sources: z.array(filePath(z)).max(100_000),
      provider: z.object({
        name: z.string().min(1).max(100),
        label: z.string().max(1000),
        offline: z.boolean(),
        defaultModel: z.string().max(200).optional(),
      }),
      reclaim: z.enum(['delete', 'archive', 'keep']).optional(),
      transcripts: z.boolean().optional(),
      digestEnabled: z.boolean().optional(),
      privateMarkers: z.object({ open: z.string().min(1).max(200), close: z.string().min(1).max(200) }).optional(),
      timeoutMs: z.number().positive().optional(),
      // lore.budget.*: caps beside config.json's (the lower holds); via: a scheduled run is named so in lore cost.
      budget: z.partialRecord(z.enum(BUDGET_CAP_KEYS), z.number().finite().nonnegative()).optional(),
      via: z.enum(['vscode', 'scheduled']).optional(),
    }) satisfies z.ZodType<{ mode: HarvestMode; reclaim?: ReclaimMode; privateMarkers?: PrivateMarkers; budget?: BudgetCaps }>,
  result: returns<ShownReport>(),
});
/**
 * Client → server: write the previewed plan `planId` exactly as shown (core's
 * applyPreviewedHarvest); the report says `stale` when it no longer fits. The plan is forgotten
 * once applied or found stale; an id the server does not hold (it restarted) is refused.
 */
export const HarvestApplyRequest = request({
  method: 'lore/harvestApply',
  direction: 'toServer',
  params: (z) => z.object({ planId: z.string().min(1).max(200) }).strict(),
  result: returns<ShownReport>(),
});
/** Client → server: leave the chosen lines and reclaims (`rejected`: ids of `plan.choices`) out of plan `planId`; the plan as it is now. */
export const HarvestChooseRequest = request({
  method: 'lore/harvestChoose',
  direction: 'toServer',
  params: (z) => z.object({ planId: z.string().min(1).max(200), rejected: z.array(z.string().min(1).max(200)).max(100_000) }).strict(),
  result: returns<ShownReport>(),
});
/** Client → server: forget plan `planId` without writing (Discard Plan, or a new preview). */
export const HarvestDiscardRequest = request({
  method: 'lore/harvestDiscard',
  direction: 'toServer',
  params: (z) => z.object({ planId: z.string().min(1).max(200) }).strict(),
  result: (z) => z.object({ discarded: z.boolean() }),
});
/** Client → server: put the store back as it was before the last apply (core's undoLastHarvest). */
export const HarvestUndoRequest = request({
  method: 'lore/harvestUndo',
  direction: 'toServer',
  params: (z) => z.object({}).strict(),
  result: returns<UndoOutcome>(),
});
/**
 * Client → server: summarize a day's journal with the client's provider (core's summarizeJournal
 * in the server; the model call comes back as `lore/providerGenerate` under `runId`, and
 * `lore/harvestCancel` with that id stops it). `summary` is absent when the day has no journal.
 */
export interface JournalSummary {
  date: string;
  /** Absolute path of the day's journal. */
  file: string;
  summary?: string[];
  model?: string;
  /** What the store's git history said (the summary is written either way). */
  warning?: string;
}

export const JournalSummarizeRequest = request({
  method: 'lore/journalSummarize',
  direction: 'toServer',
  // date: YYYY-MM-DD (UTC, like the journal's days). A provider failure comes back as an error
  // whose data is a ProviderFailure.
  params: (z) =>
    z
      .object({
        runId: z.string().min(1).max(200),
        date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
        provider: z.object({ name: z.string().min(1).max(100), label: z.string().max(1000), offline: z.boolean() }),
        timeoutMs: z.number().positive().optional(),
        // lore.budget.*: the daily and monthly caps beside config.json's, as for a harvest.
        budget: z.partialRecord(z.enum(BUDGET_CAP_KEYS), z.number().finite().nonnegative()).optional(),
      })
      .strict(),
  result: returns<JournalSummary>(),
});
/** Client → server: stop a running harvest (the progress notification's Cancel). */
export const HarvestCancelNotification = notification({
  method: 'lore/harvestCancel',
  direction: 'toServer',
  params: (z) => z.object({ runId: z.string().min(1).max(200) }),
});
/** Server → client: a harvest run's progress line ("distilling 2/5: …"). */
export const HarvestProgressNotification = notification({
  method: 'lore/harvestProgress',
  direction: 'toClient',
  params: (z) => z.object({ runId: z.string(), message: z.string() }),
});
/**
 * Server → client: one model call of a harvest run, made with the run's provider on the client.
 * A provider failure comes back as an error whose `data` is {@link ProviderFailure}, so the
 * server's harvest classifies it as it would in process.
 */
export const ProviderGenerateRequest = request({
  method: 'lore/providerGenerate',
  direction: 'toClient',
  // The model request is core's (ModelRequest without its signal), made by the server's harvest.
  params: (z) =>
    z.object({ runId: z.string(), request: z.custom<Omit<ModelRequest, 'signal'>>((v) => typeof v === 'object' && v !== null) }),
  result: returns<ModelReply>(),
});
/**
 * Server → client: one tier-3 gate call (core's GateCall) of a lore/compileContext that named
 * `gate`, answered by the client's model with at most one token at temperature 0 where its API
 * allows; the reply's text comes back (the server reads YES/NO and caches the answer).
 */
export const GateAskRequest = request({
  method: 'lore/gateAsk',
  direction: 'toClient',
  // gateId: the `gate.id` of the lore/compileContext asking.
  params: (z) => z.object({ gateId: z.string(), instructions: z.string(), prompt: z.string() }),
  result: (z) => z.object({ text: z.string() }),
});
/** What a provider's error says, across the connection (core's ProviderError). */
export interface ProviderFailure {
  provider: string;
  kind: ProviderErrorKind;
  /** The message without the provider prefix ProviderError adds. */
  message: string;
  status?: number;
}

/**
 * The harvest between the VS Code client and the language server (part of the shared protocol,
 * re-exported by protocol.ts): runs, apply, undo, the journal summary, cancellation and progress,
 * and the model calls the server makes back on the client (the provider and the topic gate).
 */
import type { NotificationType, RequestType } from 'vscode-languageserver-protocol';
import type { HarvestPlan } from '../core/store/harvestPlan';
import type { PlanItem } from '../core/services/harvest/planSelection';
import type { HarvestMode, HarvestReport } from '../core/services/harvest/runHarvest';
import type { UndoOutcome } from '../core/store/changes/undoOutcome';
import type { ModelReply, ModelRequest, ProviderErrorKind } from '../core/services/providers/provider';
import type { PrivateMarkers } from '../core/model/safety/privateSpans';
import type { ReclaimMode } from '../core/model/storeConfigFormat';
import { lazyType } from './lazyType';

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
export namespace HarvestRunRequest {
  export const method = 'lore/harvestRun' as const;
  export interface Params {
    /** Names this run in progress, provider calls and cancellation. */
    runId: string;
    mode: HarvestMode;
    sources: string[];
    /** The client's provider, as runHarvest reports it; the offline rules extractor runs in the server. */
    provider: { name: string; label: string; offline: boolean };
    reclaim?: ReclaimMode;
    transcripts?: boolean;
    digestEnabled?: boolean;
    /** A marker pair around private text besides `<private>` and config.json's (the `lore.privateMarkers` setting). */
    privateMarkers?: PrivateMarkers;
    timeoutMs?: number;
  }
  /** A preview's plan is kept in the server under `plan.id` until applied or discarded. */
  export type Result = ShownReport;
  export declare const type: RequestType<Params, Result, void>;
}
lazyType(HarvestRunRequest, 'request');

/**
 * Client → server: write the previewed plan `planId` exactly as shown (core's
 * applyPreviewedHarvest); the report says `stale` when it no longer fits. The plan is forgotten
 * once applied or found stale; an id the server does not hold (it restarted) is refused.
 */
export namespace HarvestApplyRequest {
  export const method = 'lore/harvestApply' as const;
  export interface Params {
    planId: string;
  }
  export type Result = ShownReport;
  export declare const type: RequestType<Params, Result, void>;
}
lazyType(HarvestApplyRequest, 'request');

/** Client → server: leave the chosen lines and reclaims (`rejected`: ids of `plan.choices`) out of plan `planId`; the plan as it is now. */
export namespace HarvestChooseRequest {
  export const method = 'lore/harvestChoose' as const;
  export interface Params {
    planId: string;
    rejected: string[];
  }
  export type Result = ShownReport;
  export declare const type: RequestType<Params, Result, void>;
}
lazyType(HarvestChooseRequest, 'request');

/** Client → server: forget plan `planId` without writing (Discard Plan, or a new preview). */
export namespace HarvestDiscardRequest {
  export const method = 'lore/harvestDiscard' as const;
  export interface Params {
    planId: string;
  }
  export interface Result {
    discarded: boolean;
  }
  export declare const type: RequestType<Params, Result, void>;
}
lazyType(HarvestDiscardRequest, 'request');

/** Client → server: put the store back as it was before the last apply (core's undoLastHarvest). */
export namespace HarvestUndoRequest {
  export const method = 'lore/harvestUndo' as const;
  export type Params = Record<string, never>;
  export type Result = UndoOutcome;
  export declare const type: RequestType<Params, Result, void>;
}
lazyType(HarvestUndoRequest, 'request');

/**
 * Client → server: summarize a day's journal with the client's provider (core's summarizeJournal
 * in the server; the model call comes back as `lore/providerGenerate` under `runId`, and
 * `lore/harvestCancel` with that id stops it). `summary` is absent when the day has no journal.
 */
export namespace JournalSummarizeRequest {
  export const method = 'lore/journalSummarize' as const;
  export interface Params {
    runId: string;
    /** YYYY-MM-DD (UTC, like the journal's days). */
    date: string;
    provider: { name: string; label: string; offline: boolean };
    timeoutMs?: number;
  }
  export interface Result {
    date: string;
    /** Absolute path of the day's journal. */
    file: string;
    summary?: string[];
    model?: string;
    /** What the store's git history said (the summary is written either way). */
    warning?: string;
  }
  export declare const type: RequestType<Params, Result, ProviderFailure>;
}
lazyType(JournalSummarizeRequest, 'request');

/** Client → server: stop a running harvest (the progress notification's Cancel). */
export namespace HarvestCancelNotification {
  export const method = 'lore/harvestCancel' as const;
  export interface Params {
    runId: string;
  }
  export declare const type: NotificationType<Params>;
}
lazyType(HarvestCancelNotification, 'notification');

/** Server → client: a harvest run's progress line ("distilling 2/5: …"). */
export namespace HarvestProgressNotification {
  export const method = 'lore/harvestProgress' as const;
  export interface Params {
    runId: string;
    message: string;
  }
  export declare const type: NotificationType<Params>;
}
lazyType(HarvestProgressNotification, 'notification');

/**
 * Server → client: one model call of a harvest run, made with the run's provider on the client.
 * A provider failure comes back as an error whose `data` is {@link ProviderFailure}, so the
 * server's harvest classifies it as it would in process.
 */
export namespace ProviderGenerateRequest {
  export const method = 'lore/providerGenerate' as const;
  export interface Params {
    runId: string;
    request: Omit<ModelRequest, 'signal'>;
  }
  export type Result = ModelReply;
  export declare const type: RequestType<Params, Result, ProviderFailure>;
}
lazyType(ProviderGenerateRequest, 'request');

/**
 * Server → client: one tier-3 gate call (core's GateCall) of a lore/compileContext that named
 * `gate`, answered by the client's model with at most one token at temperature 0 where its API
 * allows; the reply's text comes back (the server reads YES/NO and caches the answer).
 */
export namespace GateAskRequest {
  export const method = 'lore/gateAsk' as const;
  export interface Params {
    /** The `gate.id` of the lore/compileContext asking. */
    gateId: string;
    instructions: string;
    prompt: string;
  }
  export interface Result {
    text: string;
  }
  export declare const type: RequestType<Params, Result, void>;
}
lazyType(GateAskRequest, 'request');

/** What a provider's error says, across the connection (core's ProviderError). */
export interface ProviderFailure {
  provider: string;
  kind: ProviderErrorKind;
  /** The message without the provider prefix ProviderError adds. */
  message: string;
  status?: number;
}

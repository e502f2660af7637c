/**
 * The client side of the harvest in the language server (src/server/serverHarvest.ts): sends
 * `lore/harvestRun`, `lore/harvestApply` (a preview's plan stays in the server, named by an id), answers the server's `lore/providerGenerate` with
 * the run's provider (VS Code's language models and the secret keys live here), forwards
 * `lore/harvestProgress` to the run's progress and cancellation as `lore/harvestCancel`; the
 * journal's summary (`lore/journalSummarize`) is a run of the same kind. The
 * importers, the plan and the writes stay out of the extension host.
 */
import type * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { ProviderError, type Provider } from '../../core/services/providers/provider';
import type { UndoOutcome } from '../../core/store/changes/undoOutcome';
import type { BudgetCaps } from '../../core/model/storeConfigFormat';
import {
  HarvestApplyRequest,
  HarvestChooseRequest,
  HarvestDiscardRequest,
  type ShownReport,
  HarvestCancelNotification,
  HarvestProgressNotification,
  HarvestRunRequest,
  HarvestUndoRequest,
  JournalSummarizeRequest,
  ProviderGenerateRequest,
  type ProviderFailure,
} from '../../shared/protocol';
import { Disposable } from '../lifecycle';
import { languageClient } from '../loadLanguageClient';
import type { LoreServerClient } from '../loreServerClient';
import type { ParamsOf, ResultOf } from '../../shared/declareMessage';

/** One harvest run as the client sees it. */
interface ClientRun {
  provider: Provider;
  signal: AbortSignal;
  progress?: (message: string) => void;
}

/** What a run asks of the server besides the sources and the provider. */
export type HarvestRunOptions = Pick<
  ParamsOf<typeof HarvestRunRequest>,
  'mode' | 'reclaim' | 'transcripts' | 'digestEnabled' | 'privateMarkers' | 'timeoutMs' | 'budget' | 'via'
>;

let nextRun = 0;

function describe(provider: Provider): ParamsOf<typeof HarvestRunRequest>['provider'] {
  return {
    name: provider.name,
    label: provider.label,
    offline: provider.offline,
    ...(provider.defaultModel ? { defaultModel: provider.defaultModel } : {}),
  };
}

export class HarvestClient extends Disposable {
  private readonly runs = new Map<string, ClientRun>();
  private handlers: vscode.Disposable[] = [];

  constructor(private readonly notes: LoreServerClient) {
    super();
    // Each (re)started client gets the handlers; the previous client's go with it.
    this._register(notes.onDidStart((client) => this.attach(client)));
    this._register({ dispose: () => this.detach() });
  }

  /** Fires when the language server (re)starts: a plan the previous one held is gone with it. */
  get onDidStart(): vscode.Event<LanguageClient> {
    return this.notes.onDidStart;
  }

  private detach(): void {
    for (const handler of this.handlers) handler.dispose();
    this.handlers = [];
  }

  private attach(client: LanguageClient): void {
    this.detach();
    // `type` is read only now: building it loads the LSP library (see src/shared/protocol.ts).
    this.handlers.push(
      client.onNotification(HarvestProgressNotification.type, (params) => this.runs.get(params.runId)?.progress?.(params.message)),
      client.onRequest(ProviderGenerateRequest.type, (params, token) => this.generate(params, token)),
    );
  }

  /** One model call of a run, with the run's provider; its failure goes back as a ProviderFailure. */
  private async generate(
    params: ParamsOf<typeof ProviderGenerateRequest>,
    token: vscode.CancellationToken,
  ): Promise<ResultOf<typeof ProviderGenerateRequest>> {
    const run = this.runs.get(params.runId);
    if (!run) throw new Error(`no harvest run ${params.runId} is waiting for a model`);
    const controller = new AbortController();
    const abort = () => controller.abort();
    const subscription = token.onCancellationRequested(abort);
    run.signal.addEventListener('abort', abort, { once: true });
    try {
      return await run.provider.generate({ ...params.request, signal: controller.signal });
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      const { LSPErrorCodes, ResponseError } = languageClient();
      const prefix = `${error.provider}: `;
      const message = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
      const failure: ProviderFailure = {
        provider: error.provider,
        kind: error.kind,
        message,
        ...(error.status === undefined ? {} : { status: error.status }),
      };
      throw new ResponseError(LSPErrorCodes.RequestFailed, error.message, failure);
    } finally {
      subscription.dispose();
      run.signal.removeEventListener('abort', abort);
    }
  }

  private async client(): Promise<LanguageClient> {
    const client = await this.notes.ready();
    if (!client?.isRunning())
      throw new Error("Lore's language server is not running, and the harvest runs there (see Output › Lore Language Server)");
    return client;
  }

  /** Runs a harvest in the server with `provider`; `signal` cancels it (the report then says `cancelled`). */
  async run(
    provider: Provider,
    sources: string[],
    options: HarvestRunOptions,
    signal?: AbortSignal,
    progress?: (message: string) => void,
  ): Promise<ShownReport> {
    return this.withRun(provider, signal, progress, (client, runId) => {
      const params: ParamsOf<typeof HarvestRunRequest> = { runId, sources, provider: describe(provider), ...options };
      return client.sendRequest(HarvestRunRequest.type, params);
    });
  }

  /** Summarizes the journal of `date` in the server, the model called here with `provider`; `signal` cancels it. */
  async summarizeJournal(
    provider: Provider,
    date: string,
    options: { timeoutMs?: number; signal?: AbortSignal; budget?: BudgetCaps } = {},
  ): Promise<ResultOf<typeof JournalSummarizeRequest>> {
    return this.withRun(provider, options.signal, undefined, (client, runId) =>
      client.sendRequest(JournalSummarizeRequest.type, {
        runId,
        date,
        provider: describe(provider),
        ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
        ...(options.budget ? { budget: options.budget } : {}),
      }),
    );
  }

  /** A request under a new run id whose model calls come back here to `provider`, cancelled with `signal`. */
  private async withRun<T>(
    provider: Provider,
    signal: AbortSignal | undefined,
    progress: ((message: string) => void) | undefined,
    send: (client: LanguageClient, runId: string) => Promise<T>,
  ): Promise<T> {
    const client = await this.client();
    const runId = `run-${++nextRun}-${Date.now()}`;
    const controller = new AbortController();
    const cancel = () => {
      controller.abort();
      void client.sendNotification(HarvestCancelNotification.type, { runId }).catch(() => undefined);
    };
    if (signal?.aborted) cancel();
    signal?.addEventListener('abort', cancel, { once: true });
    this.runs.set(runId, { provider, signal: controller.signal, progress });
    try {
      return await send(client, runId);
    } finally {
      signal?.removeEventListener('abort', cancel);
      this.runs.delete(runId);
    }
  }

  /** Undoes the last apply, in the server. */
  async undo(): Promise<UndoOutcome> {
    return (await this.client()).sendRequest(HarvestUndoRequest.type, {});
  }

  /** Writes the previewed plan `planId` as shown (or reports it `stale`), in the server. */
  async apply(planId: string): Promise<ShownReport> {
    return (await this.client()).sendRequest(HarvestApplyRequest.type, { planId });
  }

  /** Leaves the `rejected` choices out of plan `planId`; the plan as it is now. */
  async choose(planId: string, rejected: string[]): Promise<ShownReport> {
    return (await this.client()).sendRequest(HarvestChooseRequest.type, { planId, rejected });
  }

  /** Forgets plan `planId` in the server (nothing is written); a server that is gone has forgotten it already. */
  async discard(planId: string): Promise<void> {
    const client = await this.notes.ready();
    if (client?.isRunning()) await client.sendRequest(HarvestDiscardRequest.type, { planId });
  }
}

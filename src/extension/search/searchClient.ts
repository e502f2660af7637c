/**
 * Search as the extension asks for it: the index itself (SQLite FTS5) lives in
 * the language server (src/server/serverSearch.ts), so no query or index update runs on the
 * extension host; so does the context compiler built on it (src/server/serverContext.ts). The server says where the index lives; when that is memory (or
 * nowhere: no SQLite driver loads), a status-bar item says so.
 */
import * as vscode from 'vscode';
import type { RecallResult } from '../../core/services/search/recall';
import type { SearchResponse } from '../../core/services/search/searchTypes';
import type { GateAsker } from '../../core/services/topics/topicGate';
import {
  CompileContextRequest,
  GateAskRequest,
  PlanRememberRequest,
  RecallRequest,
  RememberRequest,
  SearchBackendNotification,
  SearchRequest,
  WatchReplyRequest,
} from '../../shared/protocol';
import { Disposable } from '../lifecycle';
import { logger } from '../log';
import type { LoreServerClient } from '../loreServerClient';
import { onServerNotification } from '../serverNotification';
import type { ParamsOf, ResultOf } from '../../shared/declareMessage';

const log = logger('search');

/** The model a lore/compileContext may ask tier 3 with (answered here, as `lore/gateAsk` comes back). */
export interface ClientGate {
  label: string;
  ask: GateAsker;
}

let nextGate = 0;

export class SearchClient extends Disposable {
  private readonly status = this._register(vscode.window.createStatusBarItem('lore.searchBackend', vscode.StatusBarAlignment.Right, 99));
  /** The engine the server last reported (undefined until the first query opened the index). */
  backend: ParamsOf<typeof SearchBackendNotification> | undefined;
  /** The gates of the compilations in flight, by the id the server asks back with. */
  private readonly gates = new Map<string, ClientGate>();
  private gateHandler: vscode.Disposable | undefined;

  constructor(private readonly notes: LoreServerClient) {
    super();
    this.status.name = 'Lore Search Backend';
    this._register(onServerNotification(notes, SearchBackendNotification, (p) => this.showBackend(p)));
    // A restarted server opens its index again and reports its engine then; each client gets the gate handler.
    this._register(
      notes.onDidStart((client) => {
        this.showBackend(undefined);
        this.gateHandler?.dispose();
        this.gateHandler = client.onRequest(GateAskRequest.type, (params, token) => this.askGate(params, token));
      }),
    );
    this._register({ dispose: () => this.gateHandler?.dispose() });
  }

  /** One gate call of a compilation in flight, with its model; the server's cancellation reaches the call. */
  private async askGate(
    params: ParamsOf<typeof GateAskRequest>,
    token: vscode.CancellationToken,
  ): Promise<ResultOf<typeof GateAskRequest>> {
    const gate = this.gates.get(params.gateId);
    if (!gate) throw new Error(`no context compilation ${params.gateId} is waiting for a gate`);
    const controller = new AbortController();
    const subscription = token.onCancellationRequested(() => controller.abort());
    try {
      return { text: await gate.ask({ instructions: params.instructions, prompt: params.prompt }, controller.signal) };
    } finally {
      subscription.dispose();
    }
  }

  /** Runs a query in the server. Rejects when the language server is not running. */
  async search(query: string, options: Omit<ParamsOf<typeof SearchRequest>, 'query'> = {}): Promise<SearchResponse> {
    return (await this.running()).sendRequest(SearchRequest.type, { query, ...options });
  }

  /** core's `recall`, run in the server. */
  async recall(params: ParamsOf<typeof RecallRequest>): Promise<RecallResult> {
    return (await this.running()).sendRequest(RecallRequest.type, params);
  }

  /**
   * The context compiler for a message (topics, P3 hits from the server's index), run in the
   * server; with `gate`, gated topics are asked through it (tier 3) while the request runs.
   */
  async compileContext(
    params: Omit<ParamsOf<typeof CompileContextRequest>, 'gate'>,
    gate?: ClientGate,
  ): Promise<ResultOf<typeof CompileContextRequest>> {
    const client = await this.running();
    if (!gate) return client.sendRequest(CompileContextRequest.type, params);
    const id = `gate-${++nextGate}-${Date.now()}`;
    this.gates.set(id, gate);
    try {
      return await client.sendRequest(CompileContextRequest.type, { ...params, gate: { id, label: gate.label } });
    } finally {
      this.gates.delete(id);
    }
  }

  /** The topics' output watchers on a model's reply, run in the server; their topics wait for the session's next message. */
  async watchReply(params: ParamsOf<typeof WatchReplyRequest>): Promise<ResultOf<typeof WatchReplyRequest>> {
    return (await this.running()).sendRequest(WatchReplyRequest.type, params);
  }

  /** The line an agent's item would be written as, and where (nothing is written). */
  async planRemember(params: ParamsOf<typeof PlanRememberRequest>): Promise<ResultOf<typeof PlanRememberRequest>> {
    return (await this.running()).sendRequest(PlanRememberRequest.type, params);
  }

  /** Writes an agent's item (core's rememberItem, in the server, under the store lock). */
  async remember(params: ParamsOf<typeof RememberRequest>): Promise<ResultOf<typeof RememberRequest>> {
    return (await this.running()).sendRequest(RememberRequest.type, params);
  }

  private async running() {
    const client = await this.notes.ready();
    if (!client?.isRunning()) throw new Error('the Lore language server is not running, so search is unavailable (see the Lore log)');
    return client;
  }

  /** Shown only when the index is in memory or missing, so the user knows why search is slower or empty. */
  private showBackend(params: ParamsOf<typeof SearchBackendNotification> | undefined): void {
    this.backend = params;
    if (params) log.info(`search backend: ${params.backend} (${params.reason})`);
    if (params && params.backend !== 'sqlite') {
      this.status.text = params.backend === 'memory' ? '$(search) Lore: in-memory search' : '$(warning) Lore: no search';
      this.status.tooltip =
        params.backend === 'memory'
          ? `Lore search uses an in-memory index: ${params.reason}`
          : `Lore search is unavailable: ${params.reason}`;
      this.status.command = 'lore.showLog';
      this.status.show();
    } else {
      this.status.hide();
    }
  }
}

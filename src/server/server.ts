/**
 * Entry point of the Lore language server (dist/server.js), started by the VS Code client over
 * node IPC or stdio (`--node-ipc` / `--stdio`, detected by vscode-languageserver). It serves
 * per-file notes on open editors (code lenses, a hover on the first line, the custom requests of
 * src/shared/protocol.ts), the store's search index (`lore/search`, `lore/recall`) and, inside
 * the store's own markdown, links, diagnostics and quick fixes for provenance markers. File
 * events come from the client (`workspace/didChangeWatchedFiles`); the server watches nothing.
 *
 * Custom messages are registered by method string: see src/shared/protocol.ts for why.
 */
import * as path from 'node:path';
import {
  CancellationTokenSource,
  CodeActionKind,
  CodeLensRefreshRequest,
  ProposedFeatures,
  TextDocumentSyncKind,
  TextDocuments,
  createConnection,
  type InitializeParams,
  type InitializeResult,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { STORE_DIR_NAME, storePaths } from '../core/store/storePaths';
import { transcriptStats } from '../core/store/transcriptFiles';
import {
  CacheSessionsRequest,
  CompileContextRequest,
  DeleteNoteRequest,
  DidDeleteFilesRequest,
  DidRenameFilesRequest,
  FileDecorationsRequest,
  HarvestApplyRequest,
  HarvestChooseRequest,
  HarvestDiscardRequest,
  HarvestCancelNotification,
  HarvestProgressNotification,
  HarvestRunRequest,
  HarvestUndoRequest,
  JournalSummarizeRequest,
  MarkNotesValidRequest,
  MigrateNotesRequest,
  NoteFilesRequest,
  NotesChangedNotification,
  NotesForFileRequest,
  GateAskRequest,
  ProviderGenerateRequest,
  RecallRequest,
  PlanRememberRequest,
  RememberRequest,
  SearchBackendNotification,
  SearchRequest,
  SourcesRequest,
  SessionTitlesRequest,
  StoreChangedNotification,
  TeammateArrivalsNotification,
  TeammateArrivalsRequest,
  TeammateArrivalsSeenRequest,
  WatchReplyRequest,
} from '../shared/protocol';
import { planNoteMigration } from '../core/store/noteMigration';
import { cacheReport } from '../core/services/promptCache/cacheReport';
import { SessionCallsMemo } from '../core/services/promptCache/sessionCalls';
import { currentHost } from '../core/services/discovery/host';
import { sessionTitle } from '../core/services/discovery/sessionTitle';
import { planRemember, rememberItem } from '../core/store/items/rememberItem';
import { reportSources } from '../core/services/harvest/measureSources';
import { provideNotesHover } from './hover';
import { ItemHistoryHovers } from './itemHover';
import { LineAuthorsMemo } from '../core/store/history/lineAuthors';
import { setGitCommitOverride } from '../core/store/history/storeHistory';
import { trustForThisProcess } from '../core/store/storeTrust';
import { LoreServer } from './loreServer';
import { registerForgetRequests, registerTaskRequests } from './storeWorkRequests';
import { registerStoreRequests } from './storeRequests';
import { openDocuments, pathOf } from './openDocuments';
import { HistoryFlush } from './historyFlush';
import { ServerHarvest } from './serverHarvest';
import { storeDocumentKind } from './provenanceLines';
import { provenanceCodeActions, provenanceDiagnostics, provenanceLinks } from './storeDocuments';
import { checkInitializationOptions } from './requestParams';
import { handleNotification, handleRequest } from './handleMessage';
import { lazy } from '../core/base/lazy';
import { takeLinkNotices } from '../core/base/storeLinks';
import type { ParamsOf, ResultOf } from '../shared/declareMessage';

const serverContextModule = lazy(() => require('./serverContext') as typeof import('./serverContext'));

const DIAGNOSTICS_DEBOUNCE_MS = 150;

const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);
let server: LoreServer | undefined;
let harvest: ServerHarvest | undefined;
let lensRefreshSupported = false;
let itemHovers: ItemHistoryHovers | undefined;
const noteAuthors = new LineAuthorsMemo();
let historyFlush: HistoryFlush | undefined;
const diagnosticTimers = new Map<string, NodeJS.Timeout>();

function log(message: string): void {
  connection.console.log(`[server] ${message}`);
}

/** The workspace folder when the client sent none in the options (older or foreign clients). */
function workspaceOf(params: InitializeParams): string {
  const uri = params.workspaceFolders?.[0]?.uri ?? params.rootUri ?? undefined;
  return (uri && pathOf(uri)) ?? process.cwd();
}

/** The running server once its index is built. */
async function ready(): Promise<LoreServer> {
  if (!server) throw new Error('lore language server: not initialized');
  await server.ready;
  return server;
}

connection.onInitialize((params: InitializeParams): InitializeResult => {
  const options = checkInitializationOptions(params.initializationOptions, log);
  // VS Code's lore.git.commit, when set, decides over config.json for the server's writes too.
  setGitCommitOverride(options.gitCommit);
  const workspace = options.workspaceRoot ? path.resolve(options.workspaceRoot) : workspaceOf(params);
  const root = options.storeRoot ? path.resolve(options.storeRoot) : path.join(workspace, STORE_DIR_NAME);
  // A workspace the person trusted in VS Code: its config.json's values are theirs (storeTrust.ts).
  if (options.workspaceTrusted) trustForThisProcess(root);
  lensRefreshSupported = params.capabilities.workspace?.codeLens?.refreshSupport === true;
  server = new LoreServer(
    storePaths(root, workspace),
    {
      notesChanged: (p) => void connection.sendNotification(NotesChangedNotification.method, p),
      refreshCodeLenses: () => {
        if (lensRefreshSupported) connection.sendRequest(CodeLensRefreshRequest.type).catch(() => undefined);
      },
      storeChanged: (p) => void connection.sendNotification(StoreChangedNotification.method, p),
      teammateArrivals: (arrivals) =>
        void connection.sendNotification(TeammateArrivalsNotification.method, { arrivals } satisfies ParamsOf<
          typeof TeammateArrivalsNotification
        >),
      searchBackend: (backend, reason) =>
        void connection.sendNotification(SearchBackendNotification.method, { backend, reason } satisfies ParamsOf<
          typeof SearchBackendNotification
        >),
      log,
    },
    { searchBackend: options.searchBackend },
  );
  harvest = new ServerHarvest(server.paths, {
    progress: (runId, message) =>
      void connection.sendNotification(HarvestProgressNotification.method, { runId, message } satisfies ParamsOf<
        typeof HarvestProgressNotification
      >),
    generate: (runId, request, signal) => {
      // The run's cancellation reaches the client's provider call too.
      const source = new CancellationTokenSource();
      signal?.addEventListener('abort', () => source.cancel(), { once: true });
      return connection
        .sendRequest(ProviderGenerateRequest.method, { runId, request } satisfies ParamsOf<typeof ProviderGenerateRequest>, source.token)
        .finally(() => source.dispose()) as Promise<ResultOf<typeof ProviderGenerateRequest>>;
    },
  });
  // Build the index now rather than on `initialized`, so no request can see it unbuilt.
  void server.start();
  // A trusted workspace's clone gets Lore's merge driver, and a merge it took part in is reconciled.
  if (options.workspaceTrusted) {
    const team = server.teamMerge;
    void team.register().then(() => team.check());
  }
  // The window's writes are made here, so what interval mode holds back is committed from here too.
  historyFlush = new HistoryFlush(server.paths, log);
  return {
    capabilities: {
      // Saves too: a saved noted file may now differ from what its notes describe (see onDidSave).
      textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
      codeLensProvider: { resolveProvider: true },
      hoverProvider: true,
      documentLinkProvider: { resolveProvider: false },
      codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
    },
    serverInfo: { name: 'lore' },
  };
});

connection.onInitialized(() => {
  log(`store ${server!.paths.root}, workspace ${server!.paths.workspace}`);
  // Store files skipped as links out of the store (storeLinks.ts) are read by many handlers and the
  // index's background updates; one drain of their notices into the log covers them all.
  setInterval(() => {
    for (const notice of takeLinkNotices()) log(notice);
  }, LINK_NOTICE_DRAIN_MS).unref();
});

/** How often skipped-link notices reach the log: soon enough to be found where the person looks. */
const LINK_NOTICE_DRAIN_MS = 5_000;

connection.onShutdown(() => {
  historyFlush?.dispose();
  harvest?.dispose();
  server?.dispose();
});

// File events about the store, from the client's watcher (synchronize.fileEvents).
connection.onDidChangeWatchedFiles((params) => {
  for (const change of params.changes) {
    const file = pathOf(change.uri);
    if (file) server?.fileChanged(file);
  }
});

// Search, off the extension host.

handleRequest(connection, SearchRequest, async (params): Promise<ResultOf<typeof SearchRequest>> => {
  return (await ready()).search.search(params);
});

handleRequest(connection, RecallRequest, async (params): Promise<ResultOf<typeof RecallRequest>> => {
  return (await ready()).search.recall(params);
});

// The context compiler and the output watchers (@lore, Why This Context?), off the extension host.

handleRequest(connection, CompileContextRequest, async (params): Promise<ResultOf<typeof CompileContextRequest>> => {
  const s = await ready();
  // Loaded with the first request: the topics and the compiler do not belong to the server's start-up.
  const { compileServerContext } = serverContextModule();
  // Tier 3 goes back to the client, whose model (and key) it is; cancelling reaches the client's call.
  return compileServerContext(s.paths, s.search, params, (gateParams, signal) => {
    const source = new CancellationTokenSource();
    signal.addEventListener('abort', () => source.cancel(), { once: true });
    return (connection.sendRequest(GateAskRequest.method, gateParams, source.token) as Promise<ResultOf<typeof GateAskRequest>>).finally(
      () => source.dispose(),
    );
  });
});

handleRequest(connection, WatchReplyRequest, async (params): Promise<ResultOf<typeof WatchReplyRequest>> => {
  const s = await ready();
  const { watchServerReply } = serverContextModule();
  return watchServerReply(s.paths, params);
});

// An item an agent asked to remember (lore_remember), written here rather than on the extension host.

handleRequest(connection, RememberRequest, async ({ source, ...input }): Promise<ResultOf<typeof RememberRequest>> => {
  const s = await ready();
  const result = await rememberItem(s.paths, input, source, new Date());
  // Through the same batch as a watcher event: note index, lenses, the client's views, the search index.
  if (result.ok) s.fileChanged(path.join(s.paths.root, result.written));
  return result;
});

handleRequest(connection, PlanRememberRequest, async ({ source, ...input }): Promise<ResultOf<typeof PlanRememberRequest>> => {
  return planRemember((await ready()).paths, input, source, new Date());
});

// The harvest, off the extension host (the model is called back on the client).

function harvestOf(): ServerHarvest {
  if (!harvest) throw new Error('lore language server: not initialized');
  return harvest;
}

handleRequest(connection, HarvestRunRequest, (params): Promise<ResultOf<typeof HarvestRunRequest>> => {
  return harvestOf().run(params);
});

handleNotification(connection, HarvestCancelNotification, (params) => harvest?.cancel(params.runId));

handleRequest(connection, HarvestApplyRequest, (params): Promise<ResultOf<typeof HarvestApplyRequest>> => {
  // What it writes reaches the indexes and views through the client's watcher, as any write does.
  return harvestOf().apply(params.planId);
});

handleRequest(connection, HarvestChooseRequest, (params): ResultOf<typeof HarvestChooseRequest> => {
  return harvestOf().choose(params.planId, params.rejected);
});

handleRequest(connection, HarvestDiscardRequest, (params): ResultOf<typeof HarvestDiscardRequest> => {
  return { discarded: harvestOf().discard(params.planId) };
});

handleRequest(connection, HarvestUndoRequest, (): Promise<ResultOf<typeof HarvestUndoRequest>> => {
  return harvestOf().undo();
});

handleRequest(connection, JournalSummarizeRequest, (params): Promise<ResultOf<typeof JournalSummarizeRequest>> => {
  return harvestOf().summarizeJournal(params);
});

registerForgetRequests(connection, ready);
registerStoreRequests(connection, ready, openDocuments(connection, documents));
registerTaskRequests(connection, ready);

// Per-file notes on workspace files.

connection.onCodeLens(async (params) => {
  const file = pathOf(params.textDocument.uri);
  if (!file) return [];
  return (await ready()).lenses.provide(params.textDocument.uri, file);
});

connection.onCodeLensResolve(async (lens) => (await ready()).lenses.resolve(lens));

connection.onHover(async (params) => {
  const file = pathOf(params.textDocument.uri);
  if (!file) return null;
  const s = await ready();
  const kind = storeDocumentKind(s.paths, file);
  const document = documents.get(params.textDocument.uri);
  // A knowledge item in the store's own files: its id and, with git, when it was learned.
  if ((kind === 'category' || kind === 'note') && document) {
    if (itemHovers?.paths !== s.paths) itemHovers = new ItemHistoryHovers(s.paths);
    const hover = await itemHovers.provide(file, document.getText(), params.position.line);
    if (hover) return hover;
  }
  // Each note with who added it (a blame per note file per HEAD, remembered).
  return provideNotesHover(s.notes, file, params.position.line, (noteFile) => noteAuthors.get(s.paths, noteFile));
});

// What arrived from teammates with the last pull, until the person has seen it.

handleRequest(connection, TeammateArrivalsRequest, async (): Promise<ResultOf<typeof TeammateArrivalsRequest>> => {
  return (await ready()).arrivals.current() ?? null;
});

handleRequest(connection, TeammateArrivalsSeenRequest, async (): Promise<ResultOf<typeof TeammateArrivalsSeenRequest>> => {
  (await ready()).arrivals.seen();
  return {};
});

handleRequest(connection, NotesForFileRequest, async (params) => {
  const s = await ready();
  const found = s.notes.find(path.resolve(params.path));
  return found ? s.notes.toFileNotes(found) : null;
});

handleRequest(connection, NoteFilesRequest, async (): Promise<ResultOf<typeof NoteFilesRequest>> => {
  const s = await ready();
  const files = s.index.stored().map((e) => ({ file: path.join(s.paths.files, e.name), path: e.meta.path, count: e.count }));
  return { files: files.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0)), transcripts: transcriptStats(s.paths) };
});

handleRequest(connection, SourcesRequest, async (params): Promise<ResultOf<typeof SourcesRequest>> => {
  const s = await ready();
  return reportSources(currentHost(), s.paths, params.allWorkspaces);
});

handleRequest(connection, SessionTitlesRequest, (params): ResultOf<typeof SessionTitlesRequest> => {
  const titles: Record<string, string> = {};
  for (const file of params.paths) {
    const title = sessionTitle(file);
    if (title !== undefined) titles[file] = title;
  }
  return titles;
});

// What was read of each agent session file: a growing session is read from where the last read stopped.
const sessionCalls = new SessionCallsMemo();

handleRequest(connection, CacheSessionsRequest, (params): ResultOf<typeof CacheSessionsRequest> => {
  // Only the workspace's path is needed: the answer does not wait for the search index.
  if (!server) throw new Error('lore language server: not initialized');
  return cacheReport(currentHost(), server.paths.workspace, { now: params.now ?? Date.now(), limit: params.limit, memo: sessionCalls });
});

handleRequest(connection, FileDecorationsRequest, async (params): Promise<ResultOf<typeof FileDecorationsRequest>> => {
  const s = await ready();
  return { counts: s.notes.counts(params.paths.map((p) => path.resolve(p))) };
});

handleRequest(connection, DidRenameFilesRequest, async (params): Promise<ResultOf<typeof DidRenameFilesRequest>> => {
  const s = await ready();
  return { updated: await s.writer.renameFiles(params.files) };
});

handleRequest(connection, DidDeleteFilesRequest, async (params): Promise<ResultOf<typeof DidDeleteFilesRequest>> => {
  const s = await ready();
  return s.writer.deleteFiles(params.files.map((p) => path.resolve(p)));
});

handleRequest(connection, MigrateNotesRequest, async (params): Promise<ResultOf<typeof MigrateNotesRequest>> => {
  const s = await ready();
  if (!params.apply) return { renames: planNoteMigration(s.paths) };
  const renames = await s.writer.migrateNotes();
  if (renames.length > 0) s.scheduleLensRefresh();
  return { renames };
});

handleRequest(connection, MarkNotesValidRequest, async (params): Promise<ResultOf<typeof MarkNotesValidRequest>> => {
  const s = await ready();
  const result = await s.writer.markValid(path.resolve(params.path));
  if (result.updated) s.scheduleLensRefresh();
  return result;
});

handleRequest(connection, DeleteNoteRequest, async (params): Promise<ResultOf<typeof DeleteNoteRequest>> => {
  const s = await ready();
  return { deleted: await s.writer.deleteNote(params) };
});

// Provenance in the store's own markdown.

connection.onDocumentLinks(async (params) => {
  const file = pathOf(params.textDocument.uri);
  const document = documents.get(params.textDocument.uri);
  if (!file || !document || !server || !storeDocumentKind(server.paths, file)) return [];
  return provenanceLinks(document.getText(), file);
});

connection.onCodeAction((params) => {
  const document = documents.get(params.textDocument.uri);
  const file = pathOf(params.textDocument.uri);
  if (!document || !file || !server || !storeDocumentKind(server.paths, file)) return [];
  return provenanceCodeActions(document, params);
});

function validate(document: TextDocument): void {
  const file = pathOf(document.uri);
  const kind = file && server ? storeDocumentKind(server.paths, file) : undefined;
  if (!kind) return;
  void connection.sendDiagnostics({
    uri: document.uri,
    version: document.version,
    diagnostics: provenanceDiagnostics(document.getText(), kind),
  });
}

documents.onDidOpen((event) => validate(event.document));

documents.onDidChangeContent((event) => {
  const uri = event.document.uri;
  clearTimeout(diagnosticTimers.get(uri));
  diagnosticTimers.set(
    uri,
    setTimeout(() => {
      diagnosticTimers.delete(uri);
      const current = documents.get(uri);
      if (current) validate(current);
    }, DIAGNOSTICS_DEBOUNCE_MS),
  );
});

// VS Code asks for lenses again when the text changes, not when it is saved; but staleness is
// measured against the file on disk, so after a save the lenses of a noted file must be asked for
// again, or they keep the title they had before the save until the tab changes.
documents.onDidSave((event) => {
  const file = pathOf(event.document.uri);
  if (file && server?.notes.find(file)) server.scheduleLensRefresh();
});

documents.onDidClose((event) => {
  clearTimeout(diagnosticTimers.get(event.document.uri));
  diagnosticTimers.delete(event.document.uri);
  const file = pathOf(event.document.uri);
  if (file && server && storeDocumentKind(server.paths, file))
    void connection.sendDiagnostics({ uri: event.document.uri, diagnostics: [] });
});

documents.listen(connection);
connection.listen();

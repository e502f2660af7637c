/**
 * Lore in VS Code. Activation is cheap: register commands and views, nothing heavy until a
 * view is shown or a command runs; note lookups and search run in the language server.
 * Everything registered goes into context.subscriptions.
 */
import * as vscode from 'vscode';
import type { SourcesReport } from '../core/services/harvest/measureSources';
import type { ShownReport as HarvestReport } from '../shared/protocol';
import type { ReviewDecision, ReviewDecisionResult } from '../core/store/items/reviewQueue';
import type { ReviewEditResult } from '../core/store/items/reviewEdit';
import { StoreChangedNotification } from '../shared/protocol';
import { registerCacheCommands, syncInstructions } from './cache/cacheCommands';
import { CacheStates } from './cache/cacheStates';
import { AgentCaches } from './cache/agentCaches';
import { CacheStatusBar } from './cache/cacheStatusBar';
import { ContextKeys } from './contextKeys';
import { DirectModelProvider } from './chat/directModelProvider';
import { registerLoreParticipant, type LoreChat } from './chat/loreParticipant';
import { registerAgentHookCommands } from './harvest/agentHooks';
import { HarvestController } from './harvest/harvestController';
import { HarvestClient } from './harvest/harvestClient';
import { PendingPlanStatus } from './harvest/pendingPlanStatus';
import { PlanView } from './harvest/planView';
import { editItem, registerItemCommands, type KnowledgeItemRef } from './knowledge/itemCommands';
import { SupersededDecorations } from './knowledge/supersededDecorations';
import type { ItemEditAction, ItemEditResult } from './knowledge/knowledgeItemEdit';
import { registerHarvestCommands, type HarvestWithoutDialogs } from './harvest/harvestCommands';
import { HarvestScheduler } from './harvest/harvestSchedule';
import { listSources, registerImportCommand } from './harvest/importConversations';
import { SourcesListing } from './views/sourcesHint';
import { SessionTitles } from './views/sessionTitles';
import { PLAN_SCHEME } from './harvest/planDocuments';
import { initLog, logger } from './log';
import { GitHistory } from './gitHistory';
import { registerMcpServerProvider, type LoreMcpServerProvider } from './mcp/mcpServerProvider';
import { addManualNote, registerNoteCommands } from './notes/noteCommands';
import { offerNoteMigration } from './notes/noteMigrationOffer';
import { decideHeldItem, editHeldItem, registerReviewCommands } from './review/reviewCommands';
import { NoteDecorations } from './notes/noteDecorations';
import { LoreServerClient } from './loreServerClient';
import { forgetConversation, planForgetting, registerForgetConversationCommand } from './views/forgetConversationCommand';
import type { ForgetPlan, ForgetResult } from '../core/store/forget/forgetConversation';
import { registerRecallTool } from './search/recallTool';
import { createRememberTool, registerRememberTool, type RememberToolInput } from './search/rememberTool';
import { registerSearchTools } from './search/searchTool';
import { DistillChoice, registerDistillCommand } from './providers/distillChoice';
import { registerSearchCommand } from './search/searchQuickPick';
import { SearchClient } from './search/searchClient';
import { onServerNotification } from './serverNotification';
import { registerStoreCommands, saveApiKey } from './storeCommands';
import { registerCompareReconstructed } from './knowledge/compareReconstructed';
import { registerTopicCommands } from './topics/topicCommands';
import { StoreService } from './storeService';
import { registerUseGlobalStoreCommand } from './noStore';
import { CacheTreeProvider } from './views/cacheTree';
import { DigestTreeProvider } from './views/digestTree';
import { TasksTreeProvider } from './views/tasksTree';
import { TasksClient } from './tasks/tasksClient';
import { registerTaskTools } from './tasks/taskTools';
import { InboxTreeProvider } from './views/inboxTree';
import { KnowledgeTreeProvider } from './views/knowledgeTree';
import { TeammateArrivals } from './views/teammateArrivals';
import { LedgerTreeProvider } from './views/ledgerTree';
import { ReviewTreeProvider } from './views/reviewTree';
import { TopicsTreeProvider } from './views/topicsTree';
import { registerViewCommands, ViewPresence } from './views/viewPresence';

/** What the extension exports (used by the integration tests and by other extensions). */
export interface LoreApi {
  store: StoreService;
  harvest: HarvestController;
  /** The status bar item that keeps a pending plan's Apply / Review / Discard reachable. */
  planStatus: PendingPlanStatus;
  /** The Harvest Plan view: the pending plan until it is applied or discarded. */
  planView: PlanView;
  views: {
    digest: DigestTreeProvider;
    ledger: LedgerTreeProvider;
    knowledge: KnowledgeTreeProvider;
    cache: CacheTreeProvider;
    review: ReviewTreeProvider;
    inbox: InboxTreeProvider;
    topics: TopicsTreeProvider;
    tasks: TasksTreeProvider;
  };
  /** The views as VS Code shows them (`visible` says whether one is on screen), by view id. */
  treeViews: Record<string, vscode.TreeView<unknown>>;
  /** Which views show: the context keys their `when` clauses read, set again by `update()`. */
  viewPresence: ViewPresence;
  /** The `lore.harvest.schedule` run, now: undefined when skipped (no store, a harvest running or pending). */
  runScheduledHarvest(): Promise<HarvestReport | undefined>;
  caches: CacheStates;
  /** The prompt caches of the workspace's agent sessions (Claude Code, Codex, Copilot Chat), from the language server. */
  agentCaches: AgentCaches;
  statusBar: CacheStatusBar;
  notes: LoreServerClient;
  search: SearchClient;
  /** "Harvest Conversations…" without its dialogs, with the configured provider; the plan is left pending. */
  harvestWithoutDialogs: HarvestWithoutDialogs;
  /** What "Import Conversations…" offers: this workspace's agent sessions per tool, measured (null while the language server is not running). */
  listSources(options?: { allWorkspaces?: boolean }): Promise<SourcesReport | null>;
  /** How conversations are distilled: asked once, remembered in `lore.provider` ("Lore: Choose How to Distill…"). */
  distill: DistillChoice;
  /** Adds a note to a file, as Add Note to This File does once the person typed it. */
  addNote(file: vscode.Uri, text: string): Promise<string>;
  /** Accepts or rejects a held item, as the Review view's commands do once the person confirmed. */
  decideHeldItem(decision: ReviewDecision, itemId: string): Promise<ReviewDecisionResult>;
  /** Replaces the text of an agent's pending write, as the Review view's Edit does once the person typed it. */
  editHeldItem(itemId: string, text: string): Promise<ReviewEditResult>;
  /** Deletes a knowledge item or marks a task done, as the views' menu commands do once the person confirmed. */
  editItem(action: ItemEditAction, item: KnowledgeItemRef): Promise<ItemEditResult>;
  /** The strike-through of superseded items in open store files (what it last drew, per document). */
  superseded: SupersededDecorations;
  /** What Forget This Conversation… lists, and what it does once the person said "Forget" (a modal a test cannot answer). */
  planForgetting(conversation: string): Promise<ForgetPlan>;
  forgetConversation(conversation: string): Promise<ForgetResult>;
  /** The context keys Lore set for its `when` clauses, as the workbench sees them. */
  contextKeys: ContextKeys;
  /** @lore: what the chat participant answers, without the chat view. */
  chat: LoreChat;
  /** Stores a direct provider's API key in VS Code's secret storage, as "Lore: Set API Key…" does once the person typed it. */
  setApiKey(provider: string, key: string | undefined): Promise<void>;
  /** The lore_remember tool as registered (VS Code confirms outside a chat with a modal dialog a test cannot answer). */
  rememberTool: vscode.LanguageModelTool<RememberToolInput>;
  /** The direct provider offered to VS Code as a chat model, so @lore can be asked without Copilot. */
  directModels: DirectModelProvider;
  /** Lore's MCP server as registered with VS Code for agent mode (its definition, or why there is none). */
  mcp: LoreMcpServerProvider;
}

/** Kept for `deactivate`, which must stop the language server and return that promise. */
let serverClient: LoreServerClient | undefined;

/** When the extension's bundle began to load (performance.now()), set by esbuild.mjs's banner; undefined unbundled. */
declare const LORE_BUNDLE_STARTED: number | undefined;

/** "activated in 12.3 ms (bundle loaded in 45.6 ms)": what activation cost, for the Lore output channel. */
function activationTime(started: number): string {
  const ms = (from: number) => (performance.now() - from).toFixed(1);
  const loaded = typeof LORE_BUNDLE_STARTED === 'number' ? ` (bundle loaded in ${(started - LORE_BUNDLE_STARTED).toFixed(1)} ms)` : '';
  return `activated in ${ms(started)} ms${loaded}`;
}

export function activate(context: vscode.ExtensionContext): LoreApi {
  const started = performance.now();
  context.subscriptions.push(initLog());
  const store = new StoreService();
  const notes = new LoreServerClient(context, store);
  // Every write to the store this window makes is a request to the language server.
  store.connect(notes);
  const harvestClient = new HarvestClient(notes);
  const harvest = new HarvestController(store, harvestClient);
  const planStatus = new PendingPlanStatus(harvest);
  const planView = new PlanView(harvest);
  const caches = new CacheStates(context.workspaceState);
  const agentCaches = new AgentCaches(notes);
  const statusBar = new CacheStatusBar(caches, agentCaches);
  // One listing of this workspace's agent sessions, shared by the views that name them when empty.
  const sources = new SourcesListing(() => listSources(notes));
  const titles = new SessionTitles(notes);
  context.subscriptions.push(titles);
  const tasks = new TasksClient(notes);
  // What a pull brought from teammates: the Knowledge view's first group and a notification.
  const arrivals = new TeammateArrivals(notes);
  const views = {
    digest: new DigestTreeProvider(store),
    ledger: new LedgerTreeProvider(store, sources, titles),
    knowledge: new KnowledgeTreeProvider(store, notes, arrivals),
    cache: new CacheTreeProvider(caches, agentCaches),
    review: new ReviewTreeProvider(store),
    inbox: new InboxTreeProvider(store, sources, titles),
    topics: new TopicsTreeProvider(store),
    tasks: new TasksTreeProvider(store, tasks),
  };
  // A preview spends without writing the store: the Ledger's spending row reads the new total then.
  context.subscriptions.push(harvest.onDidChangePending(() => views.ledger.refresh()));
  serverClient = notes;
  const search = new SearchClient(notes);
  const decorations = new NoteDecorations(notes);
  const distill = new DistillChoice(context.secrets);
  const harvestCommands = registerHarvestCommands(context, store, harvest, distill, agentCaches);
  const scheduler = new HarvestScheduler(context, store, harvest);
  const contextKeys = new ContextKeys();
  const mcp = registerMcpServerProvider(context, store);
  const gitHistory = new GitHistory(store);
  const participant = registerLoreParticipant(context, store, caches, search);
  const rememberTool = createRememberTool(store, search);
  const directModels = new DirectModelProvider(context.secrets, store, search);
  const superseded = new SupersededDecorations(store);
  const setStoreContext = () => {
    contextKeys.set('lore.storeExists', store.exists);
    contextKeys.set('lore.noStore', !store.available);
  };
  setStoreContext();
  // Every view a person can see, by id (package.json's `views`); views with groups get Collapse All.
  const treeView = (id: string, treeDataProvider: vscode.TreeDataProvider<unknown>, showCollapseAll = false) =>
    vscode.window.createTreeView(id, { treeDataProvider, showCollapseAll });
  const treeViews: Record<string, vscode.TreeView<unknown>> = {
    'lore.digest': treeView('lore.digest', views.digest, true),
    'lore.ledger': treeView('lore.ledger', views.ledger, true),
    'lore.knowledge': treeView('lore.knowledge', views.knowledge, true),
    'lore.cache': treeView('lore.cache', views.cache),
    'lore.review': treeView('lore.review', views.review),
    'lore.inbox': treeView('lore.inbox', views.inbox),
    'lore.topics': treeView('lore.topics', views.topics),
    'lore.tasks': treeView('lore.tasks', views.tasks, true),
  };
  // The ledger is read once per pass: ViewPresence asks the keys in VIEW_KEYS order, all at once,
  // so the Cache view's check awaits the answer the Ledger's check started.
  let harvested: Promise<boolean> = Promise.resolve(false);
  const viewPresence = new ViewPresence(
    contextKeys,
    {
      'lore.hasKnowledge': () => views.knowledge.hasContent(),
      'lore.hasHarvested': () => (harvested = Promise.resolve(views.ledger.hasContent())),
      'lore.hasHeldItems': () => views.review.hasContent(),
      'lore.hasInbox': () => views.inbox.hasContent(),
      'lore.hasTopics': () => views.topics.hasContent(),
      'lore.hasAgentTasks': () => views.tasks.hasContent(),
      // Prompt caches matter once Lore is in use: a newcomer's first view stays the one next step.
      'lore.hasCaches': async () => (await harvested) && (await views.cache.hasContent()),
    },
    [store.onDidChange, agentCaches.onDidChange, caches.onDidChange],
  );
  // Before there is knowledge the Digest view is where a person starts: its title says so.
  const titleDigest = () =>
    (treeViews['lore.digest'].title = contextKeys.get('lore.hasKnowledge') || !store.available ? 'Digest' : 'Get Started');
  viewPresence.onDidUpdate(titleDigest);
  void viewPresence.update();
  context.subscriptions.push(
    store,
    harvest,
    planStatus,
    planView,
    ...Object.values(views),
    caches,
    agentCaches,
    statusBar,
    notes,
    arrivals,
    search,
    gitHistory,
    onServerNotification(notes, StoreChangedNotification, (p) => store.applyChanges(p)),
    registerSearchCommand(search),
    registerRecallTool(store, search),
    ...registerTaskTools(store, tasks),
    ...registerSearchTools(store, search),
    registerRememberTool(rememberTool),
    decorations,
    vscode.window.registerFileDecorationProvider(decorations),
    ...registerNoteCommands(store, notes),
    store.onDidChange(setStoreContext),
    // Keep opted-in agent instruction files in step with the digest (rewritten only on change).
    store.onDidChange(
      () =>
        void syncInstructions(store).catch((error: unknown) =>
          logger('cache').warn(`instructions not synced: ${error instanceof Error ? error.message : String(error)}`),
        ),
    ),
    ...Object.values(treeViews),
    viewPresence,
    vscode.commands.registerCommand('lore.cache.refresh', () => agentCaches.refresh()),
    ...registerViewCommands(),
    ...registerReviewCommands(store),
    ...registerItemCommands(store),
    superseded,
    registerForgetConversationCommand(notes, store),
    participant.disposable,
    directModels,
    ...registerCacheCommands(store, caches),
    vscode.workspace.registerTextDocumentContentProvider(PLAN_SCHEME, harvest.documents),
    ...registerStoreCommands(context, store),
    registerUseGlobalStoreCommand(),
    registerCompareReconstructed(store),
    ...registerTopicCommands(store, search),
    ...harvestCommands.disposables,
    registerImportCommand(notes, harvestCommands.harvestSources),
    ...registerAgentHookCommands(context, store, harvestCommands.harvestSources),
    scheduler,
    harvestClient,
    distill,
    registerDistillCommand(distill),
    ...mcp.disposables,
  );
  // The language server starts in the background; activation does not wait for it. Without a
  // store (Lore is also activated wherever VS Code lists chat models) it starts when one appears,
  // or when a command needs it (Import Conversations). Once it runs, the agent sessions' caches
  // are read, then again whenever a session file changes.
  let serverStarted = false;
  const startServer = () => {
    if (!store.exists || serverStarted) return;
    serverStarted = true;
    // An older store's device-inode note file names: offered once, when the server can answer.
    void notes
      .ready()
      .then(
        () => offerNoteMigration(store, context.workspaceState),
        () => undefined,
      )
      .catch((error: unknown) => logger('notes').error('could not offer the note file migration', error));
    void agentCaches.refresh();
  };
  startServer();
  context.subscriptions.push(store.onDidChange(startServer));
  logger('extension').info(
    `${activationTime(started)}${store.available ? ` (store ${store.paths.root})` : ' (no store: no folder is open and the global store is not chosen)'}`,
  );
  return {
    store,
    harvest,
    planStatus,
    planView,
    views,
    treeViews,
    viewPresence,
    caches,
    agentCaches,
    statusBar,
    notes,
    search,
    harvestWithoutDialogs: harvestCommands.harvestWithoutDialogs,
    listSources: (options) => listSources(notes, options),
    distill,
    addNote: (file, text) => addManualNote(store, file, text),
    decideHeldItem: (decision, itemId) => decideHeldItem(store, decision, itemId),
    editHeldItem: (itemId, text) => editHeldItem(store, itemId, text),
    runScheduledHarvest: () => scheduler.runNow(),
    editItem: (action, item) => editItem(store, action, item),
    superseded,
    planForgetting: (conversation) => planForgetting(notes, conversation),
    forgetConversation: (conversation) => forgetConversation(notes, store, conversation),
    contextKeys,
    mcp: mcp.provider,
    chat: participant.chat,
    rememberTool,
    directModels,
    setApiKey: (provider, key) => saveApiKey(context.secrets, provider, key),
  };
}

/** Stops the language server (VS Code waits for it); the rest is disposed through context.subscriptions. */
export function deactivate(): Promise<void> | undefined {
  const client = serverClient;
  serverClient = undefined;
  return client?.stop();
}

/**
 * Lore in VS Code. Activation is cheap: register commands and views, nothing heavy until a
 * view is shown or a command runs. Everything registered goes into context.subscriptions.
 */
import * as vscode from 'vscode';
import { HarvestController } from './harvest/harvestController';
import { registerHarvestCommands } from './harvest/harvestCommands';
import { PLAN_SCHEME } from './harvest/planDocuments';
import { initLog, logger } from './log';
import { registerStoreCommands } from './storeCommands';
import { StoreService } from './storeService';
import { DigestTreeProvider } from './views/digestTree';
import { KnowledgeTreeProvider } from './views/knowledgeTree';
import { LedgerTreeProvider } from './views/ledgerTree';

/** What the extension exports (used by the integration tests and by other extensions). */
export interface LoreApi {
  store: StoreService;
  harvest: HarvestController;
  views: { digest: DigestTreeProvider; ledger: LedgerTreeProvider; knowledge: KnowledgeTreeProvider };
}

export function activate(context: vscode.ExtensionContext): LoreApi {
  context.subscriptions.push(initLog());
  const store = new StoreService();
  const harvest = new HarvestController(store);
  const views = {
    digest: new DigestTreeProvider(store),
    ledger: new LedgerTreeProvider(store),
    knowledge: new KnowledgeTreeProvider(store),
  };
  const setStoreContext = () => void vscode.commands.executeCommand('setContext', 'lore.storeExists', store.exists);
  setStoreContext();
  context.subscriptions.push(
    store,
    harvest,
    ...Object.values(views),
    store.onDidChange(setStoreContext),
    vscode.window.registerTreeDataProvider('lore.digest', views.digest),
    vscode.window.registerTreeDataProvider('lore.ledger', views.ledger),
    vscode.window.registerTreeDataProvider('lore.knowledge', views.knowledge),
    vscode.workspace.registerTextDocumentContentProvider(PLAN_SCHEME, harvest.documents),
    ...registerStoreCommands(context, store),
    ...registerHarvestCommands(context, store, harvest),
  );
  logger('extension').info(`activated (store ${store.paths.root})`);
  return { store, harvest, views };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}

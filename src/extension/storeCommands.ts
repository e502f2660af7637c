/**
 * Commands about the store itself: initialize, open, regenerate the digest, set an API key,
 * show the log, open a conversation from the ledger.
 */
import * as vscode from 'vscode';
import { listItems } from '../core/model/categoryFile';
import { conversationFile } from '../core/store/items/provenanceTarget';
import { readTextIfExists } from '../core/base/readText';
import { InitStoreRequest } from '../shared/protocol';
import { STORE_DIR_NAME } from '../core/store/storePaths';
import { runCommand, showLog } from './log';
import { KEYED_PROVIDERS, secretKey } from './providers/providerChoice';
import type { StoreService } from './storeService';
import type { LedgerEntryNode } from './views/ledgerTree';

/** Stores (or, when empty, removes) a direct provider's key in VS Code's secret storage, never in settings. */
export async function saveApiKey(secrets: vscode.SecretStorage, provider: string, key: string | undefined): Promise<void> {
  if (key?.trim()) await secrets.store(secretKey(provider), key.trim());
  else await secrets.delete(secretKey(provider));
}

/**
 * What Create the Store says, with the next step: the walkthrough's first step may be clicked in a
 * workspace that has a store already (a first harvest makes one), which is nothing to warn about.
 */
export function initStoreMessage(existed: boolean): string {
  const next = 'Next: Harvest Conversations… in the Lore view.';
  return existed
    ? `Lore: the knowledge store is already set up. ${next}`
    : `Lore: the knowledge store is ready in ${STORE_DIR_NAME}/. ${next}`;
}

export function registerStoreCommands(context: vscode.ExtensionContext, store: StoreService): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('lore.showLog', () => showLog()),
    vscode.commands.registerCommand('lore.openItem', (file: string, text: string) =>
      runCommand('Open Item', async () => {
        const line = listItems(readTextIfExists(file) ?? '').find((item) => item.text === text)?.line ?? 0;
        await vscode.window.showTextDocument(vscode.Uri.file(file), { selection: new vscode.Range(line, 0, line, 0), preview: true });
      }),
    ),
    // `quiet`: made on the way to something else (a first harvest), which says what happens next.
    vscode.commands.registerCommand('lore.initStore', (options?: { quiet?: boolean }) =>
      runCommand('Initialize Store', async () => {
        const existed = store.exists;
        await store.request(InitStoreRequest, {});
        store.fireChanged();
        if (options?.quiet !== true) void vscode.window.showInformationMessage(initStoreMessage(existed));
        return store.paths.root;
      }),
    ),
    vscode.commands.registerCommand('lore.openStore', () =>
      runCommand('Open Knowledge Store', async () => {
        if (!store.exists) {
          const choice = await vscode.window.showInformationMessage(
            `Lore: there is no knowledge store at ${store.paths.root} yet.`,
            'Initialize',
          );
          if (choice !== 'Initialize') return;
          await vscode.commands.executeCommand('lore.initStore');
        }
        await vscode.commands.executeCommand('revealInExplorer', vscode.Uri.file(store.paths.root));
        await vscode.window.showTextDocument(vscode.Uri.file(store.paths.root + '/facts.md'), { preview: true });
      }),
    ),
    vscode.commands.registerCommand('lore.regenerateDigest', () => runCommand('Regenerate Digest', () => store.regenerateDigest())),
    vscode.commands.registerCommand('lore.setApiKey', (provider?: string) =>
      runCommand('Set API Key', async () => {
        const name =
          provider ?? (await vscode.window.showQuickPick([...KEYED_PROVIDERS], { title: 'Lore: which provider is the key for?' }));
        if (!name) return;
        const key = await vscode.window.showInputBox({
          title: `Lore: ${name} API key`,
          password: true,
          ignoreFocusOut: true,
          prompt: "Stored in VS Code's secret storage, never in settings. Leave empty to remove it.",
        });
        if (key === undefined) return;
        await saveApiKey(context.secrets, name, key);
        void vscode.window.showInformationMessage(key ? `Lore: ${name} key saved.` : `Lore: ${name} key removed.`);
      }),
    ),
    vscode.commands.registerCommand('lore.openConversation', (node?: LedgerEntryNode) =>
      runCommand('Open Conversation', async () => {
        const location = node && conversationFile(store.paths, node.entry);
        if (!location) {
          void vscode.window.showInformationMessage(
            'Lore: the conversation no longer exists (it was removed from the inbox before Lore kept transcripts); the ledger entry records what was harvested from it.',
          );
          return;
        }
        await vscode.window.showTextDocument(vscode.Uri.file(location));
      }),
    ),
  ];
}

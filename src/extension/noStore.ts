/**
 * A window without a store: no folder is open and the person has not chosen the global store
 * (`lore.store.location: global`). Lore then reads and writes nothing (the global store is written
 * only on explicit request); the views say so in their welcome, and a command that needs the store
 * refuses with the same words and offers the two ways out.
 */
import * as vscode from 'vscode';

/** What a person is told when a command needs a store the window does not have. */
export const NO_STORE_MESSAGE =
  'No folder is open, so Lore has no knowledge store here. Open a folder (its knowledge goes in .lore/), or choose the global store ~/.lore/ (the setting lore.store.location: global).';

/** Thrown by `StoreService.paths` in a window without a store; `runCommand` shows it with its actions. */
export class NoStoreError extends Error {
  constructor() {
    super(NO_STORE_MESSAGE);
    this.name = 'NoStoreError';
  }
}

const OPEN_FOLDER = 'Open Folder…';
const USE_GLOBAL = 'Use the Global Store';

/** Shows the refusal with its two ways out. */
export async function showNoStore(): Promise<void> {
  const choice = await vscode.window.showWarningMessage(`Lore: ${NO_STORE_MESSAGE}`, OPEN_FOLDER, USE_GLOBAL);
  if (choice === OPEN_FOLDER) await vscode.commands.executeCommand('vscode.openFolder');
  else if (choice === USE_GLOBAL) await vscode.commands.executeCommand('lore.useGlobalStore');
}

/**
 * "Lore: Use the Global Store": sets `lore.store.location` to `global` in the user settings, the
 * explicit request the global store needs (the views' welcome links here).
 */
export function registerUseGlobalStoreCommand(): vscode.Disposable {
  return vscode.commands.registerCommand('lore.useGlobalStore', async () => {
    await vscode.workspace.getConfiguration('lore').update('store.location', 'global', vscode.ConfigurationTarget.Global);
    void vscode.window.showInformationMessage(
      'Lore: the knowledge store is now the global ~/.lore/ (lore.store.location: global in your user settings).',
    );
  });
}

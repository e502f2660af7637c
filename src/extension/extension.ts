/**
 * The VS Code client. This first version only opens Lore's log and store; the views, harvest
 * commands, language client and chat participant arrive with their own issues.
 */
import * as vscode from 'vscode';

export function activate(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel('Lore', { log: true });
  context.subscriptions.push(
    log,
    vscode.commands.registerCommand('lore.showLog', () => log.show()),
  );
  log.info('Lore activated');
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}

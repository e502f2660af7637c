/**
 * Topics in the editor: **Lore: New Topic…** (a topic file from the template, opened for editing)
 * and **Lore: Why This Context?** (the context Lore would compile for a message, with the files of
 * the active editor in scope: per slot what was included and cut, per topic which tier fired and
 * why). The gate is not asked here; gated topics follow the no-gate rows, and the report says so.
 * Matching knowledge items (P3) are left out: search runs in the language server, and bundling
 * the engine here would weigh on the extension's start-up; `lore context --message` shows them.
 */
import * as vscode from 'vscode';
import { loadStoreConfig } from '../../core/store/storeConfig';
import { runCommand } from '../log';
import type { StoreService } from '../storeService';

/** The topics' part of core, from its own bundle (dist/topicsLibrary.js), loaded on first use. */
function topicsLibrary(): typeof import('./topicsLibrary') {
  return require('./topicsLibrary') as typeof import('./topicsLibrary');
}

export function registerTopicCommands(store: StoreService): vscode.Disposable[] {
  return [
    // A name or message passed as an argument (a link, a test) skips the input box.
    vscode.commands.registerCommand('lore.newTopic', (given?: unknown) => runCommand('New Topic', async () => {
      const { createTopicFile, TOPIC_FILE_NAME } = topicsLibrary();
      const name = typeof given === 'string' ? given : await vscode.window.showInputBox({
        title: 'Lore: New Topic',
        prompt: 'A name for the topic file (.lore/topics/NAME.md)',
        validateInput: (value) => (TOPIC_FILE_NAME.test(`${value.trim()}.md`) ? undefined : 'letters, digits, dots, dashes or underscores'),
      });
      if (!name) return;
      const file = createTopicFile(store.paths, name);
      await vscode.window.showTextDocument(vscode.Uri.file(file));
      return file;
    })),
    vscode.commands.registerCommand('lore.whyThisContext', (given?: unknown) => runCommand('Why This Context', async () => {
      const message = typeof given === 'string' ? given : await vscode.window.showInputBox({ title: 'Lore: Why This Context?', prompt: 'A message to an agent: Lore shows the context it would compile for it' });
      if (message === undefined) return;
      const { explainContext, explanationMarkdown, DEFAULT_BUDGET_TOKENS } = topicsLibrary();
      const active = vscode.window.activeTextEditor?.document.uri;
      const files = active?.scheme === 'file' ? [active.fsPath] : [];
      const budgetTokens = loadStoreConfig(store.paths.config).config.contextBudgetTokens ?? DEFAULT_BUDGET_TOKENS;
      const explained = await explainContext(store.paths, { message, files, budgetTokens, noGateReason: 'the editor command does not ask the gate', via: 'vscode' });
      const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: explanationMarkdown(explained, message) });
      await vscode.window.showTextDocument(document, { preview: true });
      return document;
    })),
  ];
}

/**
 * Topics in the editor: **Lore: New Topic…** (a topic file from the template, opened for editing)
 * and **Lore: Why This Context?** (the context Lore would compile for a message, with the files of
 * the active editor in scope: per slot what was included and cut, per topic which tier fired and
 * why). The report is `lore context --json`'s, compiled in the language server (lore/compileContext)
 * with the matching knowledge items (P3) from its index, and rendered there as escaped markdown:
 * per topic the tier, tier-1 match, tier-2 score and gate result. The gate is not asked here;
 * gated topics follow the no-gate rows, and the report says so. Only while the server is not
 * running is it compiled here, without P3 (the search engine is not bundled into the extension).
 */
import * as vscode from 'vscode';
import { loadStoreConfig } from '../../core/store/storeConfig';
import { logger, runCommand } from '../log';
import type { SearchClient } from '../search/searchClient';
import type { StoreService } from '../storeService';
import { topicsLibrary } from './loadTopicsLibrary';

const log = logger('topics');

/** The report as markdown: from the language server, else compiled here without P3. */
async function explanation(store: StoreService, search: SearchClient, message: string, files: string[]): Promise<string> {
  try {
    const result = await search.compileContext({ message, files, markdown: true });
    if (result.markdown !== undefined) return result.markdown;
  } catch (error) {
    log.warn(`Why This Context? compiled here, without matching items: ${error instanceof Error ? error.message : String(error)}`);
  }
  const { explainContext, explanationMarkdown, DEFAULT_BUDGET_TOKENS } = topicsLibrary();
  const budgetTokens = loadStoreConfig(store.paths.config).config.contextBudgetTokens ?? DEFAULT_BUDGET_TOKENS;
  const explained = await explainContext(store.paths, {
    message,
    files,
    budgetTokens,
    noGateReason: 'the editor command does not ask the gate',
    via: 'vscode',
  });
  return explanationMarkdown(explained, message);
}

export function registerTopicCommands(store: StoreService, search: SearchClient): vscode.Disposable[] {
  return [
    // A name or message passed as an argument (a link, a test) skips the input box.
    vscode.commands.registerCommand('lore.newTopic', (given?: unknown) =>
      runCommand('New Topic', async () => {
        const { createTopicFile, TOPIC_FILE_NAME } = topicsLibrary();
        const name =
          typeof given === 'string'
            ? given
            : await vscode.window.showInputBox({
                title: 'Lore: New Topic',
                prompt: 'A name for the topic file (.lore/topics/NAME.md)',
                validateInput: (value) =>
                  TOPIC_FILE_NAME.test(`${value.trim()}.md`) ? undefined : 'letters, digits, dots, dashes or underscores',
              });
        if (!name) return;
        const file = createTopicFile(store.paths, name);
        await vscode.window.showTextDocument(vscode.Uri.file(file));
        return file;
      }),
    ),
    vscode.commands.registerCommand('lore.whyThisContext', (given?: unknown) =>
      runCommand('Why This Context', async () => {
        const message =
          typeof given === 'string'
            ? given
            : await vscode.window.showInputBox({
                title: 'Lore: Why This Context?',
                prompt: 'A message to an agent: Lore shows the context it would compile for it',
              });
        if (message === undefined) return;
        const active = vscode.window.activeTextEditor?.document.uri;
        const files = active?.scheme === 'file' ? [active.fsPath] : [];
        const document = await vscode.workspace.openTextDocument({
          language: 'markdown',
          content: await explanation(store, search, message, files),
        });
        await vscode.window.showTextDocument(document, { preview: true });
        return document;
      }),
    ),
  ];
}

/**
 * "Lore: Summarize Today's Journal" (also on a journal file's editor title, for that day): the
 * day's journal (journal/YYYY-MM-DD.md) condensed by the configured provider into its
 * `## Summary`, as `lore journal --summarize` does. The summary is written in the language
 * server (core's summarizeJournal, under the store lock); only the model call comes back here,
 * where VS Code's language models and the stored keys are. The journal opens afterwards.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { JOURNAL_DATE, JOURNAL_DIR } from '../../core/model/journalFormat';
import { journalPath } from '../../core/store/journal/journalFile';
import { toIsoDate } from '../../core/model/provenance';
import { isInside } from '../../core/store/storePaths';
import { runCommand } from '../log';
import { resolveProvider } from '../providers/providerChoice';
import type { StoreService } from '../storeService';
import type { HarvestController } from './harvestController';

/**
 * The day a command was invoked for: a journal file of this store (the editor title passes its
 * URI), else today (UTC, the journal's days). Any other file means today, not its name.
 */
export function journalDayOf(store: StoreService, uri: unknown): string {
  if (uri instanceof vscode.Uri && uri.scheme === 'file') {
    const dir = path.join(store.paths.root, JOURNAL_DIR);
    const day = path.basename(uri.fsPath, '.md');
    if (isInside(dir, uri.fsPath) && path.dirname(uri.fsPath) === dir && uri.fsPath.endsWith('.md') && JOURNAL_DATE.test(day)) return day;
  }
  return toIsoDate(new Date());
}

export function summarizeJournalCommand(
  context: vscode.ExtensionContext,
  store: StoreService,
  harvest: HarvestController,
  uri?: unknown,
): Promise<unknown> {
  return runCommand("Summarize Today's Journal", async () => {
    const date = journalDayOf(store, uri);
    const resolution = await resolveProvider(context.secrets);
    if (!resolution.provider) {
      void vscode.window.showWarningMessage(`Lore: cannot summarize the journal: ${resolution.problem}.`);
      return undefined;
    }
    const provider = resolution.provider;
    if (provider.offline) {
      void vscode.window.showWarningMessage(
        `Lore: summarizing the journal needs a model; ${provider.label} has none. Choose one in the lore.provider setting.`,
      );
      return undefined;
    }
    const result = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `Lore: summarizing the journal of ${date} with ${provider.label}`,
        cancellable: true,
      },
      (_progress, token) => {
        const controller = new AbortController();
        token.onCancellationRequested(() => controller.abort());
        return harvest.summarizeJournal(provider, date, controller.signal);
      },
    );
    if (!result.summary) {
      void vscode.window.showInformationMessage(`Lore: no journal for ${date} yet: nothing was learned that day.`);
      return result;
    }
    if (result.warning) void vscode.window.showWarningMessage(`Lore: ${result.warning}`);
    store.fireChanged();
    await vscode.window.showTextDocument(vscode.Uri.file(journalPath(store.paths, date)), { preview: false });
    return result;
  });
}

/**
 * "Lore: Compare With Reconstructed Store…": a store made by `lore reconstruct --out DIR` (the
 * kept transcripts replayed with another prompt or model) beside the live one, as one diff editor
 * per category file that differs, then, on request, the difference taken as `lore diff DIR
 * --apply` takes it (new and changed items written, what goes archived, nothing deleted).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { CATEGORY_FILES } from '../../core/model/categories';
import { readTextIfExists } from '../../core/base/readText';
import { ApplyStoreDiffRequest } from '../../shared/protocol';
import { runCommand } from '../log';
import type { StoreService } from '../storeService';

/** The file that marks a reconstructed store (lifecycle/reconstruct.ts's RECONSTRUCTION_MARKER; not imported: it loads zod). */
const MARKER = 'reconstruction.json';

/** The category files whose text differs between the two stores. */
export function differingCategoryFiles(liveRoot: string, otherRoot: string): string[] {
  return Object.values(CATEGORY_FILES)
    .map((c) => c.file)
    .filter((file) => (readTextIfExists(path.join(liveRoot, file)) ?? '') !== (readTextIfExists(path.join(otherRoot, file)) ?? ''));
}

export function registerCompareReconstructed(store: StoreService): vscode.Disposable {
  return vscode.commands.registerCommand('lore.compareReconstructed', (folder?: vscode.Uri) =>
    runCommand('Compare With Reconstructed Store', async () => {
      const picked =
        folder ??
        (
          await vscode.window.showOpenDialog({
            canSelectFolders: true,
            canSelectFiles: false,
            canSelectMany: false,
            title: 'Lore: the folder of a reconstructed store (lore reconstruct --out DIR)',
            openLabel: 'Compare',
          })
        )?.[0];
      if (!picked) return;
      const other = picked.fsPath;
      if (!fs.existsSync(path.join(other, MARKER))) {
        void vscode.window.showWarningMessage(
          `Lore: ${other} is not a reconstructed store (no ${MARKER}). Make one with: lore reconstruct --out ${other}`,
        );
        return;
      }
      const files = differingCategoryFiles(store.paths.root, other);
      if (files.length === 0) {
        void vscode.window.showInformationMessage('Lore: the reconstructed store has the same category files as the live one.');
        return;
      }
      for (const file of files) {
        await vscode.commands.executeCommand(
          'vscode.diff',
          vscode.Uri.file(path.join(store.paths.root, file)),
          vscode.Uri.file(path.join(other, file)),
          `Lore: ${file} (live ↔ reconstructed)`,
          { preview: false },
        );
      }
      const choice = await vscode.window.showInformationMessage(
        `Lore: ${files.length} category file(s) differ. Take the reconstructed items? New and changed items are written; items that go are moved to archive/knowledge/, nothing is deleted.`,
        'Apply Difference',
      );
      if (choice !== 'Apply Difference') return;
      // The language server writes it, as it writes every change this window makes.
      const result = await store.request(ApplyStoreDiffRequest, { other });
      store.fireChanged();
      void vscode.window.showInformationMessage(
        `Lore: ${result.added} item(s) added, ${result.archived} moved to archive/knowledge/${result.notesKept ? `, ${result.notesKept} note(s) kept` : ''}.`,
      );
    }),
  );
}

/**
 * Offers, once per workspace, to rename the note files an older Lore named by device-inode (every
 * clone renamed them, so git showed churn) to their portable names: a notification, a preview
 * of each rename listed by the file the notes are about, then the rename, which the language
 * server makes (the extension never writes the store).
 */
import * as vscode from 'vscode';
import { MigrateNotesRequest } from '../../shared/protocol';
import { logger } from '../log';
import type { StoreService } from '../storeService';

const OFFERED_KEY = 'lore.noteMigrationOffered';

type Renames = Array<{ from: string; to: string; path: string }>;

/** The preview a person reads: the files whose notes move, and the note file names before and after. */
export function renamePreview(renames: Renames): string {
  return [
    '# Lore: portable note file names',
    '',
    `These ${renames.length} note file(s) are named by this machine's device and inode, so every clone of the`,
    'repository renamed them. Each gets a name that is the same on every machine; the notes stay as they are.',
    'Run this once and commit the result: teammates then pull the new names.',
    '',
    ...renames.map((r) => `- ${r.path}: files/${r.from} → files/${r.to}`),
    '',
  ].join('\n');
}

export async function offerNoteMigration(store: StoreService, state: vscode.Memento): Promise<void> {
  if (!store.exists || state.get<boolean>(OFFERED_KEY)) return;
  const { renames } = await store.request(MigrateNotesRequest, { apply: false });
  if (renames.length === 0) return;
  await state.update(OFFERED_KEY, true);
  const choice = await vscode.window.showInformationMessage(
    `Lore: ${renames.length} note file(s) in this store have names that change on every machine (an older Lore). Give them portable names?`,
    'Preview',
    'Not Now',
  );
  if (choice !== 'Preview') return;
  const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: renamePreview(renames) });
  await vscode.window.showTextDocument(document, { preview: true });
  const apply = await vscode.window.showInformationMessage(
    `Rename ${renames.length} note file(s) to their portable names?`,
    { modal: true, detail: 'Lore renames them within .lore/files/; commit the result so teammates get the same names.' },
    'Rename',
  );
  if (apply !== 'Rename') return;
  const done = await store.request(MigrateNotesRequest, { apply: true });
  logger('notes').info(`renamed ${done.renames.length} note file(s) to portable names`);
  void vscode.window.showInformationMessage(
    `Lore: ${done.renames.length} note file(s) renamed. Commit .lore/files/ to share the new names.`,
  );
}

/**
 * Edits a knowledge item in its category file from a view (Delete, Mark Task Done), through the
 * same core edits the rest of Lore uses (categoryFile.ts). A person may have the file open with
 * unsaved changes: then the edit goes into their document as a WorkspaceEdit, on top of what they
 * typed, and saving stays theirs; otherwise the core writer changes the file under the store lock
 * (VS Code reloads an open, unmodified document by itself).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { markTasksDone, removeItems } from '../../core/model/categoryFile';
import { lineIdentity } from '../../core/model/itemLines';
import { editStoreFile } from '../../core/base/storeText';
import { acquireStoreLock } from '../../core/base/storeLock';
import { recordStoreChange } from '../../core/store/history/storeHistory';
import type { StoreService } from '../storeService';

export type ItemEditAction = 'delete' | 'done';

/** Where the edit landed: the open document (unsaved), the file on disk, or nowhere (the item was not there). */
export type ItemEditResult = 'document' | 'file' | 'unchanged';

/** The document of `file` when it is open with unsaved changes: Lore's edits then go into it (see editOpenDocument). */
export function dirtyDocument(file: string): vscode.TextDocument | undefined {
  const wanted = path.resolve(file);
  const document = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && path.resolve(d.uri.fsPath) === wanted);
  return document?.isDirty ? document : undefined;
}

/**
 * Applies a text edit to an open document through the editor (a WorkspaceEdit), on top of what
 * the person typed, never under it; saving stays theirs. False when the edit changes nothing or
 * the editor refused it.
 */
export async function editOpenDocument(document: vscode.TextDocument, edit: (text: string) => string | undefined): Promise<boolean> {
  const before = document.getText();
  const after = edit(before);
  if (after === undefined || after === before) return false;
  const change = new vscode.WorkspaceEdit();
  change.replace(document.uri, new vscode.Range(document.positionAt(0), document.positionAt(before.length)), after);
  return vscode.workspace.applyEdit(change);
}

/**
 * Deletes the item (`delete`) or moves the open task to `## Done` (`done`) in `file`. `itemLine`
 * is the item as a view shows it (`- text [from: …]`); it is found by its line identity, so a
 * changed date or spacing does not matter.
 */
export async function editKnowledgeItem(store: StoreService, action: ItemEditAction, file: string, itemLine: string): Promise<ItemEditResult> {
  const ids = new Set([lineIdentity(itemLine)]);
  const edit = (text: string) => (action === 'delete' ? removeItems(text, ids) : markTasksDone(text, ids));
  const document = dirtyDocument(file);
  if (document) return (await editOpenDocument(document, edit)) ? 'document' : 'unchanged';
  const lock = await acquireStoreLock(store.paths.root);
  try {
    if (!editStoreFile(file, (text) => (text === undefined ? undefined : edit(text)))) return 'unchanged';
    await recordStoreChange(store.paths, { type: 'memory', subject: `${action === 'delete' ? 'deleted an item' : 'marked a task done'} in ${path.basename(file)}` });
    return 'file';
  } finally {
    lock.release();
  }
}

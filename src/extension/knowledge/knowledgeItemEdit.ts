/**
 * Edits a knowledge item in its category file from a view (Delete, Mark Task Done): the language
 * server makes the edit with the same core edits the rest of Lore uses (categoryFile.ts), under
 * the store lock, or, when the file is open with unsaved changes, in the person's document (on
 * top of what they typed; saving stays theirs). VS Code reloads an open, unmodified document by
 * itself.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { EditItemRequest } from '../../shared/protocol';
import type { StoreService } from '../storeService';
import type { ParamsOf, ResultOf } from '../../shared/declareMessage';

export type ItemEditAction = ParamsOf<typeof EditItemRequest>['action'];

/** Where the edit landed: the open document (unsaved), the file on disk, or nowhere (the item was not there). */
export type ItemEditResult = ResultOf<typeof EditItemRequest>['where'];

/** The document of `file` when it is open with unsaved changes (a decision saves it before writing: reviewCommands.ts). */
export function dirtyDocument(file: string): vscode.TextDocument | undefined {
  const wanted = path.resolve(file);
  const document = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && path.resolve(d.uri.fsPath) === wanted);
  return document?.isDirty ? document : undefined;
}

/**
 * Deletes the item (`delete`) or moves the open task to `## Done` (`done`) in `file`. `itemLine`
 * is the item as a view shows it (`- text [from: …]`); it is found by its line identity, so a
 * changed date or spacing does not matter.
 */
export async function editKnowledgeItem(
  store: StoreService,
  action: ItemEditAction,
  file: string,
  itemLine: string,
): Promise<ItemEditResult> {
  return (await store.request(EditItemRequest, { action, file, itemLine })).where;
}

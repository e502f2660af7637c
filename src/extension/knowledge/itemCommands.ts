/**
 * The context menu of a knowledge item in the Digest view: Copy Text, Reveal in File, Open Source
 * Conversation, Mark Task Done, Delete. Edits go through editKnowledgeItem (core edits; an open
 * document with unsaved changes gets them as a WorkspaceEdit); opening a source goes through the
 * provenance command the lenses and hovers use.
 */
import * as vscode from 'vscode';
import { listItems } from '../../core/knowledge/categoryFile';
import { parseProvenance, stripProvenance } from '../../core/knowledge/provenance';
import { readTextIfExists } from '../../core/store/atomicWrite';
import { LoreCommands, type OpenProvenanceArgs } from '../../shared/protocol';
import { runCommand } from '../log';
import type { StoreService } from '../storeService';
import { plainMarkdown } from '../search/searchHitItem';
import { editKnowledgeItem, type ItemEditAction, type ItemEditResult } from './knowledgeItemEdit';

/** What the menu commands need of a view node (the Digest view's items are such nodes). */
export interface KnowledgeItemRef {
  /** The item as the view shows it, without the list marker: `text [from: ID, date]`. */
  text: string;
  /** The category file holding it. */
  file: string;
}

function itemLine(item: KnowledgeItemRef): string {
  return `- ${item.text}`;
}

/** The 0-based line of the item in its file now (it may have moved since the view was built). */
function lineOf(item: KnowledgeItemRef): number | undefined {
  return listItems(readTextIfExists(item.file) ?? '').find((i) => i.text === item.text)?.line;
}

/** Tells the person where the edit went; an edit in their unsaved document waits for their save. */
function report(result: ItemEditResult, done: string): void {
  if (result === 'document') void vscode.window.setStatusBarMessage(`Lore: ${done} in the open editor (unsaved: save the file to keep it)`, 8000);
  else if (result === 'unchanged') void vscode.window.showInformationMessage('Lore: that item is no longer in the file (it changed since the view was shown).');
}

/** Deletes an item or marks a task done, as the menu commands do once the person confirmed (also the extension API's). */
export async function editItem(store: StoreService, action: ItemEditAction, item: KnowledgeItemRef): Promise<ItemEditResult> {
  const result = await editKnowledgeItem(store, action, item.file, itemLine(item));
  report(result, action === 'delete' ? 'item deleted' : 'task marked done');
  return result;
}

export function registerItemCommands(store: StoreService): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('lore.copyItemText', (item: KnowledgeItemRef) => runCommand('Copy Text', async () => {
      const text = plainMarkdown(stripProvenance(item.text));
      await vscode.env.clipboard.writeText(text);
      return text;
    })),
    vscode.commands.registerCommand('lore.revealItem', (item: KnowledgeItemRef) => runCommand('Reveal in File', async () => {
      const line = lineOf(item) ?? 0;
      await vscode.window.showTextDocument(vscode.Uri.file(item.file), { selection: new vscode.Range(line, 0, line, 0) });
    })),
    vscode.commands.registerCommand('lore.openSourceConversation', (item: KnowledgeItemRef) => runCommand('Open Source Conversation', async () => {
      const provenance = parseProvenance(item.text);
      const line = lineOf(item);
      if (!provenance || line === undefined) {
        void vscode.window.showInformationMessage('Lore: this item does not say which conversation it came from.');
        return;
      }
      const args: OpenProvenanceArgs = { source: provenance.source, date: provenance.date, noteFile: item.file, line };
      await vscode.commands.executeCommand(LoreCommands.openProvenance, args);
    })),
    vscode.commands.registerCommand('lore.markTaskDone', (item: KnowledgeItemRef) => runCommand('Mark Task Done', () => editItem(store, 'done', item))),
    vscode.commands.registerCommand('lore.deleteItem', (item: KnowledgeItemRef) => runCommand('Delete Item', async () => {
      const ok = await vscode.window.showWarningMessage('Lore: delete this item from its file?', { modal: true, detail: item.text }, 'Delete');
      if (ok !== 'Delete') return undefined;
      return editItem(store, 'delete', item);
    })),
  ];
}

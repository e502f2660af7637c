/**
 * The context menu of a knowledge item in the Digest view: Copy Text, Reveal in File, Open Source
 * Conversation, Mark Task Done, Delete. Edits are requests to the language server (core edits; an
 * open document with unsaved changes gets them through the editor); opening a source goes through the
 * provenance command the lenses and hovers use.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { CATEGORY_FILES, type CategoryFileKey } from '../../core/model/categories';
import { listItems, type KnowledgeItem } from '../../core/model/categoryFile';
import { isItemId, itemId, listItemId } from '../../core/model/itemId';
import type { MoveItemResult } from '../../core/store/items/moveItem';
import { findItemsById } from '../../core/store/items/itemLocator';
import { parseProvenance, stripProvenance } from '../../core/model/provenance';
import { isCurrent } from '../../core/model/supersession';
import { renderItemLine } from '../../core/model/itemLines';
import { readTextIfExists } from '../../core/base/readText';
import { personalStorePaths, storeRelative, type StoreLayer } from '../../core/store/storePaths';
import { LoreCommands, MoveItemRequest, SupersedeItemRequest, type OpenProvenanceArgs } from '../../shared/protocol';
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
  return renderItemLine(item.text);
}

/** The 0-based line of the item in its file now (it may have moved since the view was built). */
function lineOf(item: KnowledgeItemRef): number | undefined {
  return listItems(readTextIfExists(item.file) ?? '').find((i) => i.text === item.text)?.line;
}

/** Tells the person where the edit went; an edit in their unsaved document waits for their save. */
function report(result: ItemEditResult, done: string): void {
  if (result === 'document')
    void vscode.window.setStatusBarMessage(`Lore: ${done} in the open editor (unsaved: save the file to keep it)`, 8000);
  else if (result === 'unchanged')
    void vscode.window.showInformationMessage('Lore: that item is no longer in the file (it changed since the view was shown).');
}

/** Deletes an item or marks a task done, as the menu commands do once the person confirmed (also the extension API's). */
export async function editItem(store: StoreService, action: ItemEditAction, item: KnowledgeItemRef): Promise<ItemEditResult> {
  const result = await editKnowledgeItem(store, action, item.file, itemLine(item));
  report(result, action === 'delete' ? 'item deleted' : 'task marked done');
  return result;
}

/** The item to supersede: the Digest view's node, else the item under the cursor in a store file. */
function itemToSupersede(store: StoreService, ref: KnowledgeItemRef | undefined): { file: string; item: KnowledgeItem } | undefined {
  if (ref?.text && ref.file) {
    const item = listItems(readTextIfExists(ref.file) ?? '').find((i) => i.text === ref.text);
    return item ? { file: ref.file, item } : undefined;
  }
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.uri.scheme !== 'file') return undefined;
  const file = path.resolve(editor.document.fileName);
  if (path.dirname(file) !== store.paths.root && path.dirname(file) !== store.paths.files) return undefined;
  const line = editor.selection.active.line;
  const items = listItems(editor.document.getText());
  const item = items.filter((i) => i.line <= line).pop();
  return item ? { file, item } : undefined;
}

/** The current items of the category files a person can pick as the newer one, newest first. */
function newerCandidates(store: StoreService, oldId: string): Array<vscode.QuickPickItem & { id: string }> {
  const picks: Array<vscode.QuickPickItem & { id: string; date: string }> = [];
  for (const key of Object.keys(CATEGORY_FILES) as CategoryFileKey[]) {
    const file = CATEGORY_FILES[key].file;
    for (const item of listItems(readTextIfExists(path.join(store.paths.root, file)) ?? '')) {
      const id = listItemId(item);
      if (id === oldId || !isCurrent(item.raw)) continue;
      const provenance = parseProvenance(item.raw);
      picks.push({
        id,
        date: provenance?.date ?? '',
        label: plainMarkdown(stripProvenance(item.text)),
        description: `${id} · ${file}`,
        detail: provenance ? `from ${provenance.sources.map((p) => `${p.source}, ${p.date}`).join('; ')}` : undefined,
      });
    }
  }
  return picks.sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
}

/**
 * "Supersede…": marks an item superseded by a newer one the person picks (by its text or id). The
 * language server marks it: in the document when the file is open with unsaved changes, else
 * under the store lock, and the digest follows.
 */
export async function supersedeItemCommand(store: StoreService, ref?: KnowledgeItemRef, newId?: string): Promise<string | undefined> {
  const old = itemToSupersede(store, ref);
  if (!old) {
    void vscode.window.showInformationMessage(
      'Lore: put the cursor on an item in a Lore store file, or use Supersede… on an item in the Digest view.',
    );
    return undefined;
  }
  const oldId = listItemId(old.item);
  let chosen = newId;
  if (!chosen) {
    const pick = await vscode.window.showQuickPick(newerCandidates(store, oldId), {
      title: `Lore: supersede "${plainMarkdown(stripProvenance(old.item.text)).slice(0, 60)}" by…`,
      placeHolder: 'the newer item (type words of it, or its id)',
      matchOnDescription: true,
      matchOnDetail: true,
    });
    chosen = pick?.id;
  }
  if (!chosen || !isItemId(chosen)) return undefined;
  const answer = await store.request(SupersedeItemRequest, {
    oldId,
    newId: chosen,
    file: storeRelative(store.paths, old.file),
    itemLine: old.item.raw,
  });
  if (answer.where === 'document') {
    if (!answer.applied) return undefined;
    void vscode.window.setStatusBarMessage('Lore: item marked superseded in the open editor (unsaved: save the file to keep it)', 8000);
    return chosen;
  }
  const result = answer.result;
  if (result.status !== 'recorded' && result.status !== 'unchanged') {
    void vscode.window.showWarningMessage(`Lore: not superseded: ${result.reason ?? result.status}`);
    return undefined;
  }
  store.fireChanged();
  return chosen;
}

/** Opens the store file holding item `id` at its line. */
async function revealItemById(store: StoreService, args: { id?: string } | string | undefined): Promise<boolean> {
  const id = typeof args === 'string' ? args : args?.id;
  const place = id ? findItemsById(store.paths, id)[0] : undefined;
  if (!place) {
    void vscode.window.showInformationMessage(`Lore: no item ${id ?? ''} in this store (it may have been edited or removed).`);
    return false;
  }
  const line = place.line - 1;
  await vscode.window.showTextDocument(vscode.Uri.file(path.join(store.paths.root, place.file)), {
    selection: new vscode.Range(line, 0, line, 0),
  });
  return true;
}

/** The items of the personal layer's category files, for Move to Shared's pick. */
function personalItems(store: StoreService): Array<vscode.QuickPickItem & { id: string }> {
  const picks: Array<vscode.QuickPickItem & { id: string }> = [];
  const personal = personalStorePaths(store.paths);
  for (const key of Object.keys(CATEGORY_FILES) as CategoryFileKey[]) {
    for (const item of listItems(readTextIfExists(path.join(personal.root, CATEGORY_FILES[key].file)) ?? '')) {
      picks.push({ id: listItemId(item), label: stripProvenance(item.text), description: `personal/${CATEGORY_FILES[key].file}` });
    }
  }
  return picks;
}

/**
 * Moves an item between the shared files and the personal layer (a request to the language
 * server, core's moveItem): the Digest view's item, an id, or, for Move to Shared, one the person
 * picks among their personal items (also the extension API's).
 */
export async function moveItemToLayer(
  store: StoreService,
  to: StoreLayer,
  ref?: KnowledgeItemRef | string,
): Promise<MoveItemResult | undefined> {
  let id = typeof ref === 'string' ? ref : ref?.text ? itemId(itemLine(ref)) : undefined;
  if (id === undefined && to === 'shared') {
    const picks = personalItems(store);
    if (picks.length === 0) {
      void vscode.window.showInformationMessage('Lore: your personal layer (.lore/personal/) holds no items.');
      return undefined;
    }
    id = (await vscode.window.showQuickPick(picks, { title: 'Lore: move a personal item to the shared store' }))?.id;
  } else if (id === undefined) {
    id = (
      await vscode.window.showInputBox({
        title: 'Lore: move an item to your personal layer',
        prompt: 'The item id (8 characters)',
        validateInput: (v) => (isItemId(v.trim()) ? undefined : 'an 8-character item id'),
      })
    )?.trim();
  }
  if (!id) return undefined;
  const result = await store.request(MoveItemRequest, { id, to });
  store.fireChanged();
  if (result.moved) vscode.window.setStatusBarMessage(`Lore: moved ${result.id} to ${result.to}`, 5000);
  else void vscode.window.showInformationMessage(`Lore: not moved: ${result.reason}.`);
  return result;
}

export function registerItemCommands(store: StoreService): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('lore.supersedeItem', (item?: KnowledgeItemRef, newId?: string) =>
      runCommand('Supersede Item', () => supersedeItemCommand(store, item, newId)),
    ),
    vscode.commands.registerCommand(LoreCommands.revealItemById, (args?: { id?: string } | string) =>
      runCommand('Reveal Item', () => revealItemById(store, args)),
    ),
    vscode.commands.registerCommand('lore.copyItemText', (item: KnowledgeItemRef) =>
      runCommand('Copy Text', async () => {
        const text = plainMarkdown(stripProvenance(item.text));
        await vscode.env.clipboard.writeText(text);
        return text;
      }),
    ),
    vscode.commands.registerCommand('lore.revealItem', (item: KnowledgeItemRef) =>
      runCommand('Reveal in File', async () => {
        const line = lineOf(item) ?? 0;
        await vscode.window.showTextDocument(vscode.Uri.file(item.file), { selection: new vscode.Range(line, 0, line, 0) });
      }),
    ),
    vscode.commands.registerCommand('lore.openSourceConversation', (item: KnowledgeItemRef) =>
      runCommand('Open Source Conversation', async () => {
        const provenance = parseProvenance(item.text);
        const line = lineOf(item);
        if (!provenance || line === undefined) {
          void vscode.window.showInformationMessage('Lore: this item does not say which conversation it came from.');
          return;
        }
        const args: OpenProvenanceArgs = { source: provenance.source, date: provenance.date, noteFile: item.file, line };
        await vscode.commands.executeCommand(LoreCommands.openProvenance, args);
      }),
    ),
    vscode.commands.registerCommand('lore.moveItemToPersonal', (item?: KnowledgeItemRef | string) =>
      runCommand('Move to Personal', () => moveItemToLayer(store, 'personal', item)),
    ),
    vscode.commands.registerCommand('lore.moveItemToShared', (item?: KnowledgeItemRef | string) =>
      runCommand('Move to Shared', () => moveItemToLayer(store, 'shared', item)),
    ),
    vscode.commands.registerCommand('lore.markTaskDone', (item: KnowledgeItemRef) =>
      runCommand('Mark Task Done', () => editItem(store, 'done', item)),
    ),
    vscode.commands.registerCommand('lore.deleteItem', (item: KnowledgeItemRef) =>
      runCommand('Delete Item', async () => {
        const ok = await vscode.window.showWarningMessage(
          'Lore: delete this item from its file?',
          { modal: true, detail: item.text },
          'Delete',
        );
        if (ok !== 'Delete') return undefined;
        return editItem(store, 'delete', item);
      }),
    ),
  ];
}

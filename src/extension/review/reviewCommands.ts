/**
 * Accept / Reject / Edit of the Review view (inline on each item, or from the command palette
 * with a pick): items held because they read as instructions to an agent, and agents' writes
 * waiting for the person (the pending queue). Decisions are requests to the language server, which
 * makes them with the core review queue (store lock, atomic writes, digest regenerated); the store
 * watcher then refreshes the views and the instruction files.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ReviewEditResult } from '../../core/store/items/reviewEdit';
import type { ReviewDecision, ReviewDecisionResult, ReviewItem } from '../../core/store/items/reviewQueue';
import { isSuggestion, REVIEW_FILE } from '../../core/model/reviewFile';
import { targetDisplayName } from '../../core/model/reviewTargetName';
import { ReviewDecideRequest, ReviewEditRequest, ReviewListRequest } from '../../shared/protocol';
import { layerOfFile, personalStorePaths, resolveInStore, type StoreLayer } from '../../core/store/storePaths';
import { dirtyDocument } from '../knowledge/knowledgeItemEdit';
import { runCommand } from '../log';
import type { StoreService } from '../storeService';
import { editableReviewItem, reviewReason, type ReviewItemNode } from '../views/reviewTree';

/** The item a command was invoked on: a view node, an item id, or one the user picks. */
async function chooseItem(
  store: StoreService,
  target: ReviewItemNode | string | undefined,
  title: string,
): Promise<ReviewItem | undefined> {
  const items = await listReview(store);
  if (typeof target === 'string') return items.find((i) => i.id === target);
  if (target?.item) return items.find((i) => i.id === target.item.id) ?? target.item;
  if (items.length === 0) {
    void vscode.window.showInformationMessage('Lore: nothing is held for review.');
    return undefined;
  }
  const pick = await vscode.window.showQuickPick(
    items.map((item) => ({ label: item.text, description: `${targetDisplayName(item.target)} · ${reviewReason(item)}`, item })),
    { title },
  );
  return pick?.item;
}

/** What waits for a person's decision, as the language server reads review.md and the store. */
function listReview(store: StoreService): Promise<ReviewItem[]> {
  return store.request(ReviewListRequest, {});
}

/** Replaces a queued item's text, as Edit does once the person typed it (also the extension API's). */
export async function editHeldItem(store: StoreService, itemId: string, text: string): Promise<ReviewEditResult> {
  const item = (await listReview(store)).find((i) => i.id === itemId);
  if (item && !(await saveOpenTargets(store, item))) return { edited: false, reason: 'an open file it writes could not be saved' };
  const result = await store.request(ReviewEditRequest, { id: itemId, text });
  store.fireChanged();
  if (!result.edited) void vscode.window.showInformationMessage(`Lore: not edited: ${result.reason}.`);
  return result;
}

/**
 * A decision rewrites review.md and the item's file. Where one of them is open with unsaved
 * changes, Lore does not write under the editor: it saves the document first (as VS Code saves
 * editors before running a task), so the person's typing is part of the version Lore edits and
 * the editor then shows Lore's change on top of it. False when a save failed: nothing is decided.
 */
async function saveOpenTargets(store: StoreService, item: ReviewItem): Promise<boolean> {
  // An item of the personal layer waits in that layer's own review.md.
  const queue = layerOfFile(item.target.file) === 'personal' ? personalStorePaths(store.paths).root : store.paths.root;
  const files = [path.join(queue, REVIEW_FILE), resolveInStore(store.paths, item.target.file)];
  const dirty = files.map(dirtyDocument).filter((d): d is vscode.TextDocument => d !== undefined);
  for (const document of dirty) {
    if (!(await document.save())) {
      void vscode.window.showWarningMessage(
        `Lore: ${path.basename(document.uri.fsPath)} has unsaved changes that could not be saved; nothing was decided. Save it, then decide again.`,
      );
      return false;
    }
  }
  if (dirty.length > 0)
    vscode.window.setStatusBarMessage(
      `Lore: saved ${dirty.map((d) => path.basename(d.uri.fsPath)).join(' and ')} before writing the decision`,
      5000,
    );
  return true;
}

/** Accepts or rejects one held item, as the commands do once the person confirmed (also the extension API's). */
export async function decideHeldItem(
  store: StoreService,
  decision: ReviewDecision,
  itemId: string,
  to?: StoreLayer,
): Promise<ReviewDecisionResult> {
  const item = (await listReview(store)).find((i) => i.id === itemId);
  if (item && !(await saveOpenTargets(store, item))) return { decided: [], failed: [], missing: [], keptFlagged: [], written: [] };
  const result = await store.request(ReviewDecideRequest, { decision, ids: [itemId], ...(to ? { to } : {}) });
  store.fireChanged();
  if (result.missing.length) void vscode.window.showInformationMessage('Lore: that item was already decided.');
  for (const { reason } of result.failed)
    void vscode.window.showWarningMessage(`Lore: not applied, it stays in the Review view: ${reason}.`);
  return result;
}

/**
 * Accepts every suggestion of the offline extractor at once (what `lore review accept all` does
 * for them); items that read as instructions, and agents' writes, still take one decision each.
 */
export async function acceptSuggestions(store: StoreService): Promise<ReviewDecisionResult | undefined> {
  const items = (await listReview(store)).filter((item) => isSuggestion(item.kinds) && !item.pending);
  if (items.length === 0) {
    void vscode.window.showInformationMessage('Lore: no suggestions wait for review.');
    return undefined;
  }
  for (const item of items) if (!(await saveOpenTargets(store, item))) return undefined;
  // Marked blanket: the server accepts none of them that reads as an instruction, whatever this list said.
  const result = await store.request(ReviewDecideRequest, { decision: 'accept', ids: items.map((item) => item.id), blanket: true });
  store.fireChanged();
  const kept = result.decided.length - result.failed.length;
  void vscode.window.showInformationMessage(
    `Lore: kept ${kept === 1 ? '1 suggestion' : `${kept} suggestions`}${result.failed.length ? `; ${result.failed.length} could not be applied and stay in the Review view` : ''}.`,
  );
  return result;
}

export function registerReviewCommands(store: StoreService): vscode.Disposable[] {
  const decide = (decision: ReviewDecision, title: string, to?: StoreLayer) => (target?: ReviewItemNode | string) =>
    runCommand(title, async (): Promise<ReviewDecisionResult | undefined> => {
      const item = await chooseItem(store, target, `Lore: ${title.toLowerCase()}`);
      if (!item) return undefined;
      // Rejecting an item already in the person's file deletes a line they may have written: ask.
      if (decision === 'reject' && item.where === 'in-place') {
        const ok = await vscode.window.showWarningMessage(
          `Lore: delete this item from ${targetDisplayName(item.target)}?`,
          { modal: true, detail: item.line },
          'Delete',
        );
        if (ok !== 'Delete') return undefined;
      }
      return decideHeldItem(store, decision, item.id, to);
    });
  const edit = (target?: ReviewItemNode | string) =>
    runCommand('Edit Held Item', async (): Promise<ReviewEditResult | undefined> => {
      const item = await chooseItem(store, target, 'Lore: edit held item');
      if (!item) return undefined;
      if (!editableReviewItem(item)) {
        void vscode.window.showInformationMessage(
          "Lore: only an agent's new text can be edited here; for the rest, accept or reject, then edit the item in its file.",
        );
        return undefined;
      }
      const text = await vscode.window.showInputBox({
        title: `Lore: edit before accepting (${targetDisplayName(item.target)})`,
        value: item.text,
        prompt: 'The provenance and what accepting it does stay as they are.',
      });
      if (text === undefined || text.trim() === '' || text === item.text) return undefined;
      return editHeldItem(store, item.id, text);
    });
  return [
    vscode.commands.registerCommand('lore.acceptReviewItem', decide('accept', 'Accept Held Item')),
    vscode.commands.registerCommand('lore.rejectReviewItem', decide('reject', 'Reject Held Item')),
    vscode.commands.registerCommand('lore.acceptSuggestions', () => runCommand('Accept All Suggestions', () => acceptSuggestions(store))),
    // Accepted into the person's own layer (.lore/personal/): their agents get it, the team's history never holds it.
    vscode.commands.registerCommand('lore.keepReviewItemPersonal', decide('accept', 'Keep Held Item Personal', 'personal')),
    vscode.commands.registerCommand('lore.editReviewItem', edit),
  ];
}

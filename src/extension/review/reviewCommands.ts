/**
 * Accept / Reject of the Review view (inline on each item, or from the command palette with a
 * pick). Decisions go through the core review queue (store lock, atomic writes, digest
 * regenerated); the store watcher then refreshes the views and the instruction files.
 */
import * as vscode from 'vscode';
import { decideReview, listReview, targetDisplayName, type ReviewDecision, type ReviewDecisionResult, type ReviewItem } from '../../core/knowledge/reviewQueue';
import { runCommand } from '../log';
import type { StoreService } from '../storeService';
import type { ReviewItemNode } from '../views/reviewTree';

/** The item a command was invoked on: a view node, an item id, or one the user picks. */
async function chooseItem(store: StoreService, target: ReviewItemNode | string | undefined, title: string): Promise<ReviewItem | undefined> {
  const items = listReview(store.paths);
  if (typeof target === 'string') return items.find((i) => i.id === target);
  if (target?.item) return items.find((i) => i.id === target.item.id) ?? target.item;
  if (items.length === 0) {
    void vscode.window.showInformationMessage('Lore: nothing is held for review.');
    return undefined;
  }
  const pick = await vscode.window.showQuickPick(items.map((item) => ({ label: item.text, description: `${targetDisplayName(item.target)} · ${item.kinds.join(', ')}`, item })), { title });
  return pick?.item;
}

/** Accepts or rejects one held item, as the commands do once the person confirmed (also the extension API's). */
export async function decideHeldItem(store: StoreService, decision: ReviewDecision, itemId: string): Promise<ReviewDecisionResult> {
  const result = await decideReview(store.paths, decision, [itemId]);
  store.fireChanged();
  if (result.missing.length) void vscode.window.showInformationMessage('Lore: that item was already decided.');
  return result;
}

export function registerReviewCommands(store: StoreService): vscode.Disposable[] {
  const decide = (decision: ReviewDecision, title: string) => (target?: ReviewItemNode | string) =>
    runCommand(title, async (): Promise<ReviewDecisionResult | undefined> => {
      const item = await chooseItem(store, target, `Lore: ${title.toLowerCase()}`);
      if (!item) return undefined;
      // Rejecting an item already in the person's file deletes a line they may have written: ask.
      if (decision === 'reject' && item.where === 'in-place') {
        const ok = await vscode.window.showWarningMessage(`Lore: delete this item from ${targetDisplayName(item.target)}?`, { modal: true, detail: item.line }, 'Delete');
        if (ok !== 'Delete') return undefined;
      }
      return decideHeldItem(store, decision, item.id);
    });
  return [
    vscode.commands.registerCommand('lore.acceptReviewItem', decide('accept', 'Accept Held Item')),
    vscode.commands.registerCommand('lore.rejectReviewItem', decide('reject', 'Reject Held Item')),
  ];
}

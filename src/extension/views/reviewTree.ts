/**
 * The Review view: knowledge items held back because they read as instructions to an agent, and
 * agents' writes waiting for the person (the pending queue: remember, update, supersede, done,
 * forget), each with inline Accept / Reject, and Edit for a new text. Empty, it shows its welcome
 * text.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { REVIEW_FILE } from '../../core/model/reviewFile';
import type { ReviewItem } from '../../core/store/items/reviewQueue';
import { targetDisplayName } from '../../core/model/reviewTargetName';
import { isSuggestion } from '../../core/model/reviewFile';
import { ReviewListRequest } from '../../shared/protocol';
import { openAtLine, StoreTreeProvider, type TreeNode } from './treeBase';

/** Why an item waits, in a few words: the flag kinds, or what an agent's write would do. */
export function reviewReason(item: ReviewItem): string {
  const pending = item.pending ? `pending ${item.pending.op}${item.pending.id ? ` of ${item.pending.id}` : ''}` : '';
  const kinds = isSuggestion(item.kinds) ? 'suggested: to confirm' : item.kinds.join(', ');
  return [pending, kinds].filter(Boolean).join(' · ');
}

/** Whether the item is an agent's write of a new text, which the person may edit before accepting (not an item as it stands). */
export function editableReviewItem(item: ReviewItem): boolean {
  return item.where === 'queue' && (item.pending?.op === 'remember' || item.pending?.op === 'update' || item.pending?.op === 'supersede');
}

export interface ReviewItemNode extends TreeNode {
  kind: 'review-item';
  item: ReviewItem;
}

/** What Accept does with the item, in a sentence. */
function acceptSays(item: ReviewItem): string {
  const target = targetDisplayName(item.target);
  if (item.where === 'in-place') return `Already in ${target}, held out of the agents' context; Reject deletes it from there.`;
  switch (item.pending?.op) {
    case 'update':
      return `An agent's update of item ${item.pending.id}: Accept replaces it in ${target} with this text.`;
    case 'supersede':
      return `An agent's correction of item ${item.pending.id}: Accept marks it superseded in ${target} and adds this beside it.`;
    case 'done':
      return `An agent asks to mark task ${item.pending.id} done: Accept moves it to Done in ${target}.`;
    case 'forget':
      return `An agent asks to forget item ${item.pending.id}: Accept deletes it from ${target}.`;
    case 'remember':
      return `An agent's new item: Accept writes it to ${target}.`;
    default:
      return `Held in ${REVIEW_FILE}; Accept writes it to ${target}.`;
  }
}

/** The tree item of a held item; plain-text tooltip, so nothing in the item can render as markup or links. */
function reviewTreeItem(root: string, item: ReviewItem): vscode.TreeItem {
  const tree = new vscode.TreeItem(item.text);
  const where = item.where === 'in-place' ? ' (in the file)' : '';
  tree.description = `${targetDisplayName(item.target)}${where} · ${reviewReason(item)}`;
  tree.tooltip = [
    item.line,
    '',
    ...item.reasons.map((r, i) => `${item.kinds[i]}: ${r}`),
    item.provenance ? `from: ${item.provenance.source}, ${item.provenance.date}` : '',
    acceptSays(item),
  ]
    .filter((l, i) => l || i === 1)
    .join('\n');
  tree.accessibilityInformation = {
    label: `${item.pending && !item.kinds.length ? 'Pending' : isSuggestion(item.kinds) ? 'Suggested' : 'Held for review'}: ${item.text}. ${targetDisplayName(item.target)}${where}. ${reviewReason(item)}`,
  };
  // Flagged items keep the shield; an agent's clean write waits with a clock; a suggestion is a light bulb.
  const icon = isSuggestion(item.kinds) ? 'lightbulb' : item.pending && !item.kinds.length ? 'clock' : 'shield';
  tree.iconPath = new vscode.ThemeIcon(icon);
  tree.contextValue = editableReviewItem(item) ? 'lore.reviewItem.editable' : 'lore.reviewItem';
  tree.command = openAtLine(path.join(root, item.where === 'queue' ? REVIEW_FILE : item.target.file), 0);
  return tree;
}

export class ReviewTreeProvider extends StoreTreeProvider {
  /** Shown while an item waits for the person; a server that cannot answer yet holds nothing back. */
  override async hasContent(): Promise<boolean> {
    return this.store.exists && (await this.roots().catch(() => [])).length > 0;
  }

  /** The language server reads what waits (review.md and the store): the view asks it. */
  protected async roots(): Promise<ReviewItemNode[]> {
    const root = this.store.paths.root;
    const items = await this.store.request(ReviewListRequest, {});
    return items.map((item) => ({ kind: 'review-item', item, toTreeItem: () => reviewTreeItem(root, item) }));
  }
}

/**
 * The Review view: knowledge items held back because they read as instructions to an agent,
 * each with inline Accept / Reject. Empty, it shows its welcome text.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { REVIEW_FILE } from '../../core/knowledge/reviewFile';
import { listReview, targetDisplayName, type ReviewItem } from '../../core/knowledge/reviewQueue';
import { openAtLine, StoreTreeProvider, type TreeNode } from './treeBase';

export interface ReviewItemNode extends TreeNode {
  kind: 'review-item';
  item: ReviewItem;
}

/** The tree item of a held item; plain-text tooltip, so nothing in the item can render as markup or links. */
function reviewTreeItem(root: string, item: ReviewItem): vscode.TreeItem {
  const tree = new vscode.TreeItem(item.text);
  const where = item.where === 'in-place' ? ' (in the file)' : '';
  tree.description = `${targetDisplayName(item.target)}${where} · ${item.kinds.join(', ')}`;
  tree.tooltip = [
    item.line,
    '',
    ...item.reasons.map((r, i) => `${item.kinds[i]}: ${r}`),
    item.provenance ? `from: ${item.provenance.source}, ${item.provenance.date}` : '',
    item.where === 'queue' ? `Held in ${REVIEW_FILE}; Accept writes it to ${targetDisplayName(item.target)}.` : `Already in ${targetDisplayName(item.target)}, held out of the agents' context; Reject deletes it from there.`,
  ].filter((l, i) => l || i === 1).join('\n');
  tree.accessibilityInformation = { label: `Held for review: ${item.text}. ${targetDisplayName(item.target)}${where}. ${item.kinds.join(', ')}` };
  tree.iconPath = new vscode.ThemeIcon('shield');
  tree.contextValue = 'lore.reviewItem';
  tree.command = openAtLine(path.join(root, item.where === 'queue' ? REVIEW_FILE : item.target.file), 0);
  return tree;
}

export class ReviewTreeProvider extends StoreTreeProvider {
  protected roots(): ReviewItemNode[] {
    const root = this.store.paths.root;
    return listReview(this.store.paths).map((item) => ({ kind: 'review-item', item, toTreeItem: () => reviewTreeItem(root, item) }));
  }
}

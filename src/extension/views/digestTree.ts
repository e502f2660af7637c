/**
 * The Digest view: the sections of digest.md (what agents receive) with their items; each item
 * opens the category file at its line. No digest file, no items: the welcome view explains
 * "delete to turn off" and offers to harvest or regenerate.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { parseProvenance, stripProvenance } from '../../core/model/provenance';
import { CATEGORY_FILES } from '../../core/model/categories';
import { readTextIfExists } from '../../core/base/readText';
import { DIGEST_SECTIONS, parseDigest } from '../../core/model/digestFormat';
import { withoutBullet } from '../../core/model/itemLines';
import { plainMarkdown } from '../search/searchHitItem';
import { openAtItem, StoreTreeProvider, type TreeNode } from './treeBase';

export interface DigestItemNode extends TreeNode {
  kind: 'item';
  text: string;
  file: string;
}
export interface DigestSectionNode extends TreeNode {
  kind: 'section';
  title: string;
  items: DigestItemNode[];
}

export class DigestTreeProvider extends StoreTreeProvider {
  protected roots(): DigestSectionNode[] {
    const paths = this.store.paths;
    const digest = readTextIfExists(paths.digest);
    if (digest === undefined) return [];
    // A digest with nothing in it (nothing harvested yet) leaves the view to its welcome's next step.
    const sections = parseDigest(digest).filter(({ items }) => items.length > 0);
    return sections.map(({ title, items }) => {
      const spec = DIGEST_SECTIONS.find((s) => s.title === title);
      const file = path.join(paths.root, spec ? CATEGORY_FILES[spec.file].file : CATEGORY_FILES.facts.file);
      const nodes: DigestItemNode[] = items.map((line) => {
        const text = withoutBullet(line);
        return {
          kind: 'item',
          text,
          file,
          toTreeItem: () => {
            // A tree row renders no markdown: the words, not `**Check cache hits**` (the tooltip keeps the line).
            const item = new vscode.TreeItem(plainMarkdown(stripProvenance(text)));
            const from = parseProvenance(text);
            item.description = from ? from.sources.map((p) => `${p.source}, ${p.date}`).join('; ') : undefined;
            item.tooltip = text;
            // Menus: every item can be copied, revealed, traced and deleted; open tasks can be done.
            item.contextValue = title === 'Open tasks' ? 'lore.digestItem.openTask' : 'lore.digestItem';
            item.command = openAtItem(file, text);
            return item;
          },
        };
      });
      return {
        kind: 'section',
        title,
        items: nodes,
        children: () => nodes,
        toTreeItem: () => {
          const item = new vscode.TreeItem(title, vscode.TreeItemCollapsibleState.Expanded);
          item.description = String(nodes.length);
          item.contextValue = 'lore.digestSection';
          item.iconPath = new vscode.ThemeIcon(
            title === 'Open tasks'
              ? 'tasklist'
              : title === 'Open questions'
                ? 'question'
                : title === 'Decisions'
                  ? 'law'
                  : title === 'Playbooks'
                    ? 'book'
                    : 'lightbulb',
          );
          return item;
        },
      };
    });
  }
}

/**
 * The shared base of Lore's tree views: one provider per view, refreshed when the store
 * changes; nodes build their own TreeItem.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Disposable } from '../lifecycle';
import type { StoreService } from '../storeService';

export interface TreeNode {
  toTreeItem(): vscode.TreeItem;
  children?(): TreeNode[];
}

export abstract class StoreTreeProvider extends Disposable implements vscode.TreeDataProvider<TreeNode> {
  private readonly emitter = this._register(new vscode.EventEmitter<TreeNode | undefined>());
  readonly onDidChangeTreeData = this.emitter.event;

  constructor(protected readonly store: StoreService) {
    super();
    this._register(store.onDidChange(() => this.refresh()));
  }

  /** Top-level nodes; an empty list shows the view's welcome content. */
  protected abstract roots(): TreeNode[] | Promise<TreeNode[]>;

  refresh(): void {
    this.emitter.fire(undefined);
  }

  /**
   * Whether the view has something to show, which decides whether it shows at all (viewPresence.ts).
   * A view that cannot be read counts as having something: shown, it says why.
   */
  async hasContent(): Promise<boolean> {
    return this.store.exists && (await this.getChildren()).length > 0;
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    return node.toTreeItem();
  }

  /** Synchronous for views that read files, a promise for views that ask the language server. */
  getChildren(node?: TreeNode): TreeNode[] | Promise<TreeNode[]> {
    if (node) return node.children?.() ?? [];
    if (!this.store.exists) return [];
    // A hand-broken file (a corrupt ledger.json): the view says so and opens it, rather than
    // looking empty as if nothing had been harvested.
    try {
      const roots = this.roots();
      return roots instanceof Promise ? roots.catch((error: unknown) => [errorNode(error)]) : roots;
    } catch (error) {
      return [errorNode(error)];
    }
  }
}

/** The one node a view shows when it cannot be built: the reason, and the file to fix when known. */
export function errorNode(error: unknown): TreeNode & { kind: 'error'; message: string } {
  const message = error instanceof Error ? error.message : String(error);
  const file = (error as { file?: unknown } | undefined)?.file;
  return {
    kind: 'error',
    message,
    toTreeItem: () => {
      const item = new vscode.TreeItem(typeof file === 'string' ? `Cannot read ${path.basename(file)}` : 'Cannot show this view');
      item.description = message;
      item.tooltip = typeof file === 'string' ? `${message}\n\nClick to open ${file}.` : message;
      item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground'));
      if (typeof file === 'string') item.command = { command: 'vscode.open', title: 'Open File', arguments: [vscode.Uri.file(file)] };
      return item;
    },
  };
}

/** A command that opens a file at a 0-based line. */
export function openAtLine(file: string, line: number): vscode.Command {
  return {
    command: 'vscode.open',
    title: 'Open',
    arguments: [vscode.Uri.file(file), { selection: new vscode.Range(line, 0, line, 0) } satisfies vscode.TextDocumentShowOptions],
  };
}

/**
 * A command that opens a category file at the item with this text. The line is looked up when
 * the item is clicked, so showing a view never parses whole category files.
 */
export function openAtItem(file: string, text: string): vscode.Command {
  return { command: 'lore.openItem', title: 'Open', arguments: [file, text] };
}

/**
 * The Cache view: per-provider summaries (input tokens, cached tokens, hit rate, next expiry)
 * and per-discussion entries (cached or not, expires in m:ss) with Invalidate, Disable and
 * Enable actions.
 */
import * as vscode from 'vscode';
import { describe, formatRemaining, summarizeByProvider } from '../../core/context/cacheState';
import type { CacheStates } from '../cache/cacheStates';
import { Disposable, toDisposable } from '../lifecycle';
import type { TreeNode } from './treeBase';

export interface CacheDiscussionNode extends TreeNode {
  kind: 'discussion';
  discussionId: string;
}

export class CacheTreeProvider extends Disposable implements vscode.TreeDataProvider<TreeNode> {
  private readonly emitter = this._register(new vscode.EventEmitter<TreeNode | undefined>());
  readonly onDidChangeTreeData = this.emitter.event;

  constructor(private readonly states: CacheStates) {
    super();
    this._register(states.onDidChange(() => this.emitter.fire(undefined)));
    // Countdowns in descriptions: refresh every 5 s (the status bar has the exact seconds).
    const ticker = setInterval(() => this.emitter.fire(undefined), 5000);
    this._register(toDisposable(() => clearInterval(ticker)));
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    return node.toTreeItem();
  }

  getChildren(node?: TreeNode): TreeNode[] {
    if (node) return node.children?.() ?? [];
    const now = Date.now();
    const states = this.states.all();
    return summarizeByProvider(states, now).map((summary) => {
      const discussions: CacheDiscussionNode[] = states.filter((s) => s.provider === summary.provider).map((state) => ({
        kind: 'discussion',
        discussionId: state.discussionId,
        toTreeItem: () => {
          const d = describe(state, Date.now());
          const item = new vscode.TreeItem(state.discussionId);
          item.description = d.status === 'active' ? (d.estimated ? 'cached (provider-managed)' : `cached, expires in ${d.ttlLabel}`) : d.status === 'expired' ? 'expired' : d.status === 'disabled' ? 'caching disabled' : 'not cached';
          item.iconPath = new vscode.ThemeIcon(d.status === 'active' ? 'database' : d.status === 'disabled' ? 'circle-slash' : 'history');
          item.tooltip = `${d.hits} hit(s) in ${d.calls} call(s), ${d.tokensCached} tokens cached, hit rate ${(d.hitRate * 100).toFixed(0)}%` + (d.fallbackReason ? `\n${d.fallbackReason}` : '');
          item.contextValue = `lore.cacheDiscussion.${state.cachingEnabled ? 'enabled' : 'disabled'}`;
          return item;
        },
      }));
      return {
        children: () => discussions,
        toTreeItem: () => {
          const item = new vscode.TreeItem(summary.provider, vscode.TreeItemCollapsibleState.Expanded);
          const t = summary.totals;
          item.description = `${(summary.hitRate * 100).toFixed(0)}% hit · ${t.inputTokens} in · ${t.cacheReadTokens} cached` + (summary.nextExpiryMs !== undefined ? ` · TTL ${formatRemaining(summary.nextExpiryMs)}` : '');
          item.iconPath = new vscode.ThemeIcon('server');
          item.contextValue = 'lore.cacheProvider';
          return item;
        },
      };
    });
  }
}

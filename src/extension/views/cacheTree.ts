/**
 * The Cache view (cache-friendly-context §5): per tool, the prompt caches of the workspace's
 * agent sessions (in / cached / hit % / TTL, then each session with "expires in m:ss"), @lore's
 * own direct-provider discussions per provider (with Invalidate, Disable and Enable), and the
 * caching settings. Agent sessions come from the language server (AgentCaches), live while a
 * session file changes; countdowns are recomputed here every few seconds without reading.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ToolCacheSummary } from '../../core/services/promptCache/cacheReport';
import { formatUsd } from '../../core/services/promptCache/modelPrices';
import type { SessionCacheState } from '../../core/services/promptCache/sessionCacheState';
import { describe, formatRemaining, summarizeByProvider } from '../../core/services/promptCache/cacheState';
import { TOOL_LABELS } from '../../core/services/discovery/toolLocations';
import { formatTokens } from '../../core/model/format';
import type { AgentCaches } from '../cache/agentCaches';
import type { CacheStates } from '../cache/cacheStates';
import { Disposable, toDisposable } from '../lifecycle';
import { readSettings } from '../settings';
import type { TreeNode } from './treeBase';

export interface CacheDiscussionNode extends TreeNode {
  kind: 'discussion';
  discussionId: string;
}

/** One agent session's row. */
export interface CacheSessionNode extends TreeNode {
  kind: 'session';
  session: SessionCacheState;
}

/** A tool's summary row (its sessions as children). */
export interface CacheToolNode extends TreeNode {
  kind: 'tool';
  summary: ToolCacheSummary;
}

const percent = (ratio: number | undefined) => (ratio === undefined ? 'hit unknown' : `${Math.round(ratio * 100)}% hit`);

/** `expires in 2:00`, `expired`, `provider-managed`, … */
export function sessionDescription(s: SessionCacheState): string {
  switch (s.status) {
    case 'warm':
      return `expires in ${s.ttlLabel}`;
    case 'provider-managed':
      return 'cached (TTL provider-managed)';
    case 'never-cached':
      return 'never cached';
    case 'unknown':
      return s.tool === 'copilot-chat' ? 'cache unknown (not recorded)' : 'no call yet';
    default:
      return 'expired';
  }
}

function sessionTooltip(s: SessionCacheState): string {
  const lines = [
    `${TOOL_LABELS[s.tool]}${s.model ? ` · ${s.model}` : ''}`,
    `Last activity: ${s.lastActivity ? new Date(s.lastActivity).toLocaleString() : 'unknown'}`,
  ];
  if (s.usage) {
    lines.push(
      `Hit ratio ${percent(s.hitRatio)}${s.hits === 0 && s.usage.cacheWriteTokens > 0 ? ' (never hit)' : ''} · cached ${formatTokens(s.usage.cacheReadTokens)} · uncached ${formatTokens(s.usage.uncachedInputTokens)} · written ${formatTokens(s.usage.cacheWriteTokens)}`,
    );
    lines.push(
      s.money
        ? `Saved ${formatUsd(s.money.saved)} at list prices (write premium ${formatUsd(s.money.writePremium)})`
        : `No money figure${s.moneyNote ? `: ${s.moneyNote}` : ''}`,
    );
  } else if (s.calls) lines.push(`${formatTokens(s.inputTokens)} input tokens; the tool records no cached part`);
  if (s.skippedBytes) lines.push('Counted over the end of the session file only (it is large).');
  lines.push(s.path);
  return lines.join('\n');
}

function sessionNode(session: SessionCacheState): CacheSessionNode {
  return {
    kind: 'session',
    session,
    toTreeItem: () => {
      const item = new vscode.TreeItem(`${session.model ?? TOOL_LABELS[session.tool]} · ${path.basename(session.path)}`);
      item.description = sessionDescription(session);
      item.tooltip = sessionTooltip(session);
      item.iconPath = new vscode.ThemeIcon(
        session.status === 'warm' || session.status === 'provider-managed'
          ? 'database'
          : session.status === 'unknown'
            ? 'question'
            : 'history',
      );
      item.contextValue = `lore.cacheSession.${session.status}`;
      return item;
    },
  };
}

function toolNode(summary: ToolCacheSummary, sessions: SessionCacheState[]): CacheToolNode {
  return {
    kind: 'tool',
    summary,
    children: () => sessions.map(sessionNode),
    toTreeItem: () => {
      const item = new vscode.TreeItem(`${summary.label} (${summary.provider})`, vscode.TreeItemCollapsibleState.Expanded);
      const usage = summary.usage
        ? `in ${formatTokens(summary.usage.inputTokens)} · cached ${formatTokens(summary.usage.cacheReadTokens)} · ${percent(summary.hitRatio)}`
        : `in ${formatTokens(summary.inputTokens)} · cached unknown`;
      const ttl =
        summary.nextExpiryMs !== undefined
          ? `TTL ${formatRemaining(summary.nextExpiryMs)}`
          : summary.ttl === 'implicit'
            ? 'TTL provider-managed'
            : `TTL ${summary.ttl}`;
      item.description = `${usage} · ${ttl}`;
      item.tooltip = `${summary.sessions} recent session(s), ${summary.active} cached now${summary.money ? `; cache reads saved ${formatUsd(summary.money.saved)} at list prices` : ''}`;
      item.iconPath = new vscode.ThemeIcon('server');
      item.contextValue = 'lore.cacheTool';
      return item;
    },
  };
}

function settingNode(label: string, description: string, setting: string): TreeNode {
  return {
    toTreeItem: () => {
      const item = new vscode.TreeItem(label);
      item.description = description;
      item.iconPath = new vscode.ThemeIcon('settings-gear');
      item.command = { command: 'workbench.action.openSettings', title: 'Open Setting', arguments: [setting] };
      item.contextValue = 'lore.cacheSetting';
      return item;
    },
  };
}

export class CacheTreeProvider extends Disposable implements vscode.TreeDataProvider<TreeNode> {
  private readonly emitter = this._register(new vscode.EventEmitter<TreeNode | undefined>());
  readonly onDidChangeTreeData = this.emitter.event;

  constructor(
    private readonly states: CacheStates,
    private readonly agents?: AgentCaches,
  ) {
    super();
    this._register(states.onDidChange(() => this.emitter.fire(undefined)));
    if (agents) this._register(agents.onDidChange(() => this.emitter.fire(undefined)));
    this._register(
      vscode.workspace.onDidChangeConfiguration((e) =>
        e.affectsConfiguration('lore.instructions.sync') || e.affectsConfiguration('lore.cache') ? this.emitter.fire(undefined) : undefined,
      ),
    );
    // Countdowns in descriptions: refresh every 5 s (the status bar has the exact seconds).
    const ticker = setInterval(() => this.emitter.fire(undefined), 5000);
    this._register(toDisposable(() => clearInterval(ticker)));
  }

  /** Shown once an agent session's cache or an @lore discussion's was seen (viewPresence.ts). */
  hasContent(): boolean {
    return !!this.agents?.report?.sessions.length || this.states.all().length > 0;
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    return node.toTreeItem();
  }

  getChildren(node?: TreeNode): TreeNode[] {
    if (node) return node.children?.() ?? [];
    const now = Date.now();
    return [...this.agentNodes(now), ...this.discussionNodes(now), ...this.settingsNodes()];
  }

  /** Per tool, the agent sessions at `now` (their summary's countdown recomputed too). */
  private agentNodes(now: number): CacheToolNode[] {
    const report = this.agents?.report;
    if (!report) return [];
    const sessions = this.agents!.sessions(now);
    return report.tools.map((summary) => {
      const mine = sessions.filter((s) => s.tool === summary.tool);
      const warm = mine.filter((s) => s.status === 'warm' && s.remainingMs !== undefined);
      return toolNode({ ...summary, nextExpiryMs: warm.length ? Math.min(...warm.map((s) => s.remainingMs!)) : undefined }, mine);
    });
  }

  /** @lore's own discussions, per provider. */
  private discussionNodes(now: number): TreeNode[] {
    const states = this.states.all();
    return summarizeByProvider(states, now).map((summary) => {
      const discussions: CacheDiscussionNode[] = states
        .filter((s) => s.provider === summary.provider)
        .map((state) => ({
          kind: 'discussion',
          discussionId: state.discussionId,
          toTreeItem: () => {
            const d = describe(state, Date.now());
            const item = new vscode.TreeItem(state.discussionId);
            item.description =
              d.status === 'active'
                ? d.estimated
                  ? 'cached (provider-managed)'
                  : `cached, expires in ${d.ttlLabel}`
                : d.status === 'expired'
                  ? 'expired'
                  : d.status === 'disabled'
                    ? 'caching disabled'
                    : 'not cached';
            item.iconPath = new vscode.ThemeIcon(d.status === 'active' ? 'database' : d.status === 'disabled' ? 'circle-slash' : 'history');
            item.tooltip =
              `${d.hits} hit(s) in ${d.calls} call(s), ${d.tokensCached} tokens cached, hit rate ${(d.hitRate * 100).toFixed(0)}%` +
              (d.fallbackReason ? `\n${d.fallbackReason}` : '');
            item.contextValue = `lore.cacheDiscussion.${state.cachingEnabled ? 'enabled' : 'disabled'}`;
            return item;
          },
        }));
      return {
        children: () => discussions,
        toTreeItem: () => {
          const item = new vscode.TreeItem(summary.provider, vscode.TreeItemCollapsibleState.Expanded);
          const t = summary.totals;
          item.description =
            `${(summary.hitRate * 100).toFixed(0)}% hit · ${t.inputTokens} in · ${t.cacheReadTokens} cached` +
            (summary.nextExpiryMs !== undefined ? ` · TTL ${formatRemaining(summary.nextExpiryMs)}` : '');
          item.tooltip = '@lore discussions through a direct provider';
          item.iconPath = new vscode.ThemeIcon('server');
          item.contextValue = 'lore.cacheProvider';
          return item;
        },
      };
    });
  }

  /** The caching settings, shown once there is something above them (else the welcome text shows). */
  private settingsNodes(): TreeNode[] {
    if (!this.hasContent()) return [];
    const settings = readSettings();
    const children = [
      settingNode('Status bar countdown', settings.cacheStatusBar ? 'on' : 'off', 'lore.cache.statusBar'),
      settingNode(
        'Digest block in agent instruction files',
        settings.instructionsSync.length ? settings.instructionsSync.join(', ') : 'off',
        'lore.instructions.sync',
      ),
    ];
    return [
      {
        children: () => children,
        toTreeItem: () => {
          const item = new vscode.TreeItem('Settings', vscode.TreeItemCollapsibleState.Collapsed);
          item.iconPath = new vscode.ThemeIcon('settings');
          item.contextValue = 'lore.cacheSettings';
          return item;
        },
      },
    ];
  }
}

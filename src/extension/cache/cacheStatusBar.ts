/**
 * The status-bar countdown of the prompt cache the user is working with: `$(clock) 4:32`, a
 * warning color in the last minute. It follows whichever was active last: the workspace's most
 * recently active agent session (Claude Code, Codex, Copilot Chat, from their session files), or
 * @lore's own discussion. An agent session shows while warm (Codex: `cached`, its lifetime is
 * provider-managed) and hides once expired; @lore's discussion shows "expired" after, as before.
 * Hidden when nothing is cached, or when `lore.cache.statusBar` is off. One state value (the
 * view) drives the whole item; the ticking pauses while the window is unfocused.
 */
import * as vscode from 'vscode';
import type { SessionCacheState } from '../../core/services/promptCache/sessionCacheState';
import { describe, type CacheDescription } from '../../core/services/promptCache/cacheState';
import { TOOL_LABELS } from '../../core/services/discovery/toolLocations';
import { formatTokens } from '../../core/model/format';
import { Disposable, toDisposable } from '../lifecycle';
import { readSettings } from '../settings';
import type { AgentCaches } from './agentCaches';
import type { CacheStates } from './cacheStates';

const WARN_MS = 60_000;

/** What the item shows, computed from the states at one moment. */
export interface CacheStatusView {
  source: 'agent' | 'lore';
  text: string;
  /** In the last minute before expiry. */
  warning: boolean;
  tooltip: string;
  /** The agent session shown. */
  session?: SessionCacheState;
  /** @lore's discussion shown. */
  discussion?: CacheDescription;
}

const percent = (ratio: number | undefined) => (ratio === undefined ? 'unknown' : `${Math.round(ratio * 100)}%`);

function agentView(s: SessionCacheState): CacheStatusView | undefined {
  if (s.status !== 'warm' && s.status !== 'provider-managed') return undefined;
  const warm = s.status === 'warm';
  const lines = [
    `${TOOL_LABELS[s.tool]} prompt cache${s.model ? ` (${s.model})` : ''}`,
    warm
      ? `Expires in ${s.ttlLabel} (${s.ttl} TTL, counted from the last call that read or wrote it)`
      : 'Cached by the provider; its lifetime is provider-managed',
    `Hit ratio ${percent(s.hitRatio)} · ${formatTokens(s.usage?.cacheReadTokens ?? 0)} tokens read from the cache`,
  ];
  return {
    source: 'agent',
    text: `$(clock) ${warm ? s.ttlLabel : 'cached'}`,
    warning: warm && s.remainingMs !== undefined && s.remainingMs < WARN_MS,
    tooltip: lines.join('\n'),
    session: s,
  };
}

function loreView(d: CacheDescription): CacheStatusView | undefined {
  if (d.status === 'none' || d.status === 'disabled') return undefined;
  const expired = d.status === 'expired';
  const tooltip = [
    `@lore prompt cache (${d.provider})`,
    expired ? 'Expired' : d.estimated ? 'Managed by the provider (no expiry reported)' : `Expires in ${d.ttlLabel}`,
    `Hit rate ${(d.hitRate * 100).toFixed(0)}% · ${d.hits} hit(s) in ${d.calls} call(s) · ${d.tokensCached} tokens cached`,
  ].join('\n');
  return {
    source: 'lore',
    text: `$(clock) ${expired ? 'expired' : d.ttlLabel}`,
    warning: !expired && d.remainingMs !== undefined && d.remainingMs < WARN_MS,
    tooltip,
    discussion: d,
  };
}

export class CacheStatusBar extends Disposable {
  private readonly item = this._register(vscode.window.createStatusBarItem('lore.cacheTtl', vscode.StatusBarAlignment.Right, 100));
  private timer: NodeJS.Timeout | undefined;
  /** `lore.cache.statusBar`, read when it changes (not on every tick). */
  private enabled = readSettings().cacheStatusBar;

  constructor(
    private readonly states: CacheStates,
    private readonly agents?: AgentCaches,
  ) {
    super();
    this.item.name = 'Lore Prompt Cache';
    this.item.command = 'lore.cache.focus';
    this._register(toDisposable(() => this.stop()));
    this._register(states.onDidChange(() => this.update()));
    if (agents) this._register(agents.onDidChange(() => this.update()));
    this._register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (!e.affectsConfiguration('lore.cache.statusBar')) return;
        this.enabled = readSettings().cacheStatusBar;
        this.update();
      }),
    );
    this._register(vscode.window.onDidChangeWindowState((s) => (s.focused ? this.start() : this.stop())));
    this.update();
    if (vscode.window.state.focused) this.start();
  }

  /** @lore's active discussion as it stands at `now` (exposed for tests). */
  current(now = Date.now()): CacheDescription | undefined {
    const id = this.states.activeId;
    const state = id ? this.states.get(id) : undefined;
    return state ? describe(state, now) : undefined;
  }

  /** What the item shows at `now`, undefined when hidden (exposed for tests). */
  view(now = Date.now()): CacheStatusView | undefined {
    if (!this.enabled) return undefined;
    const session = this.agents?.sessions(now)[0];
    const discussion = this.current(now);
    const loreAt = discussion && this.states.get(discussion.discussionId)?.lastCallAt;
    // The one the user worked with last: @lore's discussion only when it called after the agent's last call.
    if (discussion && loreAt !== undefined && (!session?.lastActivity || loreAt >= session.lastActivity))
      return loreView(discussion) ?? (session && agentView(session));
    return (session && agentView(session)) ?? (discussion && loreView(discussion));
  }

  update(now = Date.now()): void {
    const view = this.view(now);
    if (!view) {
      this.item.hide();
      return;
    }
    this.item.text = view.text;
    this.item.backgroundColor = view.warning ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    const [title, ...rest] = view.tooltip.split('\n');
    const tooltip = new vscode.MarkdownString();
    tooltip.appendMarkdown(`**${title.replace(/[\\`*_{}[\]()#+\-.!<>|]/g, '\\$&')}**\n\n`);
    tooltip.appendText(rest.join('\n'));
    this.item.tooltip = tooltip;
    this.item.show();
  }

  private start(): void {
    this.stop();
    this.update();
    this.timer = setInterval(() => this.update(), 1000);
  }

  private stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}

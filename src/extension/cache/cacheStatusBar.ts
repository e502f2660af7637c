/**
 * The status-bar countdown of the active discussion's prompt cache: `$(clock) 4:32`, a warning
 * color in the last minute, "expired" after; hidden when no cache is active. One state value
 * (the description) drives the whole item. The ticking pauses while the window is unfocused.
 */
import * as vscode from 'vscode';
import { describe, type CacheDescription } from '../../core/context/cacheState';
import { Disposable, toDisposable } from '../lifecycle';
import type { CacheStates } from './cacheStates';

const WARN_MS = 60_000;

export class CacheStatusBar extends Disposable {
  private readonly item = this._register(vscode.window.createStatusBarItem('lore.cacheTtl', vscode.StatusBarAlignment.Right, 100));
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly states: CacheStates) {
    super();
    this.item.name = 'Lore Prompt Cache';
    this.item.command = 'lore.cache.focus';
    this._register(toDisposable(() => this.stop()));
    this._register(states.onDidChange(() => this.update()));
    this._register(vscode.window.onDidChangeWindowState((s) => (s.focused ? this.start() : this.stop())));
    this.update();
    if (vscode.window.state.focused) this.start();
  }

  /** What the item shows now (exposed for tests). */
  current(now = Date.now()): CacheDescription | undefined {
    const id = this.states.activeId;
    const state = id ? this.states.get(id) : undefined;
    return state ? describe(state, now) : undefined;
  }

  update(now = Date.now()): void {
    const d = this.current(now);
    if (!d || d.status === 'none' || d.status === 'disabled') {
      this.item.hide();
      return;
    }
    const expired = d.status === 'expired';
    this.item.text = `$(clock) ${expired ? 'expired' : d.ttlLabel}`;
    this.item.backgroundColor = !expired && d.remainingMs !== undefined && d.remainingMs < WARN_MS ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    const tooltip = new vscode.MarkdownString();
    tooltip.appendMarkdown(`**Lore prompt cache** (${d.provider})\n\n`);
    tooltip.appendText(`${expired ? 'Expired' : d.estimated ? 'Managed by the provider (no expiry reported)' : `Expires in ${d.ttlLabel}`}\n`);
    tooltip.appendText(`Hit rate ${(d.hitRate * 100).toFixed(0)}% · ${d.hits} hit(s) in ${d.calls} call(s) · ${d.tokensCached} tokens cached`);
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

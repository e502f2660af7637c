/**
 * The context keys Lore sets for `when` clauses (menus, the command palette, welcome views, which
 * views show). VS Code offers no way to read a context key back, so the values are remembered here
 * too: the extension API exposes them, and a test can check what the `when` clauses see.
 */
import * as vscode from 'vscode';
import type { ViewKey } from './views/viewKeys';

/** The keys Lore's `when` clauses use (see package.json). */
export type LoreContextKey = 'lore.storeExists' | 'lore.noStore' | ViewKey;

export class ContextKeys {
  private readonly values = new Map<LoreContextKey, boolean>();

  /** Sets a key (only when its value changes: each set is a round trip to the workbench). */
  set(key: LoreContextKey, value: boolean): void {
    if (this.values.get(key) === value) return;
    this.values.set(key, value);
    void vscode.commands.executeCommand('setContext', key, value);
  }

  /** The value last set, undefined when never set. */
  get(key: LoreContextKey): boolean | undefined {
    return this.values.get(key);
  }
}

/**
 * Ownership of disposables. A class that owns several subscriptions, emitters or status-bar items
 * extends `Disposable` and hands each to `_register` as it creates it, so nothing it subscribes
 * to can be forgotten in its `dispose()`: a hand-kept array is one missed `push` away from a leak.
 */
import type * as vscode from 'vscode';

/** Disposes every item once, newest first (the reverse of the order they were created in). */
function disposeAll(items: vscode.Disposable[]): void {
  while (items.length > 0) {
    const item = items.pop();
    try {
      item?.dispose();
    } catch {
      // One failing dispose must not keep the others alive.
    }
  }
}

/** A Disposable for a cleanup function (timers, child resources that are not vscode objects). */
export function toDisposable(dispose: () => void): vscode.Disposable {
  return { dispose };
}

/** Base class of everything in the extension that owns other disposables. */
export abstract class Disposable implements vscode.Disposable {
  private disposed = false;
  private readonly owned: vscode.Disposable[] = [];

  /** Takes ownership of `value`; after `dispose()` it is disposed at once instead. */
  protected _register<T extends vscode.Disposable>(value: T): T {
    if (this.disposed) value.dispose();
    else this.owned.push(value);
    return value;
  }

  protected get isDisposed(): boolean {
    return this.disposed;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    disposeAll(this.owned);
  }
}

/**
 * Explorer badges for files that have notes. VS Code asks per file; the requests are batched
 * (20 ms) into one `lore/fileDecorations` call, and `lore/notesChanged` refreshes them.
 */
import * as vscode from 'vscode';
import { FileDecorationsRequest, NotesChangedNotification } from '../../shared/protocol';
import { Disposable, toDisposable } from '../lifecycle';
import { onServerNotification } from '../serverNotification';
import type { LoreServerClient } from '../loreServerClient';

export class NoteDecorations extends Disposable implements vscode.FileDecorationProvider {
  private readonly emitter = this._register(new vscode.EventEmitter<vscode.Uri | vscode.Uri[] | undefined>());
  readonly onDidChangeFileDecorations = this.emitter.event;
  private pending = new Map<string, Array<(count: number) => void>>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly notes: LoreServerClient) {
    super();
    this._register(toDisposable(() => clearTimeout(this.timer)));
    // Each restarted server's subscription replaces the last one's (it used to be kept forever).
    this._register(
      onServerNotification(notes, NotesChangedNotification, (p) =>
        this.emitter.fire(p.all ? undefined : p.uris.map((u) => vscode.Uri.parse(u))),
      ),
    );
    this._register(notes.onDidStart(() => this.emitter.fire(undefined)));
  }

  provideFileDecoration(uri: vscode.Uri): Promise<vscode.FileDecoration | undefined> | undefined {
    if (uri.scheme !== 'file') return undefined;
    return new Promise((resolve) => {
      const waiters = this.pending.get(uri.fsPath) ?? [];
      waiters.push((count) =>
        resolve(
          count > 0
            ? new vscode.FileDecoration(count > 9 ? '9+' : String(count), `${count} Lore note${count === 1 ? '' : 's'}`)
            : undefined,
        ),
      );
      this.pending.set(uri.fsPath, waiters);
      this.timer ??= setTimeout(() => void this.flush(), 20);
    });
  }

  private async flush(): Promise<void> {
    this.timer = undefined;
    const batch = this.pending;
    this.pending = new Map();
    let counts: Record<string, number> = {};
    try {
      const client = await this.notes.ready();
      if (client?.isRunning()) counts = (await client.sendRequest(FileDecorationsRequest.type, { paths: [...batch.keys()] })).counts;
    } catch {
      // No badges rather than an error per file; the server logs its own failures.
    }
    for (const [file, waiters] of batch) for (const done of waiters) done(counts[file] ?? 0);
  }
}

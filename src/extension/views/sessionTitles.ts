/**
 * The titles of the conversation files the Ledger and Inbox views list, asked of the language
 * server (SessionTitlesRequest): finding a title means importing the start and end of a session,
 * which the importers do in the server, never on the extension host. A row shows its file name
 * until the answer comes, then the view refreshes once with every title learned in that batch.
 */
import * as vscode from 'vscode';
import { SESSION_TITLES_MAX, SessionTitlesRequest } from '../../shared/protocol';
import type { LoreServerClient } from '../loreServerClient';
import { Disposable } from '../lifecycle';

export class SessionTitles extends Disposable {
  /** Per file: its title, or null when it has none (asked once). */
  private readonly known = new Map<string, string | null>();
  private readonly wanted = new Set<string>();
  private asking = false;
  private readonly learned = this._register(new vscode.EventEmitter<void>());
  /** Fires when titles arrived: the views that asked refresh. */
  readonly onDidLearn = this.learned.event;

  constructor(private readonly server: LoreServerClient) {
    super();
  }

  /** The file's title when known; otherwise undefined now, asked for in the next batch. */
  titleOf(file: string): string | undefined {
    const title = this.known.get(file);
    if (title === undefined && !this.known.has(file)) {
      this.wanted.add(file);
      queueMicrotask(() => void this.ask());
    }
    return title ?? undefined;
  }

  private async ask(): Promise<void> {
    if (this.asking || this.wanted.size === 0) return;
    this.asking = true;
    const paths = [...this.wanted].slice(0, SESSION_TITLES_MAX);
    for (const file of paths) this.wanted.delete(file);
    try {
      const client = await this.server.ready();
      if (!client?.isRunning()) throw new Error('no language server');
      const titles = await client.sendRequest(SessionTitlesRequest.type, { paths });
      for (const file of paths) this.known.set(file, titles[file] ?? null);
      if (!this.isDisposed) this.learned.fire();
    } catch {
      // No server (or it is restarting): the rows keep their file names; asked again when next drawn.
      this.asking = false;
      return;
    }
    this.asking = false;
    if (this.wanted.size) void this.ask();
  }
}

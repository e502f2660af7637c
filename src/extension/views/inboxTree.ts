/**
 * The Inbox view: what waits for the next harvest. Conversation files in the store's inbox
 * (copied there by agent hooks, or put there by hand) and the sessions hooks queued where their
 * tool keeps them. "Harvest Now" runs the usual harvest flow on exactly these.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { readQueuedSessions } from '../../core/store/captureQueue';
import { scanSources } from '../../core/services/discovery/scanSources';
import { formatBytes, humanTime } from '../../core/model/format';
import type { StoreService } from '../storeService';
import { sourcesHintNodes, type SourcesHintNode, type SourcesListing } from './sourcesHint';
import type { SessionTitles } from './sessionTitles';
import { StoreTreeProvider, type TreeNode } from './treeBase';

export interface InboxFileNode extends TreeNode {
  kind: 'file';
  path: string;
  bytes: number;
}
export interface QueuedSessionNode extends TreeNode {
  kind: 'queued';
  sessionId: string;
  /** The transcript where its tool keeps it. */
  path: string;
  exists: boolean;
}
export type InboxNode = InboxFileNode | QueuedSessionNode;

function statOf(file: string): fs.Stats | undefined {
  try {
    return fs.statSync(file);
  } catch {
    return undefined;
  }
}

/** `today 10:42 · 48.0 KB`: when a conversation file last changed and its size. */
function whenAndSize(stat: fs.Stats): string {
  return `${humanTime(stat.mtime)} · ${formatBytes(stat.size)}`;
}

function fileNode(file: string, inbox: string, titles: SessionTitles | undefined): InboxFileNode | undefined {
  const stat = statOf(file);
  if (stat === undefined) return undefined; // Gone between the listing and now.
  return {
    kind: 'file',
    path: file,
    bytes: stat.size,
    toTreeItem: () => {
      // Named by what was asked (or the title its tool gave it); the file name is in the tooltip.
      const name = path.relative(inbox, file);
      const item = new vscode.TreeItem(titles?.titleOf(file) ?? name);
      item.description = whenAndSize(stat);
      item.tooltip = `${name}\nwaits in the inbox; removed from it once a harvest has taken what it teaches`;
      item.iconPath = new vscode.ThemeIcon('mail');
      item.contextValue = 'lore.inboxFile';
      item.resourceUri = vscode.Uri.file(file);
      item.command = { command: 'vscode.open', title: 'Open Conversation', arguments: [vscode.Uri.file(file)] };
      return item;
    },
  };
}

export class InboxTreeProvider extends StoreTreeProvider {
  /** `sources` lists this workspace's agent sessions; an empty inbox names them and how to import them. */
  constructor(
    store: StoreService,
    private readonly sources?: SourcesListing,
    private readonly titles?: SessionTitles,
  ) {
    super(store);
    if (titles) this._register(titles.onDidLearn(() => this.refresh()));
  }

  /** Shown while something waits for a harvest (the sessions found elsewhere are not the inbox's). */
  override async hasContent(): Promise<boolean> {
    return this.store.exists && this.waiting().length > 0;
  }

  protected roots(): InboxNode[] | Promise<SourcesHintNode[]> {
    const waiting = this.waiting();
    if (waiting.length > 0 || !this.sources) return waiting;
    return this.sources.get().then((report) => sourcesHintNodes(0, report));
  }

  private waiting(): InboxNode[] {
    const paths = this.store.paths;
    const files = scanSources(paths, [paths.inbox])
      .files.map((f) => fileNode(f.path, paths.inbox, this.titles))
      .filter((n): n is InboxFileNode => n !== undefined);
    const queued = readQueuedSessions(paths).map((entry): QueuedSessionNode => {
      const stat = statOf(entry.transcript);
      return {
        kind: 'queued',
        sessionId: entry.sessionId,
        path: entry.transcript,
        exists: stat !== undefined,
        toTreeItem: () => {
          const item = new vscode.TreeItem((stat && this.titles?.titleOf(entry.transcript)) ?? entry.sessionId);
          item.description = stat === undefined ? 'queued · transcript gone' : `queued ${humanTime(entry.at)} · ${formatBytes(stat.size)}`;
          item.tooltip = `${entry.transcript}\nqueued by the agent's ${entry.event} hook; read where it is, never deleted by Lore`;
          item.iconPath = new vscode.ThemeIcon(stat === undefined ? 'warning' : 'clock');
          item.contextValue = 'lore.queuedSession';
          if (stat !== undefined)
            item.command = { command: 'vscode.open', title: 'Open Conversation', arguments: [vscode.Uri.file(entry.transcript)] };
          return item;
        },
      };
    });
    return [...files, ...queued];
  }
}

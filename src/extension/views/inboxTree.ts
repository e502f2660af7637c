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
import { formatBytes } from '../../core/model/format';
import type { StoreService } from '../storeService';
import { sourcesHintNodes, type SourcesHintNode, type SourcesListing } from './sourcesHint';
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

function sizeOf(file: string): number | undefined {
  try {
    return fs.statSync(file).size;
  } catch {
    return undefined;
  }
}

function fileNode(file: string, inbox: string): InboxFileNode | undefined {
  const bytes = sizeOf(file);
  if (bytes === undefined) return undefined; // Gone between the listing and now.
  return {
    kind: 'file',
    path: file,
    bytes,
    toTreeItem: () => {
      const item = new vscode.TreeItem(path.relative(inbox, file));
      item.description = formatBytes(bytes);
      item.tooltip = `${file}\nin the inbox: reclaimed after a proven harvest`;
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
  ) {
    super(store);
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
      .files.map((f) => fileNode(f.path, paths.inbox))
      .filter((n): n is InboxFileNode => n !== undefined);
    const queued = readQueuedSessions(paths).map((entry): QueuedSessionNode => {
      const bytes = sizeOf(entry.transcript);
      return {
        kind: 'queued',
        sessionId: entry.sessionId,
        path: entry.transcript,
        exists: bytes !== undefined,
        toTreeItem: () => {
          const item = new vscode.TreeItem(entry.sessionId);
          item.description =
            bytes === undefined
              ? 'queued · transcript gone'
              : `queued · ${formatBytes(bytes)} · ${entry.at.slice(0, 16).replace('T', ' ')}`;
          item.tooltip = `${entry.transcript}\nqueued by the agent's ${entry.event} hook; read where it is, never deleted by Lore`;
          item.iconPath = new vscode.ThemeIcon(bytes === undefined ? 'warning' : 'clock');
          item.contextValue = 'lore.queuedSession';
          if (bytes !== undefined)
            item.command = { command: 'vscode.open', title: 'Open Conversation', arguments: [vscode.Uri.file(entry.transcript)] };
          return item;
        },
      };
    });
    return [...files, ...queued];
  }
}

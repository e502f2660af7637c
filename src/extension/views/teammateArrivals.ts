/**
 * What arrived from teammates with the last pull (the language server notices git moving HEAD,
 * core's teammateArrivals lists the items): a "New from teammates" group at the top of the
 * Knowledge view, each item with its author and a click to its line, and a short notification
 * naming who they came from. The group stays until the person marks it seen (its inline check,
 * or Mark as Seen in the notification) or the next arrival replaces it. Nothing is parsed here:
 * the list is the server's answer.
 */
import * as vscode from 'vscode';
import { stripProvenance } from '../../core/model/provenance';
import type { Arrivals } from '../../core/store/items/teammateArrivals';
import { LoreCommands, TeammateArrivalsNotification, TeammateArrivalsRequest, TeammateArrivalsSeenRequest } from '../../shared/protocol';
import { Disposable } from '../lifecycle';
import { runCommand } from '../log';
import type { LoreServerClient } from '../loreServerClient';
import { onServerNotification } from '../serverNotification';
import { sendRequest } from '../serverRequest';
import type { TreeNode } from './treeBase';

export const MARK_ARRIVALS_SEEN_COMMAND = 'lore.markTeammateArrivalsSeen';

/** "Ana", "Ana and Ben", "Ana, Ben and 2 others". */
export function namesText(authors: readonly string[]): string {
  if (authors.length <= 1) return authors[0] ?? 'a teammate';
  if (authors.length === 2) return `${authors[0]} and ${authors[1]}`;
  if (authors.length === 3) return `${authors[0]}, ${authors[1]} and ${authors[2]}`;
  return `${authors[0]}, ${authors[1]} and ${authors.length - 2} others`;
}

/** "12 items arrived from Ana and Ben". */
export function arrivalsSummary(arrivals: Arrivals): string {
  return `${arrivals.total} item${arrivals.total === 1 ? '' : 's'} arrived from ${namesText(arrivals.authors)}`;
}

export class TeammateArrivals extends Disposable {
  private arrivals: Arrivals | undefined;
  private readonly emitter = this._register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.emitter.event;

  constructor(private readonly server: LoreServerClient) {
    super();
    this._register(
      onServerNotification(server, TeammateArrivalsNotification, ({ arrivals }) => {
        this.set(arrivals);
        void this.announce(arrivals);
      }),
    );
    // After a start (a reload): the arrivals not seen yet are still news, without a second notification.
    this._register(
      server.onDidStart(() => {
        void sendRequest(server, TeammateArrivalsRequest, {}).then(
          (arrivals) => this.set(arrivals ?? undefined),
          () => undefined,
        );
      }),
    );
    this._register(vscode.commands.registerCommand(MARK_ARRIVALS_SEEN_COMMAND, () => runCommand('Mark as Seen', () => this.markSeen())));
  }

  /** The arrivals not seen yet, or undefined. */
  get current(): Arrivals | undefined {
    return this.arrivals;
  }

  async markSeen(): Promise<void> {
    this.set(undefined);
    await sendRequest(this.server, TeammateArrivalsSeenRequest, {});
  }

  private set(arrivals: Arrivals | undefined): void {
    this.arrivals = arrivals && arrivals.items.length > 0 ? arrivals : undefined;
    this.emitter.fire();
  }

  private async announce(arrivals: Arrivals): Promise<void> {
    const choice = await vscode.window.showInformationMessage(arrivalsSummary(arrivals), 'Show', 'Mark as Seen');
    if (choice === 'Show') await vscode.commands.executeCommand('lore.knowledge.focus');
    else if (choice === 'Mark as Seen' && this.arrivals === arrivals) await this.markSeen();
  }
}

/** The Knowledge view's "New from teammates" group, or undefined when nothing new arrived. */
export function arrivalsNode(arrivals: Arrivals | undefined): (TreeNode & { kind: 'arrivals'; label: string; count: number }) | undefined {
  if (!arrivals || arrivals.items.length === 0) return undefined;
  const children: TreeNode[] = arrivals.items.map((item) => ({
    toTreeItem: () => {
      const text = stripProvenance(item.text);
      const node = new vscode.TreeItem(text);
      node.description = `${item.author}, ${item.date.slice(0, 10)}`;
      node.iconPath = new vscode.ThemeIcon('person');
      const tooltip = new vscode.MarkdownString();
      tooltip.appendText(`${text}\n\nadded by ${item.author}${item.email ? ` <${item.email}>` : ''}, ${item.date.slice(0, 10)}`);
      tooltip.appendText(`\n${item.file}:${item.line + 1} · commit ${item.commit.slice(0, 7)}`);
      node.tooltip = tooltip;
      node.accessibilityInformation = { label: `${text}, added by ${item.author}` };
      // By id: the line may have moved since the pull (a tidy, a person's edit).
      node.command = { title: 'Reveal Item', command: LoreCommands.revealItemById, arguments: [{ id: item.id }] };
      node.contextValue = 'lore.teammateArrival';
      return node;
    },
  }));
  if (arrivals.total > arrivals.items.length)
    children.push({
      toTreeItem: () => new vscode.TreeItem(`…and ${arrivals.total - arrivals.items.length} more (git log shows them all)`),
    });
  return {
    kind: 'arrivals',
    label: 'New from teammates',
    count: arrivals.total,
    children: () => children,
    toTreeItem: () => {
      const item = new vscode.TreeItem('New from teammates', vscode.TreeItemCollapsibleState.Expanded);
      item.description = `${arrivals.total} item${arrivals.total === 1 ? '' : 's'} from ${namesText(arrivals.authors)}`;
      item.iconPath = new vscode.ThemeIcon('git-pull-request');
      item.tooltip = `${arrivalsSummary(arrivals)} with the last pull. Mark as Seen (✓) clears this group.`;
      item.contextValue = 'lore.teammateArrivals';
      return item;
    },
  };
}

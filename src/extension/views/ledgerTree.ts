/**
 * The Ledger view: what was harvested, grouped by status, with dates, item counts and errors.
 * A failed entry can be retried; a conversation can be opened while its stored transcript or its
 * raw file exists.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { conversationFile } from '../../core/store/items/provenanceTarget';
import { readLedger } from '../../core/store/ledger';
import { LEDGER_STATUSES, type LedgerEntry, type LedgerStatus } from '../../core/model/ledgerFormat';
import type { StorePaths } from '../../core/store/storePaths';
import { forgottenConversationAt } from '../../core/model/tombstones';
import { humanTime, itemCountsText } from '../../core/model/format';
import type { StoreService } from '../storeService';
import { inboxCount, sourcesHintNodes, type SourcesHintNode, type SourcesListing } from './sourcesHint';
import type { SessionTitles } from './sessionTitles';
import { spendingNode, type SpendingNode } from './spendingRow';
import { StoreTreeProvider, type TreeNode } from './treeBase';

export interface LedgerEntryNode extends TreeNode {
  kind: 'entry';
  sha256: string;
  entry: LedgerEntry;
}
export interface LedgerGroupNode extends TreeNode {
  kind: 'group';
  status: LedgerStatus;
  entries: LedgerEntryNode[];
}

const STATUS_ICONS: Record<LedgerStatus, string> = {
  harvested: 'pass',
  'harvest-failed': 'error',
  'too-large': 'warning',
  'deleted-unharvested': 'trash',
  unrecognized: 'question',
};

/** Statuses as a person reads them (ledger.json keeps its machine names). */
export const STATUS_LABELS: Record<LedgerStatus, string> = {
  harvested: 'Harvested',
  'harvest-failed': 'Harvest failed',
  'too-large': 'Too large to harvest',
  'deleted-unharvested': 'Removed without harvesting',
  unrecognized: 'Not a conversation Lore can read',
};

function itemSummary(entry: LedgerEntry): string {
  return entry.items ? itemCountsText(entry.items) : '';
}

/** `forgottenAt`: when a person forgot the conversation (`lore forget`; tombstones.ts). */
function entryNode(
  paths: StorePaths,
  sha256: string,
  entry: LedgerEntry,
  forgottenAt: string | undefined,
  titles: SessionTitles | undefined,
): LedgerEntryNode {
  return {
    kind: 'entry',
    sha256,
    entry,
    toTreeItem: () => {
      const location = conversationFile(paths, entry);
      // Its title as recorded at the harvest; an older entry's is read from its transcript or file.
      const title = entry.title ?? (location ? titles?.titleOf(location) : undefined);
      const item = new vscode.TreeItem(title ?? entry.id ?? path.basename(entry.path));
      item.description = forgottenAt
        ? `forgotten ${humanTime(forgottenAt, { withTime: false })}`
        : [humanTime(entry.at), itemSummary(entry)].filter(Boolean).join(' · ');
      const tooltip = new vscode.MarkdownString();
      if (title) tooltip.appendText(`${title}\n`);
      tooltip.appendText(`${STATUS_LABELS[entry.status] ?? entry.status} ${humanTime(entry.at)}\n${entry.path}\nsha256 ${sha256}`);
      if (entry.error) tooltip.appendText(`\n${entry.status === 'unrecognized' ? 'not read' : 'error'}: ${entry.error}`);
      if (entry.archived) tooltip.appendText(`\nmoved to the archive: ${entry.archived}`);
      if (entry.deleted) tooltip.appendText('\nremoved from the inbox after the harvest');
      if (entry.transcript) tooltip.appendText(`\ntranscript: ${entry.transcript}`);
      item.tooltip = tooltip;
      if (forgottenAt) tooltip.appendText(`\nforgotten for good ${humanTime(forgottenAt)} (a harvest skips it)`);
      // `forgettable`: a conversation id to forget by, not forgotten yet (Forget This Conversation…).
      const parts = [
        'lore.ledgerEntry',
        entry.status === 'harvest-failed' ? 'failed' : '',
        location ? 'exists' : '',
        entry.id && !forgottenAt ? 'forgettable' : '',
      ].filter(Boolean);
      item.contextValue = parts.join('.');
      item.iconPath = new vscode.ThemeIcon(STATUS_ICONS[entry.status] ?? 'circle-outline');
      if (location) item.command = { command: 'vscode.open', title: 'Open Conversation', arguments: [vscode.Uri.file(location)] };
      return item;
    },
  };
}

export class LedgerTreeProvider extends StoreTreeProvider {
  /** `sources` lists this workspace's agent sessions; an empty ledger names them. */
  constructor(
    store: StoreService,
    private readonly sources?: SourcesListing,
    private readonly titles?: SessionTitles,
  ) {
    super(store);
    if (titles) this._register(titles.onDidLearn(() => this.refresh()));
  }

  /** Lists the machine's sessions again (after an import, or when sessions appeared), rather than reusing the last listing. */
  rescanSources(): void {
    this.sources?.forget();
    this.refresh();
  }

  /** Shown once something was harvested (before, the sessions found are the Digest view's welcome to harvest). */
  override async hasContent(): Promise<boolean> {
    return this.store.exists && Object.keys(readLedger(this.store.paths.ledger).entries).length > 0;
  }

  protected roots(): Array<LedgerGroupNode | SpendingNode> | Promise<SourcesHintNode[]> {
    const groups = this.groups();
    // What harvests cost this month leads, once they cost anything (or a cap is set).
    const spending = groups.length > 0 ? spendingNode(this.store.paths) : undefined;
    if (spending) return [spending, ...groups];
    if (groups.length > 0 || !this.sources) return groups;
    // Nothing in the inbox and no sessions found (or no language server): the welcome text says how to bring conversations in.
    const inbox = inboxCount(this.store.paths.inbox);
    return this.sources.get().then((report) => sourcesHintNodes(inbox, report));
  }

  private groups(): LedgerGroupNode[] {
    const ledger = readLedger(this.store.paths.ledger);
    const groups: LedgerGroupNode[] = [];
    for (const status of LEDGER_STATUSES) {
      const entries = Object.entries(ledger.entries)
        .filter(([, e]) => e.status === status)
        .sort(([, a], [, b]) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0))
        .map(([sha, e]) => entryNode(this.store.paths, sha, e, forgottenConversationAt(ledger, e.id, sha), this.titles));
      if (!entries.length) continue;
      groups.push({
        kind: 'group',
        status,
        entries,
        children: () => entries,
        toTreeItem: () => {
          // Failed and unrecognized conversations wait in the inbox for the user: show them open.
          const open = status === 'harvest-failed' || status === 'unrecognized';
          const item = new vscode.TreeItem(
            STATUS_LABELS[status],
            open ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed,
          );
          item.description = String(entries.length);
          item.iconPath = new vscode.ThemeIcon(STATUS_ICONS[status]);
          item.contextValue = 'lore.ledgerGroup';
          return item;
        },
      });
    }
    return groups;
  }
}

/**
 * What an empty Ledger view shows before the first harvest: the conversations waiting in the
 * store's inbox (leading to "Harvest Conversations…"), and the agent sessions of this workspace
 * found on this machine, one line per tool with its counts (from `lore/sources`), leading to
 * "Import Conversations…". When there is neither, the view shows its welcome text, which says
 * where conversations come from.
 */
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { SourcesReport } from '../../core/services/harvest/measureSources';
import { formatTokens } from '../../core/model/format';
import { toolHeading } from '../harvest/importConversations';
import type { TreeNode } from './treeBase';

export interface SourcesHintNode extends TreeNode {
  kind: 'sources-hint';
  /** `inbox`: conversations waiting in the store; `found`: the sessions found, in total; `tool`: one tool's. */
  role: 'inbox' | 'found' | 'tool';
  /** The tool (`claude-code`, …) of a `tool` line. */
  tool?: string;
  label: string;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Files waiting in the inbox (dot files and folders aside), counted without reading them. */
export function inboxCount(inbox: string): number {
  try {
    return fs.readdirSync(inbox, { withFileTypes: true }).filter((e) => e.isFile() && !e.name.startsWith('.')).length;
  } catch {
    return 0;
  }
}

function hintNode(
  role: SourcesHintNode['role'],
  label: string,
  tool: string | undefined,
  build: (item: vscode.TreeItem) => void,
): SourcesHintNode {
  return {
    kind: 'sources-hint',
    role,
    tool,
    label,
    toTreeItem: () => {
      const item = new vscode.TreeItem(label);
      item.contextValue = `lore.sourcesHint.${role}`;
      build(item);
      return item;
    },
  };
}

/** The hint's nodes; none when the inbox is empty and no tool has a session of this workspace. */
export function sourcesHintNodes(inbox: number, report: SourcesReport | null): SourcesHintNode[] {
  const nodes: SourcesHintNode[] = [];
  if (inbox > 0) {
    nodes.push(
      hintNode('inbox', `${plural(inbox, 'conversation')} in the inbox, not harvested yet`, undefined, (item) => {
        item.iconPath = new vscode.ThemeIcon('inbox');
        item.description = 'click to harvest';
        item.tooltip = 'Harvest Conversations… counts what it would read, then distills and shows every change before anything is written.';
        item.command = { command: 'lore.harvest', title: 'Harvest Conversations…' };
      }),
    );
  }
  const tools = (report?.tools ?? []).filter((tool) => tool.items.some((item) => item.matches));
  if (!report || tools.length === 0) return nodes;
  const importCommand: vscode.Command = { command: 'lore.importConversations', title: 'Import Conversations…' };
  const news = report.totals.toHarvest;
  nodes.push(
    hintNode(
      'found',
      `Found ${plural(report.totals.sessions, 'session')} of this workspace on this machine` +
        (news ? `, ${news} new (~${formatTokens(report.totals.estimatedTokens)} tokens)` : ''),
      undefined,
      (item) => {
        item.iconPath = new vscode.ThemeIcon('cloud-download');
        item.description = 'click to import';
        item.tooltip =
          'Import Conversations… lists them per tool; you choose which to harvest, see the dry run, and preview every change before anything is written.';
        item.command = importCommand;
      },
    ),
  );
  for (const tool of tools) {
    nodes.push(
      hintNode('tool', toolHeading(tool), tool.tool, (item) => {
        item.iconPath = new vscode.ThemeIcon(tool.noImporter ? 'question' : 'comment-discussion');
        item.tooltip = `${tool.label} keeps its sessions in ${tool.locations.join(', ')}. Lore reads them and never deletes them.`;
        item.command = importCommand;
      }),
    );
  }
  return nodes;
}

/** How long a listing of the machine's sessions is reused before a view asks the language server again. */
const SOURCES_REUSE_MS = 60_000;

/**
 * This workspace's agent sessions (the language server's `lore/sources`), listed at most once a
 * minute and shared by the views that name them when they are empty (Ledger, Inbox).
 */
export class SourcesListing {
  private listing?: { at: number; report: Promise<SourcesReport | null> };

  constructor(private readonly list: () => Promise<SourcesReport | null>) {}

  /** The last listing while it is recent, else a new one; null when the server could not list them. */
  get(): Promise<SourcesReport | null> {
    if (!this.listing || Date.now() - this.listing.at > SOURCES_REUSE_MS)
      this.listing = { at: Date.now(), report: this.list().catch(() => null) };
    return this.listing.report;
  }

  /** Forgets the last listing (after an import, or when sessions appeared). */
  forget(): void {
    this.listing = undefined;
  }
}

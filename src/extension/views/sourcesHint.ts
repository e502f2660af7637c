/**
 * What an empty Ledger view shows before the first harvest: the agent sessions of this workspace
 * found on this machine, one line per tool with its counts (from `lore/sources`), each leading to
 * "Import Conversations…". When nothing is found the view shows its welcome text instead, which
 * says where to put conversations.
 */
import * as vscode from 'vscode';
import type { SourcesReport } from '../../core/discovery/measureSources';
import { formatTokens } from '../../core/util/format';
import { toolHeading } from '../harvest/importConversations';
import type { TreeNode } from './treeBase';

export interface SourcesHintNode extends TreeNode {
  kind: 'sources-hint';
  /** The tool (`claude-code`, …), or undefined for the heading line. */
  tool?: string;
  label: string;
}

const IMPORT: vscode.Command = { command: 'lore.importConversations', title: 'Import Conversations…' };

/** The hint's nodes, or none when no tool has a session of this workspace. */
export function sourcesHintNodes(report: SourcesReport | null): SourcesHintNode[] {
  const tools = (report?.tools ?? []).filter((tool) => tool.items.some((item) => item.matches));
  if (!report || tools.length === 0) return [];
  const news = report.totals.toHarvest;
  const heading = `Nothing harvested yet. Found ${report.totals.sessions} session${report.totals.sessions === 1 ? '' : 's'} of this workspace` + (news ? `, ${news} new (~${formatTokens(report.totals.estimatedTokens)} tokens)` : '');
  const node = (label: string, tool: string | undefined, build: (item: vscode.TreeItem) => void): SourcesHintNode => ({
    kind: 'sources-hint', tool, label,
    toTreeItem: () => {
      const item = new vscode.TreeItem(label);
      item.command = IMPORT;
      item.contextValue = 'lore.sourcesHint';
      build(item);
      return item;
    },
  });
  return [
    node(heading, undefined, (item) => {
      item.iconPath = new vscode.ThemeIcon('cloud-download');
      item.description = 'click to import';
      item.tooltip = 'Import Conversations… lists them per tool; you choose which to harvest, see the dry run, and preview every change before anything is written.';
    }),
    ...tools.map((tool) => node(toolHeading(tool), tool.tool, (item) => {
      item.iconPath = new vscode.ThemeIcon(tool.noImporter ? 'question' : 'comment-discussion');
      item.tooltip = `${tool.label} keeps its sessions in ${tool.locations.join(', ')}. Lore reads them and never deletes them.`;
    })),
  ];
}

/**
 * The Topics view: each topic of `.lore/topics/` with its activation and priority, its triggers
 * as children, and what the gate log recorded (activations, candidacies, the last one); topic
 * files that do not validate are listed with their problem and open at its line. Empty, it shows
 * its welcome text (New Topic…). The topics' code comes from dist/topicsLibrary.js.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TopicGateStats } from '../../core/services/topics/gateStats';
import type { Topic, TopicProblem, TopicTrigger } from '../../core/services/topics/topicTypes';
import { topicFileNames } from '../../core/services/topics/topicsFolder';
import { topicsLibrary } from '../topics/loadTopicsLibrary';
import { openAtLine, StoreTreeProvider, type TreeNode } from './treeBase';

function triggerLabel(trigger: TopicTrigger): string {
  const what =
    trigger.kind === 'pattern' ? `/${trigger.pattern.source}/` : trigger.kind === 'keywords' ? trigger.keywords.join(', ') : trigger.glob;
  return `${trigger.kind}: ${what}`;
}

function topicNode(root: string, topic: Topic, stats: TopicGateStats | undefined): TreeNode {
  return {
    toTreeItem: () => {
      const item = new vscode.TreeItem(
        topic.name,
        topic.triggers.length ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
      );
      const recent = stats
        ? ` · ${stats.active} of ${stats.decisions} activated${stats.lastAt ? `, last ${stats.lastAt.slice(0, 16).replace('T', ' ')}` : ''}`
        : '';
      item.description = `${topic.activation}, ${topic.priority}${recent}`;
      item.tooltip = [
        topic.description,
        '',
        ...topic.triggers.map(triggerLabel),
        topic.subscriptions.length ? `subscribes to ${topic.subscriptions.join(', ')}` : '',
      ]
        .filter((l, i) => l || i === 1)
        .join('\n');
      item.iconPath = new vscode.ThemeIcon('symbol-event');
      item.contextValue = 'lore.topic';
      item.command = openAtLine(path.join(root, topic.file), 0);
      return item;
    },
    children: () =>
      topic.triggers.map((trigger) => ({
        toTreeItem: () => {
          const item = new vscode.TreeItem(triggerLabel(trigger));
          item.description = trigger.scope;
          item.iconPath = new vscode.ThemeIcon(trigger.scope === 'output' ? 'output' : 'filter');
          return item;
        },
      })),
  };
}

function problemNode(root: string, problem: TopicProblem): TreeNode {
  return {
    toTreeItem: () => {
      const item = new vscode.TreeItem(path.posix.basename(problem.file));
      item.description = `skipped: ${problem.message}`;
      item.tooltip = `${problem.file}${problem.line ? `:${problem.line}` : ''}: ${problem.message}`;
      item.iconPath = new vscode.ThemeIcon('warning');
      item.command = openAtLine(path.join(root, problem.file), Math.max(0, (problem.line ?? 1) - 1));
      return item;
    },
  };
}

export class TopicsTreeProvider extends StoreTreeProvider {
  /** A store without topic files has nothing to show: known without loading the topics' code (at activation). */
  override async hasContent(): Promise<boolean> {
    return this.store.exists && topicFileNames(this.store.paths).length > 0 && super.hasContent();
  }

  protected roots(): TreeNode[] {
    const root = this.store.paths.root;
    const lib = topicsLibrary();
    const { topics, problems } = lib.loadTopics(this.store.paths);
    if (!topics.length && !problems.length) return [];
    const stats = new Map(lib.summarizeGateLog(lib.readGateLog(this.store.paths)).map((s) => [s.topic, s]));
    return [...topics.map((t) => topicNode(root, t, stats.get(t.name))), ...problems.map((p) => problemNode(root, p))];
  }
}

/**
 * The Agent Tasks view (agents' task memory, not tasks.md's open tasks, which the Knowledge and
 * Digest views list): tasks by status (active, blocked, done, failed, abandoned); under a task, its
 * timeline of artifacts (start, checkpoints, runs, evidence, reviews, verifications, decisions,
 * digests, finish); under an artifact, the workspace files and the conversation it links to.
 * The data comes from the language server (lore/tasks, lore/taskTimeline).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { LoreCommands, type OpenProvenanceArgs, type TimelineEntry } from '../../shared/protocol';
import type { TaskListRow } from '../../core/services/tasks/taskRecords';
import { listTaskIds, PROJECT_SCOPE_TASK } from '../../core/services/tasks/taskFiles';
import type { StoreService } from '../storeService';
import type { TasksClient } from '../tasks/tasksClient';
import { StoreTreeProvider, errorNode, type TreeNode } from './treeBase';

/** A node whose children come from the language server. */
interface LazyNode extends TreeNode {
  load(): Promise<TreeNode[]>;
}

const STATUS_ORDER = ['active', 'blocked', 'done', 'failed', 'abandoned'];
const STATUS_ICONS: Record<string, string> = {
  active: 'play-circle',
  blocked: 'debug-pause',
  done: 'pass',
  failed: 'error',
  abandoned: 'circle-slash',
};
const KIND_ICONS: Record<string, string> = {
  task_start: 'rocket',
  task_progress: 'milestone',
  run_start: 'run',
  run_finish: 'debug-stop',
  evidence: 'beaker',
  review: 'comment-discussion',
  revision: 'edit',
  verification: 'verified',
  decision: 'law',
  digest: 'book',
  task_finish: 'flag',
};

export class TasksTreeProvider extends StoreTreeProvider {
  constructor(
    store: StoreService,
    private readonly tasks: TasksClient,
  ) {
    super(store);
  }

  /**
   * Shown once an agent recorded a task with Lore's task tools (a JSONL file under tasks/), read
   * without asking the server. The project's own digests (the `_project` record) are not a task.
   */
  override async hasContent(): Promise<boolean> {
    return this.store.exists && listTaskIds(this.store.paths).some((id) => id !== PROJECT_SCOPE_TASK);
  }

  /** A task's timeline is asked of the server when the task is expanded. */
  override getChildren(node?: TreeNode): TreeNode[] | Promise<TreeNode[]> {
    if (node && 'load' in node) return (node as LazyNode).load().catch((error: unknown) => [errorNode(error)]);
    return super.getChildren(node);
  }

  protected async roots(): Promise<TreeNode[]> {
    const { tasks } = await this.tasks.list();
    const groups = new Map<string, TaskListRow[]>();
    for (const t of tasks) groups.set(t.status, [...(groups.get(t.status) ?? []), t]);
    return STATUS_ORDER.filter((s) => groups.has(s)).map((status) => this.statusNode(status, groups.get(status)!));
  }

  private statusNode(status: string, rows: TaskListRow[]): TreeNode {
    return {
      children: () => rows.map((r) => this.taskNode(r)),
      toTreeItem: () => {
        const item = new vscode.TreeItem(
          status,
          status === 'active' || status === 'blocked'
            ? vscode.TreeItemCollapsibleState.Expanded
            : vscode.TreeItemCollapsibleState.Collapsed,
        );
        item.description = String(rows.length);
        item.iconPath = new vscode.ThemeIcon(STATUS_ICONS[status] ?? 'circle-outline');
        item.contextValue = 'lore.taskStatus';
        return item;
      },
    };
  }

  private taskNode(row: TaskListRow): LazyNode {
    const page = path.join(this.store.paths.root, 'tasks', `${row.task_id}.md`);
    return {
      load: async () => (await this.tasks.timeline(row.task_id)).entries.map((e) => this.entryNode(e, page)),
      toTreeItem: () => {
        const item = new vscode.TreeItem(row.goal ?? row.task_id, vscode.TreeItemCollapsibleState.Collapsed);
        item.description = `${row.task_id} · ${row.artifact_count}`;
        item.tooltip = new vscode.MarkdownString().appendText(
          `${row.goal ?? row.task_id}\n\n${row.summary ?? ''}\n\nupdated ${new Date(row.updated_ms).toISOString().slice(0, 16)} by ${row.agent_id ?? ''}`,
        );
        item.iconPath = new vscode.ThemeIcon('tasklist');
        item.contextValue = 'lore.task';
        item.resourceUri = vscode.Uri.file(page);
        item.command = { command: 'vscode.open', title: 'Open Task', arguments: [vscode.Uri.file(page)] };
        return item;
      },
    };
  }

  private entryNode(entry: TimelineEntry, page: string): TreeNode {
    const links: TreeNode[] = [
      ...entry.files.map((file) =>
        linkNode(file, 'file', {
          command: 'vscode.open',
          title: 'Open File',
          arguments: [vscode.Uri.file(path.resolve(this.store.paths.workspace, file))],
        }),
      ),
      ...(entry.conversation_id
        ? [
            linkNode(entry.conversation_id, 'comment-discussion', {
              command: LoreCommands.openProvenance,
              title: 'Open Conversation',
              arguments: [
                { source: entry.conversation_id, date: entry.created.slice(0, 10), noteFile: page, line: 0 } satisfies OpenProvenanceArgs,
              ],
            }),
          ]
        : []),
    ];
    return {
      children: () => links,
      toTreeItem: () => {
        const item = new vscode.TreeItem(
          entry.held ? `[held] ${entry.title}` : entry.title,
          links.length ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
        );
        item.description = `${entry.artifact_kind}${entry.status ? ` · ${entry.status}` : ''} · ${entry.agent_id} · ${entry.created.slice(0, 16).replace('T', ' ')}`;
        item.tooltip = `${entry.artifact_id}\n${entry.title}${entry.verification_status ? `\n${entry.verification_status}` : ''}${entry.held ? '\nheld: reads as an instruction to an agent; agents do not get its text' : ''}`;
        item.iconPath = new vscode.ThemeIcon(KIND_ICONS[entry.artifact_kind] ?? 'circle-small');
        item.contextValue = `lore.taskArtifact.${entry.artifact_kind}`;
        return item;
      },
    };
  }
}

function linkNode(label: string, icon: string, command: vscode.Command): TreeNode {
  return {
    toTreeItem: () => {
      const item = new vscode.TreeItem(label);
      item.iconPath = new vscode.ThemeIcon(icon);
      item.contextValue = 'lore.taskLink';
      item.command = command;
      return item;
    },
  };
}

/**
 * The Knowledge view: what arrived from teammates with the last pull (until seen), the category
 * files with their item counts, and the per-file notes as the
 * language server's note index lists them (no note file is parsed on the extension host), the
 * stored transcripts, and the archive once lore prune has put items there.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { CATEGORY_FILES, type CategoryFileKey } from '../../core/model/categories';
import { listItems } from '../../core/model/categoryFile';
import { archiveFileOf, knowledgeArchiveDir } from '../../core/store/lifecycle/archivePaths';
import { readTextIfExists } from '../../core/base/readText';
import { personalStorePaths, type StorePaths } from '../../core/store/storePaths';
import { formatBytes } from '../../core/model/format';
import type { LoreServerClient } from '../loreServerClient';
import type { StoreService } from '../storeService';
import { openAtLine, StoreTreeProvider, type TreeNode } from './treeBase';
import { arrivalsNode, type TeammateArrivals } from './teammateArrivals';

export interface KnowledgeFileNode extends TreeNode {
  kind: 'arrivals' | 'category' | 'notes' | 'note' | 'transcripts' | 'archive' | 'personal';
  label: string;
  count: number;
  file?: string;
}

export class KnowledgeTreeProvider extends StoreTreeProvider {
  constructor(
    store: StoreService,
    private readonly notes: LoreServerClient,
    private readonly arrivals?: TeammateArrivals,
  ) {
    super(store);
    // The first answer about notes comes once the server runs.
    this._register(notes.onDidStart(() => this.refresh()));
    if (arrivals) this._register(arrivals.onDidChange(() => this.refresh()));
  }

  /**
   * Knowledge exists once a category file, shared or personal, holds an item (an open task in
   * tasks.md counts) or a file has notes: then this view and the Digest show.
   */
  override async hasContent(): Promise<boolean> {
    if (!this.store.exists) return false;
    const paths = this.store.paths;
    const holdsItem = (root: string) =>
      (Object.keys(CATEGORY_FILES) as CategoryFileKey[]).some(
        (key) => listItems(readTextIfExists(path.join(root, CATEGORY_FILES[key].file)) ?? '').length > 0,
      );
    return holdsItem(paths.root) || holdsItem(personalStorePaths(paths).root) || holdsNoteFile(paths.files);
  }

  protected async roots(): Promise<KnowledgeFileNode[]> {
    const paths = this.store.paths;
    const nodes: KnowledgeFileNode[] = (Object.keys(CATEGORY_FILES) as CategoryFileKey[]).map((key) => {
      const file = path.join(paths.root, CATEGORY_FILES[key].file);
      const count = listItems(readTextIfExists(file) ?? '').length;
      return {
        kind: 'category',
        label: CATEGORY_FILES[key].file,
        count,
        file,
        toTreeItem: () => {
          const item = new vscode.TreeItem(CATEGORY_FILES[key].file);
          item.description = `${count} item${count === 1 ? '' : 's'}`;
          item.tooltip = `${CATEGORY_FILES[key].file}: ${count} item${count === 1 ? '' : 's'}. lore prune --preview shows it against its budget and what went unused.`;
          item.resourceUri = vscode.Uri.file(file);
          item.command = openAtLine(file, 0);
          item.contextValue = 'lore.categoryFile';
          return item;
        },
      };
    });
    const personal = personalNode(paths);
    if (personal) nodes.push(personal);
    // What the last pull brought from teammates comes first, until the person has seen it.
    const arrived = arrivalsNode(this.arrivals?.current);
    if (arrived) nodes.unshift(arrived);
    const answer = await this.notes.noteFiles();
    const listed = answer?.files;
    const noteNodes: KnowledgeFileNode[] = (listed ?? []).map(({ file, path: about, count }) => ({
      kind: 'note',
      label: about || path.basename(file),
      count,
      file,
      toTreeItem: () => {
        // A note file is named by device and inode (files/65024-2525519.md); a person knows the
        // file it is about, so that path is what the label, tooltip and screen reader say.
        const aboutText = about || `an unknown file (${path.basename(file)})`;
        const notes = `${count} note${count === 1 ? '' : 's'}`;
        const item = new vscode.TreeItem(aboutText);
        item.description = notes;
        item.iconPath = new vscode.ThemeIcon('note');
        item.tooltip = `${notes} on ${aboutText}\n\nStored in files/${path.basename(file)}.`;
        item.accessibilityInformation = { label: `${notes} on ${aboutText}` };
        item.command = openAtLine(file, 0);
        item.contextValue = 'lore.noteFile';
        return item;
      },
    }));
    const total = noteNodes.reduce((n, node) => n + node.count, 0);
    nodes.push({
      kind: 'notes',
      label: 'files/',
      count: total,
      children: () => noteNodes,
      toTreeItem: () => {
        const item = new vscode.TreeItem(
          'Per-file notes',
          noteNodes.length ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
        );
        item.description = listed
          ? `${noteNodes.length} file${noteNodes.length === 1 ? '' : 's'}, ${total} note${total === 1 ? '' : 's'}`
          : 'the language server is not running';
        item.iconPath = new vscode.ThemeIcon('files');
        return item;
      },
    });
    if (answer?.transcripts) nodes.push(transcriptsNode(paths.transcripts, answer.transcripts));
    const archived = archiveNode(paths);
    if (archived) nodes.push(archived);
    return nodes;
  }
}

/** True when the store's files/ folder holds a note file (listed without reading any). */
function holdsNoteFile(folder: string): boolean {
  try {
    return fs.readdirSync(folder).some((name) => name.endsWith('.md'));
  } catch {
    return false;
  }
}

/**
 * "Personal": the person's own layer (.lore/personal/, git-ignored), its category files with their
 * counts, shown apart from the shared files so it is plain what the team's history never holds.
 */
function personalNode(paths: StorePaths): KnowledgeFileNode | undefined {
  const personal = personalStorePaths(paths);
  if (!fs.existsSync(personal.root)) return undefined;
  const files: KnowledgeFileNode[] = (Object.keys(CATEGORY_FILES) as CategoryFileKey[]).flatMap((key) => {
    const name = CATEGORY_FILES[key].file;
    const file = path.join(personal.root, name);
    const count = listItems(readTextIfExists(file) ?? '').length;
    if (count === 0) return [];
    return [
      {
        kind: 'category' as const,
        label: `personal/${name}`,
        count,
        file,
        toTreeItem: () => {
          const item = new vscode.TreeItem(name);
          item.description = `${count} item${count === 1 ? '' : 's'}`;
          item.tooltip = `personal/${name}: ${count} item${count === 1 ? '' : 's'}, yours only: your agents get them, git never sees them.`;
          item.resourceUri = vscode.Uri.file(file);
          item.command = openAtLine(file, 0);
          item.contextValue = 'lore.personalCategoryFile';
          return item;
        },
      },
    ];
  });
  const count = files.reduce((n, node) => n + node.count, 0);
  return {
    kind: 'personal',
    label: 'personal/',
    count,
    children: () => files,
    toTreeItem: () => {
      const item = new vscode.TreeItem(
        'Personal',
        files.length ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
      );
      item.description = `${count} item${count === 1 ? '' : 's'}, not shared`;
      item.iconPath = new vscode.ThemeIcon('person');
      item.tooltip = `${personal.root}: your personal layer, git-ignored. Your agents get it after the shared knowledge; digest.md and every committed file hold only shared knowledge. Move to Shared gives an item to the team.`;
      item.contextValue = 'lore.personal';
      return item;
    },
  };
}

/** "Archive": the items lore prune or a reconstruction's diff moved out of the category files, when there are any. */
function archiveNode(paths: StorePaths): KnowledgeFileNode | undefined {
  const files = (Object.keys(CATEGORY_FILES) as CategoryFileKey[]).map((key) => archiveFileOf(paths, key));
  const count = files.reduce((n, file) => n + listItems(readTextIfExists(file) ?? '').length, 0);
  if (count === 0) return undefined;
  const folder = knowledgeArchiveDir(paths);
  return {
    kind: 'archive',
    label: 'archive/knowledge/',
    count,
    toTreeItem: () => {
      const item = new vscode.TreeItem('Archive');
      item.description = `${count} item${count === 1 ? '' : 's'}`;
      item.iconPath = new vscode.ThemeIcon('archive');
      item.tooltip = `${folder}: items that went unused (lore prune) or that a reconstruction replaced; never in the digest or an agent's context. lore search --archived finds them, lore prune --restore ID brings one back.`;
      item.command = { title: 'Reveal Archive', command: 'revealInExplorer', arguments: [vscode.Uri.file(folder)] };
      item.contextValue = 'lore.archive';
      return item;
    },
  };
}

/** "Transcripts": what the store keeps of its harvested conversations, how many and how large; opens the folder. */
function transcriptsNode(folder: string, stats: { count: number; bytes: number }): KnowledgeFileNode {
  return {
    kind: 'transcripts',
    label: 'transcripts/',
    count: stats.count,
    toTreeItem: () => {
      const item = new vscode.TreeItem('Transcripts');
      item.description = `${stats.count} conversation${stats.count === 1 ? '' : 's'}, ${formatBytes(stats.bytes)}`;
      item.iconPath = new vscode.ThemeIcon('comment-discussion');
      item.tooltip = `${folder}: the rendered, redacted transcripts of harvested conversations, where provenance links lead`;
      if (stats.count) item.command = { title: 'Reveal Transcripts', command: 'revealInExplorer', arguments: [vscode.Uri.file(folder)] };
      item.contextValue = 'lore.transcripts';
      return item;
    },
  };
}

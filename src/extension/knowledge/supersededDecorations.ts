/**
 * Superseded items shown for what they are in the store's own markdown: the item's text struck
 * through and dimmed, its `[superseded by ID, date]` marker left readable, and a hover that says
 * what superseded it with a link to the newer line (Lore's reveal-by-id command, the only command
 * the hover may run). Computed on the client from the document text (cheap: a line without `[`
 * costs nothing), refreshed as the person types.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { supersededLines, type SupersededLine } from './supersededLines';
import { isInside } from '../../core/store/storePaths';
import { LoreCommands, commandUri } from '../../shared/protocol';
import { Disposable } from '../lifecycle';
import type { StoreService } from '../storeService';

/** Whether a document is one of the store's category or note files. */
function isStoreMarkdown(store: StoreService, document: vscode.TextDocument): boolean {
  if (!store.available || document.uri.scheme !== 'file' || !document.fileName.endsWith('.md')) return false;
  const file = path.resolve(document.fileName);
  const dir = path.dirname(file);
  return isInside(store.paths.root, file) && (dir === store.paths.root || dir === store.paths.files) && file !== store.paths.digest;
}

export class SupersededDecorations extends Disposable {
  private readonly struck = this._register(
    vscode.window.createTextEditorDecorationType({
      textDecoration: 'line-through',
      opacity: '0.6',
    }),
  );

  /** What was drawn last, per document URI (for tests and the API: decorations cannot be read back). */
  private readonly drawn = new Map<string, SupersededLine[]>();

  constructor(private readonly store: StoreService) {
    super();
    this._register(vscode.window.onDidChangeVisibleTextEditors(() => this.refreshAll()));
    this._register(
      vscode.workspace.onDidChangeTextDocument((e) => {
        for (const editor of vscode.window.visibleTextEditors) if (editor.document === e.document) this.refresh(editor);
      }),
    );
    this.refreshAll();
  }

  private refreshAll(): void {
    for (const editor of vscode.window.visibleTextEditors) this.refresh(editor);
  }

  private refresh(editor: vscode.TextEditor): void {
    if (!isStoreMarkdown(this.store, editor.document)) return;
    const lines = supersededLines(editor.document.getText());
    this.drawn.set(editor.document.uri.toString(), lines);
    const options: vscode.DecorationOptions[] = lines.map((s) => {
      const hover = new vscode.MarkdownString(
        `**Superseded** by item [\`${s.by}\`](${commandUri(LoreCommands.revealItemById, { id: s.by })})${s.date ? ` on ${s.date}` : ''}: ` +
          'left out of the digest, the context and default search. Delete the marker to bring it back.',
      );
      hover.isTrusted = { enabledCommands: [LoreCommands.revealItemById] };
      return { range: new vscode.Range(s.line, s.start, s.line, s.end), hoverMessage: hover };
    });
    editor.setDecorations(this.struck, options);
  }

  /** The superseded lines last struck through in a document. */
  struckLines(uri: vscode.Uri): readonly SupersededLine[] {
    return this.drawn.get(uri.toString()) ?? [];
  }
}

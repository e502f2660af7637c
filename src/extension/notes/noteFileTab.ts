/**
 * Tab titles for note files. A note file is named by device and inode (files/65024-2525519.md),
 * which tells a person nothing; `vscode.open` takes a label for the editor, so wherever Lore opens
 * a note file the tab says which file the notes are about: `Notes: src/orders.ts`.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { readTextIfExists } from '../../core/store/atomicWrite';
import { parseNoteFile } from '../../core/store/noteFile';

/** The tab title of the notes about `notedPath` (workspace-relative). */
export function noteFileTitle(notedPath: string): string {
  return `Notes: ${notedPath.replace(/[\r\n]+/g, ' ')}`;
}

/** The tab title for a note file in `filesDir` (read from its frontmatter); undefined for any other file. */
export function noteTabTitle(file: string, filesDir: string): string | undefined {
  if (path.dirname(path.resolve(file)) !== path.resolve(filesDir)) return undefined;
  const notedPath = parseNoteFile(readTextIfExists(file) ?? '').meta.path;
  return notedPath ? noteFileTitle(notedPath) : undefined;
}

/** Opens a file at a 0-based line as a preview; a note file's tab is titled with the file it is about. */
export async function openFileAt(file: string, line: number, filesDir: string): Promise<void> {
  const options: vscode.TextDocumentShowOptions = { selection: new vscode.Range(line, 0, line, 0), preview: true };
  const title = noteTabTitle(file, filesDir);
  if (title) await vscode.commands.executeCommand('vscode.open', vscode.Uri.file(file), options, title);
  else await vscode.window.showTextDocument(vscode.Uri.file(file), options);
}

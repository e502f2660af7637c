/**
 * Documents open in the editor with unsaved changes, as the server sees them (the client syncs
 * every open file's text). Lore never writes a file under such a document (issue 26: a document
 * that is open and dirty is changed through the editor): the edit goes into the person's buffer
 * with `workspace/applyEdit`, on top of what they typed, and saving stays theirs.
 */
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Connection, TextDocuments } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { readStoreFile } from '../core/base/readText';

export interface OpenDocuments {
  /** The open document of `file` when its text is not what the file holds (unsaved changes). */
  dirty(file: string): TextDocument | undefined;
  /** Replaces the document's text by `edit(text)` through the editor; false when nothing changed or the editor refused. */
  edit(document: TextDocument, edit: (text: string) => string | undefined): Promise<boolean>;
}

/** File-system path of a `file:` URI; undefined for untitled, virtual and malformed URIs. */
export function pathOf(uri: string): string | undefined {
  if (!uri.startsWith('file:')) return undefined;
  try {
    return path.resolve(fileURLToPath(uri));
  } catch {
    return undefined;
  }
}

/** VS Code's documents hold the text without a byte order mark. */
function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

export function openDocuments(connection: Connection, documents: TextDocuments<TextDocument>): OpenDocuments {
  return {
    dirty(file) {
      const wanted = path.resolve(file);
      const document = documents.all().find((d) => pathOf(d.uri) === wanted);
      if (!document) return undefined;
      let onDisk: string | undefined;
      try {
        onDisk = withoutBom(readStoreFile(wanted, 'utf8'));
      } catch {
        onDisk = undefined;
      }
      return onDisk === document.getText() ? undefined : document;
    },
    async edit(document, edit) {
      const before = document.getText();
      const after = edit(before);
      if (after === undefined || after === before) return false;
      const range = { start: document.positionAt(0), end: document.positionAt(before.length) };
      const result = await connection.workspace.applyEdit({
        label: 'Lore',
        edit: { changes: { [document.uri]: [{ range, newText: after }] } },
      });
      return result.applied;
    },
  };
}

/**
 * Per-file note commands: Add Note to This File, Edit Notes for This File, Show Notes for This
 * File, and the commands the server's lenses, hovers and links invoke (open provenance, open
 * note file, edit, delete, mark still valid).
 */
import * as vscode from 'vscode';
import { provenanceTarget } from '../../core/store/items/provenanceTarget';
import {
  AddNoteRequest,
  DeleteNoteRequest,
  LoreCommands,
  MarkNotesValidRequest,
  type DeleteNoteArgs,
  type EditNotesArgs,
  type MarkNotesValidArgs,
  type OpenNoteFileArgs,
  type OpenProvenanceArgs,
} from '../../shared/protocol';
import { runCommand } from '../log';
import type { StoreService } from '../storeService';
import type { LoreServerClient } from '../loreServerClient';

async function openAt(file: string, line: number): Promise<void> {
  const range = new vscode.Range(line, 0, line, 0);
  await vscode.window.showTextDocument(vscode.Uri.file(file), { selection: range, preview: true });
}

function currentFile(uri?: vscode.Uri): vscode.Uri | undefined {
  const target = uri ?? vscode.window.activeTextEditor?.document.uri;
  return target?.scheme === 'file' ? target : undefined;
}

/**
 * Adds a note with `[from: manual, today]` to a workspace file (creating the store if needed):
 * the language server writes it (redacted, under the store lock, journaled for the day, or into the
 * note file's editor when that is open with unsaved changes); returns the note file. The API
 * behind Add Note to This File.
 */
export async function addManualNote(store: StoreService, file: vscode.Uri, text: string): Promise<string> {
  if (!store.exists) await vscode.commands.executeCommand('lore.initStore');
  if (!text.trim()) throw new Error('the note text is empty');
  const added = await store.request(AddNoteRequest, { path: file.fsPath, text });
  // The note went into the editor, on top of what the person typed: saving stays theirs.
  if (added.where === 'document')
    void vscode.window.setStatusBarMessage('Lore: note added in the open editor (unsaved: save the file to keep it)', 8000);
  return added.noteFile;
}

export function registerNoteCommands(store: StoreService, notes: LoreServerClient): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(LoreCommands.openProvenance, (args: OpenProvenanceArgs) =>
      runCommand('Open Provenance', async () => {
        if (args.source === 'manual') return openAt(args.noteFile, args.line);
        const noteText = (await vscode.workspace.openTextDocument(args.noteFile)).lineAt(Math.max(0, args.line)).text;
        const target = provenanceTarget(store.paths, args.source, noteText);
        if (target.kind === 'missing') {
          void vscode.window.showInformationMessage(
            `Lore: conversation "${args.source}" (${args.date}) is no longer available and has no ledger entry.`,
          );
          return;
        }
        if (target.kind === 'ledger')
          void vscode.window.setStatusBarMessage(
            `Lore: "${args.source}" was removed from the inbox after its harvest; showing its ledger entry`,
            5000,
          );
        await openAt(target.file, target.line);
      }),
    ),
    vscode.commands.registerCommand(LoreCommands.openNoteFile, (args: OpenNoteFileArgs) =>
      runCommand('Open Note File', () => openAt(args.noteFile, args.line ?? 0)),
    ),
    vscode.commands.registerCommand(LoreCommands.editNotes, (args: EditNotesArgs) =>
      runCommand('Edit Notes', async () => {
        const document = await vscode.workspace.openTextDocument(args.noteFile);
        await openAt(args.noteFile, document.lineCount - 1);
      }),
    ),
    vscode.commands.registerCommand(LoreCommands.deleteNote, (args: DeleteNoteArgs) =>
      runCommand('Delete Note', async () => {
        const ok = await vscode.window.showWarningMessage(`Delete this note?\n\n${args.raw}`, { modal: true }, 'Delete');
        if (ok !== 'Delete') return;
        const client = await notes.ready();
        const result = await client?.sendRequest(DeleteNoteRequest.type, args);
        if (!result?.deleted)
          void vscode.window.showWarningMessage('Lore: the note changed on disk and was not deleted; open the note file to edit it.');
      }),
    ),
    vscode.commands.registerCommand(LoreCommands.markNotesValid, (args: MarkNotesValidArgs) =>
      runCommand('Mark Notes Valid', async () => {
        const client = await notes.ready();
        await client?.sendRequest(MarkNotesValidRequest.type, args);
      }),
    ),
    // The note text always comes from the person (the input box): the command takes only the file.
    vscode.commands.registerCommand('lore.addNote', (uri?: vscode.Uri) =>
      runCommand('Add Note to This File', async () => {
        const file = currentFile(uri);
        if (!file) throw new Error('open a file of the workspace first');
        const relative = vscode.workspace.asRelativePath(file);
        const note = await vscode.window.showInputBox({
          title: `Lore: note on ${relative}`,
          prompt: 'Saved with [from: manual, today] provenance',
          ignoreFocusOut: true,
        });
        if (!note?.trim()) return undefined;
        return addManualNote(store, file, note);
      }),
    ),
    vscode.commands.registerCommand('lore.editNotesForFile', (uri?: vscode.Uri) =>
      runCommand('Edit Notes for This File', async () => {
        const file = currentFile(uri);
        if (!file) return;
        const found = await notes.notesForFile(file.fsPath);
        if (!found) return vscode.commands.executeCommand('lore.addNote', file);
        const document = await vscode.workspace.openTextDocument(found.noteFile);
        await openAt(found.noteFile, document.lineCount - 1);
      }),
    ),
    vscode.commands.registerCommand('lore.showNotes', (uri?: vscode.Uri) =>
      runCommand('Show Notes for This File', async () => {
        const file = currentFile(uri);
        if (!file) return;
        const found = await notes.notesForFile(file.fsPath);
        if (!found?.notes.length) {
          void vscode.window
            .showInformationMessage(`Lore: no notes for ${vscode.workspace.asRelativePath(file)}.`, 'Add Note')
            .then((c) => c && vscode.commands.executeCommand('lore.addNote', file));
          return found;
        }
        const pick = await vscode.window.showQuickPick(
          found.notes.map((n) => ({
            label: n.text,
            description: n.provenance ? `from ${n.provenance.source}, ${n.provenance.date}` : 'no provenance',
            note: n,
          })),
          { title: `Lore notes: ${found.recordedPath}` },
        );
        if (pick?.note.provenance)
          await vscode.commands.executeCommand(LoreCommands.openProvenance, {
            ...pick.note.provenance,
            noteFile: pick.note.noteFile,
            line: pick.note.line,
          });
        else if (pick) await openAt(pick.note.noteFile, pick.note.line);
        return found;
      }),
    ),
  ];
}

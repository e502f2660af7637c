import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LoreApi } from '../../../src/extension/extension';

let lastSeen = '';

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, ms = 15000): Promise<T> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 200));
  }
  return assert.fail(`timed out waiting for: ${what} (last seen: ${lastSeen})`);
}

function lensTitles(lenses: vscode.CodeLens[] | undefined): string[] {
  const titles = (lenses ?? []).map((l) => l.command?.title ?? '');
  lastSeen = JSON.stringify(titles);
  return titles;
}

describe('Lore per-file notes in VS Code', function () {
  this.timeout(60_000);
  let lore: LoreApi;
  let file: vscode.Uri;

  before(async () => {
    lore = await vscode.extensions.getExtension<LoreApi>('lore-dev.lore')!.activate();
    if (!lore.store.exists) await vscode.commands.executeCommand('lore.initStore');
    const source = path.join(lore.store.paths.workspace, 'src', 'noted.ts');
    fs.mkdirSync(path.dirname(source), { recursive: true });
    fs.writeFileSync(source, 'export const noted = true;\n');
    file = vscode.Uri.file(source);
    await vscode.window.showTextDocument(file);
    await lore.notes.ready();
  });

  it('Add Note to This File shows up as a code lens with provenance and in the hover, escaped', async () => {
    const noteFile = await lore.addNote(file, 'Keep this flag exported [click](command:workbench.action.quit) <img src=x>');
    assert.ok(noteFile && fs.existsSync(noteFile), 'note file written');
    const lenses = await until('the notes lens', async () => {
      const found = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', file, 10);
      return lensTitles(found).some((t) => /Lore: 1 note/.test(t)) ? found : undefined;
    });
    const today = new Date().toISOString().slice(0, 10);
    assert.ok(
      lensTitles(lenses).some((t) => t.includes(`from manual, ${today}`)),
      lensTitles(lenses).join(' | '),
    );

    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', file, new vscode.Position(0, 3));
    const text = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : (c as vscode.MarkdownString).value))).join('\n');
    assert.match(text, /Keep this flag exported/);
    assert.ok(!text.includes('](command:workbench.action.quit)'), 'no foreign command link');
    assert.ok(!/<img/i.test(text), 'no raw html');

    // The Knowledge view lists the note file as the language server's index knows it.
    type Listed = { file?: string; count: number; toTreeItem(): vscode.TreeItem };
    const listed = await until('the Knowledge view lists the note file', async () => {
      const roots = (await lore.views.knowledge.getChildren()) as unknown as Array<{ kind: string; children?: () => Listed[] }>;
      return (roots.find((n) => n.kind === 'notes')?.children?.() ?? []).find((n) => n.file === noteFile && n.count === 1);
    });
    // Named by the file it is about, for eyes and screen readers, not by device and inode.
    const item = listed.toTreeItem();
    assert.equal(item.label, 'src/noted.ts');
    assert.equal(item.accessibilityInformation?.label, '1 note on src/noted.ts');
  });

  it('saving a noted file updates the lens in the editor without switching tabs', async () => {
    // Only the explicit save below may write the file (an auto-save would race the typing check).
    await vscode.workspace.getConfiguration('files').update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    const saved = vscode.Uri.file(path.join(lore.store.paths.workspace, 'src', 'saved.ts'));
    fs.writeFileSync(saved.fsPath, 'export const saved = 1;\n');
    const editor = await vscode.window.showTextDocument(saved);
    // What VS Code itself resolved for the open editor (no vscode.executeCodeLensProvider here:
    // asking anew would hide a missing refresh).
    const shown: string[] = [];
    const listener = lore.notes.onDidResolveCodeLens((e) => {
      if (e.uri === saved.toString()) shown.push(e.title);
    });
    try {
      const seen = (since: number, title: RegExp) => {
        lastSeen = JSON.stringify(shown.slice(since));
        return shown.slice(since).some((t) => title.test(t)) || undefined;
      };
      await lore.addNote(saved, 'Saved files keep their lens current');
      await until('the editor shows the note lens', () => seen(0, /^Lore: 1 note$/));
      // Typing: VS Code asks again on its own, and the file on disk has not changed yet.
      let mark = shown.length;
      assert.ok(await editor.edit((b) => b.insert(new vscode.Position(1, 0), 'export const more = 2;\n')));
      await until('the lens after typing', () => seen(mark, /^Lore: 1 note$/));
      mark = shown.length;
      await editor.document.save();
      await until('the edit on disk', () => fs.readFileSync(saved.fsPath, 'utf8').includes('more = 2') || undefined);
      await until('the lens after the save, in the same tab', () => seen(mark, /^Lore: 1 note \(file changed/));
      assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), saved.toString(), 'the tab never changed');
    } finally {
      listener.dispose();
      await vscode.workspace.getConfiguration('files').update('autoSave', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('a hand edit of the note file updates the lens', async () => {
    const found = await lore.notes.notesForFile(file.fsPath);
    assert.ok(found?.noteFile);
    fs.appendFileSync(found.noteFile, '- A second note typed by hand. [from: handwritten, 2026-11-01]\n');
    await until('the lens counts two notes', async () => {
      const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', file, 10);
      return lensTitles(lenses).some((t) => /Lore: 2 notes/.test(t)) || undefined;
    });
  });

  it('notes follow a rename made in VS Code', async () => {
    const renamed = vscode.Uri.file(file.fsPath.replace('noted.ts', 'renamed.ts'));
    const edit = new vscode.WorkspaceEdit();
    edit.renameFile(file, renamed);
    assert.ok(await vscode.workspace.applyEdit(edit));
    await vscode.window.showTextDocument(renamed);
    await until('the lens on the renamed file', async () => {
      const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', renamed, 10);
      return lensTitles(lenses).some((t) => /Lore: 2 notes/.test(t)) || undefined;
    });
    const meta = fs.readFileSync((await lore.notes.notesForFile(renamed.fsPath))!.noteFile, 'utf8');
    assert.match(meta, /path: "src\/renamed\.ts"/);
  });

  it('deleting a noted file in VS Code moves its notes to facts.md', async () => {
    const doomed = vscode.Uri.file(path.join(lore.store.paths.workspace, 'src', 'doomed.ts'));
    fs.writeFileSync(doomed.fsPath, 'export {};\n');
    await lore.addNote(doomed, 'Remember why doomed.ts existed');
    const edit = new vscode.WorkspaceEdit();
    edit.deleteFile(doomed);
    assert.ok(await vscode.workspace.applyEdit(edit));
    const facts = path.join(lore.store.paths.root, 'facts.md');
    await until(
      'the note in facts.md',
      () => fs.readFileSync(facts, 'utf8').includes('- src/doomed.ts: Remember why doomed.ts existed [from: manual, ') || undefined,
    );
  });
});

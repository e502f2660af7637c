import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { noteIdForPath, parseNoteFile } from '../../src/core/model/noteFile';
import { ensureStoreLayout } from '../../src/core/store/initStore';
import { storePaths } from '../../src/core/store/storePaths';
import { FileDecorationsRequest, MigrateNotesRequest, NotesForFileRequest, type FileNotes } from '../../src/shared/protocol';
import { gitIn, initRepo } from '../helpers/gitRepo';
import { makeTempDir } from '../helpers/paths';
import { LspTestClient } from './lspClient';
import { makeWorkspace } from './serverFixtures';

describe('language server: portable note identity (LSP over stdio)', function () {
  it('starting in a fresh clone and showing its notes leaves git status clean', async () => {
    const w = makeWorkspace();
    ensureStoreLayout(w.paths);
    const app = w.write('src/app.ts', 'export const app = 1;\n');
    w.note('src/app.ts', ['- Uses ephemeral cache blocks [from: conv-1, 2026-11-20]']);
    initRepo(w.ws);
    const ws = path.join(fs.realpathSync(makeTempDir('lore-clone-')), 'ws');
    gitIn(path.dirname(ws), 'clone', '-q', w.ws, ws);
    const paths = storePaths(path.join(ws, '.lore'), ws);
    const client = await LspTestClient.start({ storeRoot: paths.root, workspaceRoot: ws });
    try {
      const file = path.join(ws, 'src', 'app.ts');
      const uri = await client.open(file);
      assert.deepEqual((await client.lensTitles(uri))[0], 'Lore: 1 note');
      assert.ok(await client.hover(uri));
      const notes = (await client.connection.sendRequest(NotesForFileRequest.type, { path: file })) as FileNotes;
      assert.equal(notes.recordedPath, 'src/app.ts');
      assert.deepEqual((await client.connection.sendRequest(FileDecorationsRequest.type, { paths: [file] })).counts, { [file]: 1 });
      assert.equal(path.basename(notes.noteFile), `${noteIdForPath('src/app.ts')}.md`);
    } finally {
      await client.stop();
    }
    assert.equal(gitIn(ws, 'status', '--porcelain', '--untracked-files=all'), '');
    assert.ok(fs.existsSync(app));
  });

  it('previews, then applies, the rename of an older Lore\u2019s device-inode note files', async () => {
    const w = makeWorkspace();
    const legacy = w.write('src/legacy.ts', 'export const legacy = 1;\n');
    const oldName = path.join(w.paths.files, '2049-1234.md');
    fs.writeFileSync(
      oldName,
      '---\npath: "src/legacy.ts"\nfile_id: "2049:1234"\nsize: 25\nfingerprint: ""\n---\n# src/legacy.ts\n\n- An old note [from: conv-1, 2026-11-20]\n',
    );
    const client = await w.start();
    try {
      const uri = await client.open(legacy);
      assert.equal((await client.lensTitles(uri))[0], 'Lore: 1 note', 'an older note file is read as it is');
      const preview = await client.connection.sendRequest(MigrateNotesRequest.type, { apply: false });
      const newName = `${noteIdForPath('src/legacy.ts')}.md`;
      assert.deepEqual(preview, { renames: [{ from: '2049-1234.md', to: newName, path: 'src/legacy.ts' }] });
      assert.ok(fs.existsSync(oldName), 'a preview renames nothing');

      const applied = await client.connection.sendRequest(MigrateNotesRequest.type, { apply: true });
      assert.deepEqual(applied, preview);
      assert.ok(!fs.existsSync(oldName));
      const note = parseNoteFile(fs.readFileSync(path.join(w.paths.files, newName), 'utf8'));
      assert.equal(note.meta.id, newName.replace(/\.md$/, ''));
      assert.deepEqual(
        note.notes.map((n) => n.raw),
        ['- An old note [from: conv-1, 2026-11-20]'],
      );
      const found = (await client.connection.sendRequest(NotesForFileRequest.type, { path: legacy })) as FileNotes;
      assert.equal(path.basename(found.noteFile), newName, 'the server follows the renamed note file');
      assert.deepEqual(await client.connection.sendRequest(MigrateNotesRequest.type, { apply: false }), { renames: [] });
    } finally {
      await client.stop();
    }
  });
});

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { noteFileNameOf, noteIdForPath, parseNoteFile } from '../../src/core/model/noteFile';
import {
  DeleteNoteRequest,
  DidDeleteFilesRequest,
  FileDecorationsRequest,
  LoreCommands,
  NotesChangedNotification,
  NoteFilesRequest,
  NotesForFileRequest,
  type FileNotes,
  type OpenProvenanceArgs,
} from '../../src/shared/protocol';
import { uriOf, type LspTestClient } from './lspClient';
import { eventually, makeWorkspace, type TestWorkspace } from './serverFixtures';
import type { ParamsOf } from '../../src/shared/declareMessage';

const APP = 'export const app = 1;\nexport function run() {\n  return app;\n}\n';

describe('language server: per-file notes (LSP over stdio)', function () {
  let w: TestWorkspace;
  let client: LspTestClient;
  let app: string;

  beforeEach(async () => {
    w = makeWorkspace();
    app = w.write('src/app.ts', APP);
    w.note('src/app.ts', [
      '- Uses ephemeral cache blocks [from: conv-1, 2026-11-20]',
      '- run() is the entry point [from: conv-2, 2026-11-21]',
      '- Second note of conv-1 [from: conv-1, 2026-11-20]',
    ]);
    client = await w.start();
  });

  afterEach(async () => {
    await client.stop();
  });

  it('gives a summary lens and one provenance lens per conversation, resolved with Lore commands', async () => {
    const uri = await client.open(app);
    const lenses = await client.lenses(uri);
    assert.deepEqual(
      lenses.map((l) => l.command?.title),
      ['Lore: 3 notes', 'from conv-1, 2026-11-20 (2 notes)', 'from conv-2, 2026-11-21'],
    );
    assert.ok(lenses.every((l) => l.range.start.line === 0));
    assert.equal(lenses[0].command?.command, LoreCommands.openNoteFile);
    const args = lenses[2].command?.arguments?.[0] as OpenProvenanceArgs;
    assert.equal(lenses[2].command?.command, LoreCommands.openProvenance);
    assert.equal(args.source, 'conv-2');
    assert.equal(args.date, '2026-11-21');
    const noteLines = fs.readFileSync(args.noteFile, 'utf8').split('\n');
    assert.equal(noteLines[args.line], '- run() is the entry point [from: conv-2, 2026-11-21]', 'line points into the note file');
  });

  it('hovers on the first line only, listing the notes with Lore command links', async () => {
    const uri = await client.open(app);
    const hover = await client.hover(uri, 0, 3);
    const value = (hover?.contents as { value: string }).value;
    assert.match(value, /3 notes on src\/app\\\.ts/);
    assert.match(value, /Uses ephemeral cache blocks/);
    assert.match(value, /\]\(command:lore\.openProvenance\?/);
    assert.match(value, /\]\(command:lore\.deleteNote\?/);
    assert.equal(await client.hover(uri, 1, 0), null);
  });

  it('shows every source of a merged note: a lens per conversation, and a Conversation link per source in the hover', async () => {
    const merged = w.write('src/merged.ts', 'export const merged = 2;\n');
    const line = '- the cache key is the prompt prefix [from: conv-1, 2026-11-20; conv-3, 2026-11-24]';
    const since = Date.now();
    w.note('src/merged.ts', [line]);
    await client.waitFor<ParamsOf<typeof NotesChangedNotification>>(
      NotesChangedNotification.method,
      (p) => p.uris.includes(uriOf(merged)),
      5000,
      since,
    );
    const uri = await client.open(merged);
    await eventually(async () => ((await client.lensTitles(uri))[0] === 'Lore: 1 note' ? true : undefined), 5000, 'the merged note');
    const lenses = await client.lenses(uri);
    assert.deepEqual(
      lenses.map((l) => l.command?.title),
      ['Lore: 1 note', 'from conv-1, 2026-11-20', 'from conv-3, 2026-11-24'],
    );
    const lensArgs = lenses.slice(1).map((l) => l.command?.arguments?.[0] as OpenProvenanceArgs);
    for (const args of lensArgs)
      assert.equal(fs.readFileSync(args.noteFile, 'utf8').split('\n')[args.line], line, 'each lens opens from the merged line');

    const value = ((await client.hover(uri, 0, 3))?.contents as { value: string }).value;
    assert.match(value, /from conv\\-1, 2026\\-11\\-20; conv\\-3, 2026\\-11\\-24/);
    const opened = [...value.matchAll(/\[(Conversation[^\]]*)\]\(command:lore\.openProvenance\?([^)]*)\)/g)].map((m) => ({
      label: m[1],
      args: (JSON.parse(decodeURIComponent(m[2])) as OpenProvenanceArgs[])[0],
    }));
    assert.deepEqual(
      opened.map((o) => [o.label, o.args.source, o.args.date]),
      [
        ['Conversation conv\\-1', 'conv-1', '2026-11-20'],
        ['Conversation conv\\-3', 'conv-3', '2026-11-24'],
      ],
    );
    assert.equal(fs.readFileSync(opened[1].args.noteFile, 'utf8').split('\n')[opened[1].args.line], line);
  });

  it('answers lore/notesForFile, lore/fileDecorations and lore/noteFiles', async () => {
    const other = w.write('src/other.ts', 'x\n');
    const notes = (await client.connection.sendRequest(NotesForFileRequest.type, { path: app })) as FileNotes;
    assert.equal(notes.via, 'inode');
    assert.equal(notes.recordedPath, 'src/app.ts');
    assert.deepEqual(
      notes.notes.map((n) => n.text),
      ['Uses ephemeral cache blocks', 'run() is the entry point', 'Second note of conv-1'],
    );
    assert.deepEqual(notes.notes[1].provenance, { source: 'conv-2', date: '2026-11-21' });
    assert.equal(notes.staleness.state, 'unchanged');
    assert.equal(await client.connection.sendRequest(NotesForFileRequest.type, { path: other }), null);
    const decorations = await client.connection.sendRequest(FileDecorationsRequest.type, {
      paths: [app, other, path.join(w.ws, 'missing.ts')],
    });
    assert.deepEqual(decorations.counts, { [app]: 3 });
    const listed = await client.connection.sendRequest(NoteFilesRequest.type, {});
    assert.deepEqual(
      listed.files.map((f) => [f.path, f.count, path.dirname(f.file)]),
      [['src/app.ts', 3, w.paths.files]],
    );
    // The Knowledge view's "Transcripts" entry: the store's transcripts/, counted on the server.
    assert.deepEqual(listed.transcripts, { count: 0, bytes: 0 });
    const day = path.join(w.paths.transcripts, '2026', '11', '20');
    fs.mkdirSync(day, { recursive: true });
    fs.writeFileSync(path.join(day, '1000-conv-1.md'), '---\nid: conv-1\n---\n');
    fs.writeFileSync(path.join(day, '.1000-conv-2.md.1.x.tmp'), 'a crashed write, not a transcript');
    const counted = await client.connection.sendRequest(NoteFilesRequest.type, {});
    assert.deepEqual(counted.transcripts, { count: 1, bytes: Buffer.byteLength('---\nid: conv-1\n---\n') });
  });

  it('follows a rename forwarded by the client at once (file and folder)', async () => {
    const moved = path.join(w.ws, 'src', 'main.ts');
    fs.renameSync(app, moved);
    const result = await client.connection.sendRequest('lore/didRenameFiles', { files: [{ oldPath: app, newPath: moved }] });
    assert.deepEqual(result, { updated: 1 });
    const noteFile = path.join(w.paths.files, noteFileNameOf(noteIdForPath('src/app.ts')));
    assert.equal(parseNoteFile(fs.readFileSync(noteFile, 'utf8')).meta.path, 'src/main.ts');
    assert.deepEqual((await client.lensTitles(await client.open(moved)))[0], 'Lore: 3 notes');

    fs.renameSync(path.join(w.ws, 'src'), path.join(w.ws, 'lib'));
    const folder = await client.connection.sendRequest('lore/didRenameFiles', {
      files: [{ oldPath: path.join(w.ws, 'src'), newPath: path.join(w.ws, 'lib') }],
    });
    assert.deepEqual(folder, { updated: 1 });
    assert.equal(parseNoteFile(fs.readFileSync(noteFile, 'utf8')).meta.path, 'lib/main.ts');
  });

  it('keeps the notes when git checkout replaces the file (new inode), writing nothing', async () => {
    const noteFile = path.join(w.paths.files, noteFileNameOf(noteIdForPath('src/app.ts')));
    const text = fs.readFileSync(noteFile, 'utf8');
    const uri = await client.open(app);
    fs.writeFileSync(app + '.tmp', APP.replace('1', '2'));
    fs.renameSync(app + '.tmp', app);
    assert.equal((await client.lensTitles(uri))[0].startsWith('Lore: 3 notes'), true, 'found by path at once');
    const notes = (await eventually(
      async () => {
        const n = (await client.connection.sendRequest(NotesForFileRequest.type, { path: app })) as FileNotes | null;
        return n?.via === 'inode' ? n : undefined;
      },
      3000,
      'the index learned the new inode',
    ))!;
    assert.equal(notes.noteFile, noteFile);
    assert.equal(notes.staleness.state, 'changed', 'the checkout brought other content: the recorded fingerprint is kept');
    assert.equal(fs.readFileSync(noteFile, 'utf8'), text, 'the note file is as it was');
  });

  it('re-finds notes by content when a file was copied elsewhere and the original deleted', async () => {
    const copy = path.join(w.ws, 'src', 'copied.ts');
    fs.copyFileSync(app, copy);
    fs.rmSync(app);
    const uri = await client.open(copy);
    assert.equal((await client.lensTitles(uri))[0], 'Lore: 3 notes');
    const healed = await eventually(
      async () => {
        const n = (await client.connection.sendRequest(NotesForFileRequest.type, { path: copy })) as FileNotes | null;
        return n?.via === 'inode' ? n : undefined;
      },
      3000,
      'learned by fingerprint',
    );
    assert.equal(healed.recordedPath, 'src/app.ts', 'a read records no new path');
  });

  it('drops the lenses of a deleted file (its notes move to facts.md on lore/didDeleteFiles, below)', async () => {
    const uri = await client.open(app);
    assert.equal((await client.lenses(uri)).length, 3);
    fs.rmSync(app);
    assert.deepEqual(await client.lenses(uri), []);
    assert.equal(await client.hover(uri), null);
    assert.deepEqual((await client.connection.sendRequest(FileDecorationsRequest.type, { paths: [app] })).counts, {});
  });

  it('moves the notes of a file deleted in the editor to facts.md through lore/didDeleteFiles, leaving other notes alone', async () => {
    w.write('src/other.ts', 'export const other = 2;\n');
    w.note('src/other.ts', ['- Other note [from: conv-3, 2026-11-22]']);
    const noteFile = path.join(w.paths.files, noteFileNameOf(noteIdForPath('src/app.ts')));
    const otherNote = fs.readFileSync(path.join(w.paths.files, noteFileNameOf(noteIdForPath('src/other.ts'))), 'utf8');
    fs.rmSync(app);
    const result = await client.connection.sendRequest(DidDeleteFilesRequest.type, { files: [app] });
    assert.deepEqual(result, { healed: 0, orphaned: 1 });
    assert.ok(!fs.existsSync(noteFile));
    const facts = fs.readFileSync(path.join(w.paths.root, 'facts.md'), 'utf8');
    assert.match(facts, /^- src\/app\.ts: Uses ephemeral cache blocks .*\[from: conv-1, 2026-11-20\]$/m);
    assert.match(facts, /^- src\/app\.ts: run\(\) is the entry point .*\[from: conv-2, 2026-11-21\]$/m);
    assert.equal(
      fs.readFileSync(path.join(w.paths.files, noteFileNameOf(noteIdForPath('src/other.ts'))), 'utf8'),
      otherNote,
      'byte for byte',
    );
    assert.deepEqual(
      await client.connection.sendRequest(DidDeleteFilesRequest.type, { files: [app] }),
      { healed: 0, orphaned: 0 },
      'a second report changes nothing',
    );
  });

  it('heals a deletion that comes right after the note was written, before any file event reached the server', async () => {
    const fresh = w.write('src/fresh.ts', 'export const fresh = 3;\n');
    w.note('src/fresh.ts', ['- Written a moment ago [from: manual, 2026-11-24]']);
    fs.rmSync(fresh);
    const result = await client.connection.sendRequest(DidDeleteFilesRequest.type, { files: [fresh] });
    assert.deepEqual(result, { healed: 0, orphaned: 1 });
    assert.match(
      fs.readFileSync(path.join(w.paths.root, 'facts.md'), 'utf8'),
      /^- src\/fresh\.ts: Written a moment ago .*\[from: manual, 2026-11-24\]$/m,
    );
  });

  it('drops the lenses when the note file itself is deleted by hand', async () => {
    const uri = await client.open(app);
    assert.equal((await client.lenses(uri)).length, 3);
    const since = Date.now();
    fs.rmSync(path.join(w.paths.files, noteFileNameOf(noteIdForPath('src/app.ts'))));
    await client.waitFor<ParamsOf<typeof NotesChangedNotification>>(
      NotesChangedNotification.method,
      (p) => p.uris.includes(uri),
      1000,
      since,
    );
    assert.deepEqual(await client.lenses(uri), []);
  });

  it('notifies and refreshes lenses when a note file is edited by hand', async () => {
    const uri = await client.open(app);
    await client.lenses(uri);
    const noteFile = path.join(w.paths.files, noteFileNameOf(noteIdForPath('src/app.ts')));
    const since = Date.now();
    fs.appendFileSync(noteFile, '- Added by hand\n');
    // Bounded waits on the events themselves; how fast they come is the watcher's debounce, not
    // something a test on a shared machine can assert.
    await client.waitFor<ParamsOf<typeof NotesChangedNotification>>(
      NotesChangedNotification.method,
      (p) => p.uris.includes(uri),
      5000,
      since,
    );
    await client.waitFor('workspace/codeLens/refresh', () => true, 5000, since);
    assert.equal((await client.lensTitles(uri))[0], 'Lore: 4 notes');
    const notes = (await client.connection.sendRequest(NotesForFileRequest.type, { path: app })) as FileNotes;
    assert.equal(notes.notes[3].provenance, undefined, 'a hand-written note has no provenance and is fine');
  });

  it('marks notes stale when the file changed a lot, and lore/markNotesValid clears it', async () => {
    // The server saw the file at the recorded fingerprint (note written while it runs), so it
    // has a baseline and can tell how much changed.
    const fresh = w.write('src/fresh.ts', Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n'));
    const since = Date.now();
    w.note('src/fresh.ts', ['- twenty lines [from: conv-3, 2026-11-22]']);
    await client.waitFor<ParamsOf<typeof NotesChangedNotification>>(
      NotesChangedNotification.method,
      (p) => p.uris.includes(uriOf(fresh)),
      5000,
      since,
    );
    const uri = await client.open(fresh);
    // Wait until the server shows the note on the unchanged file (its baseline), not a fixed time.
    await eventually(
      async () => ((await client.lensTitles(uri))[0] === 'Lore: 1 note' ? true : undefined),
      5000,
      'the note on the unchanged file',
    );
    fs.writeFileSync(fresh, Array.from({ length: 20 }, (_, i) => `line ${i < 5 ? i : i * 100}`).join('\n'));
    // The first provide does not hash; it learns the file is stale right after and asks for a refresh.
    const edited = Date.now();
    assert.equal((await client.lensTitles(uri))[0], 'Lore: 1 note (file changed a lot since)');
    await client.waitFor('workspace/codeLens/refresh', () => true, 5000, edited);
    const titles = await client.lensTitles(uri);
    assert.equal(titles[0], 'Lore: 1 note (file changed a lot since)');
    assert.equal(titles.at(-1), 'Still valid');
    const notes = (await client.connection.sendRequest(NotesForFileRequest.type, { path: fresh })) as FileNotes;
    assert.equal(notes.staleness.state, 'changed');
    assert.ok(notes.staleness.distance! > 0.7 && notes.staleness.distance! < 0.95, `distance ${notes.staleness.distance}`);
    assert.deepEqual(await client.connection.sendRequest('lore/markNotesValid', { path: fresh }), {
      updated: true,
      noteFile: notes.noteFile,
    });
    assert.deepEqual(await client.lensTitles(uri), ['Lore: 1 note', 'from conv-3, 2026-11-22']);
    fs.appendFileSync(fresh, '\nline 20');
    assert.equal((await client.lensTitles(uri))[0], 'Lore: 1 note (file changed since)', 'a small change is not "a lot"');
  });

  it('asks for the lenses again when a noted file is saved, so their titles follow the file on disk', async () => {
    const uri = await client.open(app);
    assert.equal((await client.lensTitles(uri))[0], 'Lore: 3 notes');
    // The editor's text changed first (lenses asked for then still see the old file on disk) ...
    await client.change(uri, APP + '// edited\n');
    assert.equal((await client.lensTitles(uri))[0], 'Lore: 3 notes');
    // ... then it is saved: nothing in the text changes, so only the server can say the lenses did.
    fs.writeFileSync(app, APP + '// edited\n');
    const since = Date.now();
    await client.save(uri);
    await client.waitFor('workspace/codeLens/refresh', () => true, 5000, since);
    assert.equal((await client.lensTitles(uri))[0], 'Lore: 3 notes (file changed since)');
  });

  it('says "changed" without an amount when it never saw the noted content', async () => {
    // Noted before the server started, changed before it was opened: no baseline to compare.
    fs.writeFileSync(app, APP + '// edited\n');
    const uri = await client.open(app);
    const since = Date.now();
    assert.equal((await client.lensTitles(uri))[0], 'Lore: 3 notes (file changed since)');
    await client.waitFor('workspace/codeLens/refresh', () => true, 1000, since);
    assert.equal((await client.lensTitles(uri)).at(-1), 'Still valid');
    const notes = (await client.connection.sendRequest(NotesForFileRequest.type, { path: app })) as FileNotes;
    assert.deepEqual(notes.staleness, { state: 'changed', stale: true });
  });

  it('deletes one note through lore/deleteNote only when the line still matches', async () => {
    const notes = (await client.connection.sendRequest(NotesForFileRequest.type, { path: app })) as FileNotes;
    const target = notes.notes[1];
    assert.deepEqual(
      await client.connection.sendRequest(DeleteNoteRequest.type, {
        noteFile: target.noteFile,
        line: target.line,
        raw: '- something else',
      }),
      { deleted: false },
    );
    assert.deepEqual(
      await client.connection.sendRequest(DeleteNoteRequest.type, { noteFile: target.noteFile, line: target.line, raw: target.raw }),
      { deleted: true },
    );
    const left = (await client.connection.sendRequest(NotesForFileRequest.type, { path: app })) as FileNotes;
    assert.deepEqual(
      left.notes.map((n) => n.text),
      ['Uses ephemeral cache blocks', 'Second note of conv-1'],
    );
    const outside = await client.connection.sendRequest(DeleteNoteRequest.type, { noteFile: app, line: 0, raw: APP.split('\n')[0] });
    assert.deepEqual(outside, { deleted: false }, 'never edits a file outside files/');
    assert.equal(fs.readFileSync(app, 'utf8'), APP);
  });
});

describe('language server: a store that does not exist yet', function () {
  it('starts empty and picks the store up once it is created', async () => {
    const w = makeWorkspace({ createStore: false });
    const app = w.write('src/app.ts', APP);
    const client = await w.start();
    try {
      const uri = await client.open(app);
      assert.deepEqual(await client.lenses(uri), []);
      assert.ok(!fs.existsSync(w.paths.root), 'the server does not create the store');
      const since = Date.now();
      w.note('src/app.ts', ['- noted after start [from: conv-9, 2026-11-23]']);
      await client.waitFor<ParamsOf<typeof NotesChangedNotification>>(NotesChangedNotification.method, () => true, 3000, since);
      const titles = await eventually(async () => {
        const t = await client.lensTitles(uri);
        return t.length ? t : undefined;
      });
      assert.deepEqual(titles, ['Lore: 1 note', 'from conv-9, 2026-11-23']);
    } finally {
      await client.stop();
    }
  });
});

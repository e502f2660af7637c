import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { noteLine } from '../../../src/core/model/itemLines';
import {
  addNotesToFile,
  findNotesForFile,
  healDeletedFiles,
  metaFor,
  newNoteFile,
  readNotesOf,
  resolveNoteTarget,
} from '../../../src/core/store/fileNotes';
import { identifyFile } from '../../../src/core/base/fileIdentity';
import { renderNoteFile } from '../../../src/core/model/noteFile';
import { noteIndexMemoFile, openNoteIndex } from '../../../src/core/store/noteIndexCache';
import { storePaths, type StorePaths } from '../../../src/core/store/storePaths';
import { makeTempDir } from '../../helpers/paths';

const NOTED = 50;

/** A workspace with NOTED noted files (src/mN.ts) and one file without notes (src/plain.ts). */
function setup(): { ws: string; paths: StorePaths; noted: (i: number) => string; plain: string } {
  const ws = makeTempDir();
  const paths = storePaths(path.join(ws, '.lore'));
  fs.mkdirSync(path.join(ws, 'src'), { recursive: true });
  fs.mkdirSync(paths.files, { recursive: true });
  const noted = (i: number) => path.join(ws, 'src', `m${i}.ts`);
  for (let i = 0; i < NOTED; i++) {
    fs.writeFileSync(noted(i), `export const m${i} = ${i};\n`);
    const identity = identifyFile(noted(i))!;
    const body = `# src/m${i}.ts\n\n${noteLine(`note of m${i}`, { source: 'c1', date: '2026-11-20' })}\n`;
    const noteFile = newNoteFile(paths, `src/m${i}.ts`);
    fs.writeFileSync(noteFile, renderNoteFile(metaFor(noteFile, `src/m${i}.ts`, identity), body));
  }
  const plain = path.join(ws, 'src', 'plain.ts');
  fs.writeFileSync(plain, 'export const plain = true;\n');
  return { ws, paths, noted, plain };
}

/** A note-file reader that counts its calls. */
function counting(): { read: (file: string) => string; reads: string[] } {
  const reads: string[] = [];
  return { reads, read: (file) => (reads.push(path.basename(file)), fs.readFileSync(file, 'utf8')) };
}

describe('note index (core, persisted under .index/)', () => {
  it('answers a miss without reading any note file once the index is built', () => {
    const { paths, plain } = setup();
    const first = counting();
    openNoteIndex(paths, { read: first.read });
    assert.equal(first.reads.length, NOTED, 'the first open reads every note file once');
    assert.ok(fs.existsSync(noteIndexMemoFile(paths)), 'and keeps the index under .index/');

    const second = counting();
    const index = openNoteIndex(paths, { read: second.read });
    assert.equal(findNotesForFile(paths, plain, { index }), undefined);
    assert.equal(readNotesOf(paths, plain, index), undefined);
    assert.deepEqual(second.reads, [], 'a file without notes costs no note-file read');
  });

  it('follows a file moved on this machine by the inode the persisted local index holds, reading one note file', () => {
    const { paths, noted, ws } = setup();
    openNoteIndex(paths);
    const noteFile = findNotesForFile(paths, noted(9))!.file;
    const moved = path.join(ws, 'src', 'moved.ts');
    fs.renameSync(noted(9), moved);
    fs.writeFileSync(path.join(ws, 'src', 'm9.ts'), 'export const m9 = "a new file at the old path";\n'); // The path alone would mislead.
    const past = new Date(Date.now() - 60_000);
    fs.utimesSync(paths.files, past, past);
    const counter = counting();
    const found = findNotesForFile(paths, moved, { index: openNoteIndex(paths, { read: counter.read }) })!;
    assert.equal(found.via, 'inode');
    assert.equal(found.file, noteFile);
    assert.ok(counter.reads.length <= 1, `read ${counter.reads.length} note files`);
    assert.ok(
      fs.readdirSync(path.dirname(noteIndexMemoFile(paths))).some((n) => /^i-[0-9a-f]{2}\.json$/.test(n)),
      'an inode shard',
    );
  });

  it('sees a note file edited by hand in place (checked by its own stat before use)', () => {
    const { paths, noted } = setup();
    openNoteIndex(paths);
    const noteFile = findNotesForFile(paths, noted(3))!.file;
    fs.appendFileSync(noteFile, '- added by hand, longer than before [from: manual, 2026-11-21]\n');
    const counter = counting();
    const index = openNoteIndex(paths, { read: counter.read });
    const found = findNotesForFile(paths, noted(3), { index })!;
    assert.deepEqual(
      found.note.notes.map((n) => n.text),
      ['note of m3 [from: c1, 2026-11-20]', 'added by hand, longer than before [from: manual, 2026-11-21]'],
    );
    assert.equal(index.get(path.basename(noteFile))!.count, 2, 'the entry was re-read');
  });

  it('follows a note file renamed or deleted by hand outside Lore', () => {
    const { paths, noted, ws } = setup();
    openNoteIndex(paths);
    const original = findNotesForFile(paths, noted(7), {})!.file;
    const renamed = path.join(paths.files, 'renamed-by-hand.md');
    fs.renameSync(original, renamed);
    const found = findNotesForFile(paths, noted(7), { index: openNoteIndex(paths) })!;
    assert.equal(found.file, renamed);
    assert.equal(found.via, 'inode', 'indexing the renamed note file read the inode of the path it records');

    fs.rmSync(renamed);
    const index = openNoteIndex(paths);
    assert.equal(index.size, NOTED - 1);
    assert.equal(index.withRecordedPath('src/m7.ts').length, 0);
    assert.equal(findNotesForFile(paths, noted(7), { index }), undefined);
    assert.ok(fs.existsSync(path.join(ws, 'src', 'm7.ts')));
  });

  it("records Lore's own note-file writes, so the next process trusts the index instead of re-listing files/", () => {
    const { paths, plain } = setup();
    const past = new Date(Date.now() - 60_000);
    fs.utimesSync(paths.files, past, past); // Not a folder that just changed: the saved index is trusted.
    openNoteIndex(paths);
    const target = resolveNoteTarget(paths, plain);
    assert.equal(target.kind, 'file');
    const file = addNotesToFile(paths, target as Extract<typeof target, { kind: 'file' }>, ['- plain is new [from: c2, 2026-11-21]']);
    const state = JSON.parse(fs.readFileSync(noteIndexMemoFile(paths), 'utf8')) as { dirMtimeNs: string; journal: string[] };
    assert.equal(
      state.dirMtimeNs,
      String(fs.statSync(paths.files, { bigint: true }).mtimeNs),
      'complete for the folder as the write left it',
    );
    assert.deepEqual(state.journal, [path.basename(file)]);

    // plain.ts saved atomically (a new inode): its new note file is not in the shards; the next
    // process reads that one note file, not the folder, and learns the inode at its recorded path.
    fs.writeFileSync(plain + '.new', 'export const plain = "saved";\n');
    fs.renameSync(plain + '.new', plain);
    const counter = counting();
    const index = openNoteIndex(paths, { read: counter.read });
    assert.deepEqual(counter.reads, [path.basename(file)]);
    const found = findNotesForFile(paths, plain, { index });
    assert.equal(found?.via, 'inode');
    assert.equal(found?.file, file);
    assert.deepEqual(
      found?.note.notes.map((n) => n.text),
      ['plain is new [from: c2, 2026-11-21]'],
    );
  });

  it('rebuilds from the note files when the persisted index is broken', () => {
    const { paths, noted } = setup();
    openNoteIndex(paths);
    fs.writeFileSync(noteIndexMemoFile(paths), '{"format": 1, "entries": [["not", "a tuple"]]}');
    const counter = counting();
    const index = openNoteIndex(paths, { read: counter.read });
    assert.equal(counter.reads.length, NOTED);
    assert.ok(findNotesForFile(paths, noted(1), { index }));

    // A broken shard is found when a lookup needs it: the lookup still answers from the note files.
    fs.writeFileSync(noted(2) + '.new', 'export const m2 = "saved by rename";\n'); // A new inode: found by recorded path only.
    fs.renameSync(noted(2) + '.new', noted(2));
    const past = new Date(Date.now() - 60_000);
    fs.utimesSync(paths.files, past, past); // Not a folder that just changed: the saved index is trusted.
    openNoteIndex(paths);
    const shardDir = path.dirname(noteIndexMemoFile(paths));
    assert.match(fs.readFileSync(noteIndexMemoFile(paths), 'utf8'), /"dirMtimeNs":"\d+"/);
    for (const name of fs.readdirSync(shardDir).filter((n) => n.startsWith('p-'))) fs.writeFileSync(path.join(shardDir, name), '[["torn');
    const found = findNotesForFile(paths, noted(2), { index: openNoteIndex(paths) });
    assert.equal(found?.via, 'path');
    assert.equal(found?.note.notes.length, 1);
  });

  it('heals one deleted file by reading only its note file: notes to facts.md as `path: note`', () => {
    const { paths, noted } = setup();
    openNoteIndex(paths);
    const counter = counting();
    const index = openNoteIndex(paths, { read: counter.read });
    const noteFile = findNotesForFile(paths, noted(4), { index })!.file;
    fs.rmSync(noted(4));
    const report = healDeletedFiles(paths, [noted(4)], index, new Date('2026-11-22T00:00:00Z'));
    assert.deepEqual(
      report.orphaned.map((o) => [o.path, o.notes]),
      [['src/m4.ts', 1]],
    );
    assert.ok(!fs.existsSync(noteFile));
    assert.match(fs.readFileSync(path.join(paths.root, 'facts.md'), 'utf8'), /^- src\/m4\.ts: note of m4 .*\[from: c1, 2026-11-20\]$/m);
    assert.ok(counter.reads.length <= 1, `read ${counter.reads.length} note files`);
    assert.equal(index.size, NOTED - 1, 'the index dropped the moved note file');
    assert.ok(findNotesForFile(paths, noted(5), { index }), 'other notes stay');
  });

  it('heals the notes of every file under a deleted folder, and keeps those of a path that holds a file again', () => {
    const { paths, noted, ws } = setup();
    const index = openNoteIndex(paths);
    // m0 deleted, and a file moved onto its path before the heal ran (a new inode): kept, not orphaned.
    const before = fs.readFileSync(newNoteFile(paths, 'src/m0.ts'), 'utf8');
    fs.writeFileSync(noted(0) + '.new', 'export const m0 = "again";\n');
    fs.renameSync(noted(0) + '.new', noted(0));
    const report = healDeletedFiles(paths, [noted(0)], index);
    assert.equal(report.healed.length, 0);
    assert.equal(report.orphaned.length, 0);
    assert.equal(fs.readFileSync(newNoteFile(paths, 'src/m0.ts'), 'utf8'), before, 'the note file is as it was');
    assert.equal(findNotesForFile(paths, noted(0), { index })!.via, 'path');
    assert.equal(findNotesForFile(paths, noted(0), { index })!.via, 'inode', 'the lookup by path taught the index the new inode');

    fs.rmSync(path.join(ws, 'src'), { recursive: true });
    const folder = healDeletedFiles(paths, [path.join(ws, 'src')], index);
    assert.equal(folder.orphaned.length, NOTED);
    assert.equal(fs.readdirSync(paths.files).filter((n) => n.endsWith('.md')).length, 0);
  });
});

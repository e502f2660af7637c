import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { addNotesToFile, findNotesForFile, healNotes, recordNotePath, resolveNoteTarget } from '../../../src/core/store/fileNotes';
import { noteIdForPath } from '../../../src/core/model/noteFile';
import { openNoteIndex } from '../../../src/core/store/noteIndexCache';
import { identifyFile } from '../../../src/core/base/fileIdentity';
import { storePaths } from '../../../src/core/store/storePaths';
import { makeTempDir } from '../../helpers/paths';

function setup() {
  const ws = makeTempDir();
  fs.mkdirSync(path.join(ws, 'src'));
  fs.writeFileSync(path.join(ws, 'src', 'app.ts'), 'export const app = 1;\n');
  const paths = storePaths(path.join(ws, '.lore'));
  fs.mkdirSync(paths.files, { recursive: true });
  return { ws, paths, file: path.join(ws, 'src', 'app.ts') };
}

function add(paths: ReturnType<typeof storePaths>, file: string, note: string) {
  const target = resolveNoteTarget(paths, file);
  assert.equal(target.kind, 'file');
  return addNotesToFile(paths, target as Extract<typeof target, { kind: 'file' }>, [`- ${note} [from: c1, 2026-11-20]`]);
}

describe('per-file notes', () => {
  it('names the note file by a portable id of its path (Windows-safe) and records id, path and fingerprint, no device:inode', () => {
    const { paths, file } = setup();
    const noteFile = add(paths, file, 'uses ephemeral cache');
    assert.equal(path.basename(noteFile), `${noteIdForPath('src/app.ts')}.md`);
    assert.match(path.basename(noteFile), /^app-ts-[0-9a-hjkmnp-tv-z]{8}\.md$/);
    const text = fs.readFileSync(noteFile, 'utf8');
    assert.match(
      text,
      /^---\npath: "src\/app.ts"\nid: "app-ts-[0-9a-z]{8}"\nsize: 22\nfingerprint: "sha256:[0-9a-f]{64}"\n---\n# src\/app.ts\n\n- uses ephemeral cache \[from: c1, 2026-11-20\]\n$/,
    );
    assert.ok(!text.includes(identifyFile(file)!.id), 'the machine-local device:inode is not written');
  });

  it('two machines noting the same path write the same note file name', () => {
    const one = setup();
    const two = setup();
    assert.equal(path.basename(add(one.paths, one.file, 'from one')), path.basename(add(two.paths, two.file, 'from two')));
  });

  it("gives a file a fresh id when its path's name holds the notes of a file renamed away", () => {
    const { ws, paths, file } = setup();
    const first = add(paths, file, 'about the first app.ts');
    const renamed = path.join(ws, 'src', 'old.ts');
    fs.renameSync(file, renamed);
    assert.equal(recordNotePath(paths, first, 'src/old.ts'), true);
    fs.writeFileSync(file, 'export const app = "new";\n');
    const second = add(paths, file, 'about the new app.ts');
    assert.notEqual(second, first);
    assert.match(path.basename(second), /^app-ts-[0-9a-hjkmnp-tv-z]{8}\.md$/);
    assert.deepEqual(
      findNotesForFile(paths, renamed)!.note.notes.map((n) => n.text),
      ['about the first app.ts [from: c1, 2026-11-20]'],
    );
    assert.deepEqual(
      findNotesForFile(paths, file)!.note.notes.map((n) => n.text),
      ['about the new app.ts [from: c1, 2026-11-20]'],
    );
  });

  it('finds the notes when the inode changes under the same path (atomic save, git checkout), writing nothing', () => {
    const { paths, file } = setup();
    const before = add(paths, file, 'note survives');
    const text = fs.readFileSync(before, 'utf8');
    const index = openNoteIndex(paths);
    // Save by rename: a new inode at the same path.
    fs.writeFileSync(file + '.new', 'export const app = 2;\n');
    fs.renameSync(file + '.new', file);
    const found = findNotesForFile(paths, file, { index })!;
    assert.equal(found.via, 'path');
    assert.deepEqual(
      found.note.notes.map((n) => n.text),
      ['note survives [from: c1, 2026-11-20]'],
    );
    assert.equal(found.file, before);
    assert.equal(fs.readFileSync(before, 'utf8'), text, 'the note file is as it was');
    assert.equal(findNotesForFile(paths, file, { index })!.via, 'inode', 'the local index learned the new inode');
  });

  it('follows a local mv by inode', () => {
    const { ws, paths, file } = setup();
    add(paths, file, 'follows the inode');
    const index = openNoteIndex(paths);
    const moved = path.join(ws, 'src', 'moved.ts');
    fs.renameSync(file, moved);
    // Recorded path gone, content as recorded: the inode this machine knew the file by finds it.
    const found = findNotesForFile(paths, moved, { index })!;
    assert.equal(found.via, 'inode');
    assert.equal(found.note.meta.path, 'src/app.ts', 'reading records no new path');
    // The next write of its notes records the new path.
    add(paths, moved, 'second note');
    assert.equal(findNotesForFile(paths, moved)!.note.meta.path, 'src/moved.ts');
  });

  it('heals by content fingerprint when a file was copied to a new path and the old one deleted', () => {
    const { ws, paths, file } = setup();
    add(paths, file, 'follows content');
    const moved = path.join(ws, 'src', 'moved.ts');
    fs.copyFileSync(file, moved);
    fs.rmSync(file);
    const found = findNotesForFile(paths, moved)!;
    assert.equal(found.via, 'fingerprint');
    assert.equal(found.note.meta.path, 'src/app.ts', 'reading records no new path');
  });

  it('heal pass: follows a rename outside the editor (same inode), moves notes of deleted files to facts.md', () => {
    const { ws, paths, file } = setup();
    add(paths, file, 'renamed note');
    const other = path.join(ws, 'src', 'gone.ts');
    fs.writeFileSync(other, 'x');
    add(paths, other, 'orphan note');
    fs.renameSync(file, path.join(ws, 'src', 'renamed.ts'));
    fs.rmSync(other);
    const report = healNotes(paths);
    assert.deepEqual(
      report.healed.map((h) => h.path),
      ['src/renamed.ts'],
    );
    assert.deepEqual(
      report.orphaned.map((o) => [o.path, o.notes]),
      [['src/gone.ts', 1]],
    );
    const facts = fs.readFileSync(path.join(paths.root, 'facts.md'), 'utf8');
    assert.equal(facts, '# Facts\n\n- src/gone.ts: orphan note [from: c1, 2026-11-20]\n');
    assert.equal(fs.readdirSync(paths.files).length, 1);
    // Running it again changes nothing.
    assert.deepEqual(healNotes(paths), { healed: [], orphaned: [] });
  });

  it('refuses targets outside the workspace, inside the store, missing, or via a symlink out', () => {
    const { ws, paths } = setup();
    const outside = makeTempDir();
    fs.writeFileSync(path.join(outside, 'secret.txt'), 'x');
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(ws, 'link.txt'));
    fs.writeFileSync(path.join(paths.root, 'facts.md'), '# Facts\n');
    assert.equal(resolveNoteTarget(paths, path.join(outside, 'secret.txt')).kind, 'orphan');
    assert.equal(resolveNoteTarget(paths, '../../etc/passwd').kind, 'orphan');
    assert.equal(resolveNoteTarget(paths, '.lore/facts.md').kind, 'orphan');
    assert.equal(resolveNoteTarget(paths, 'src/missing.ts').kind, 'orphan');
    assert.equal(resolveNoteTarget(paths, 'link.txt').kind, 'orphan');
    assert.equal(resolveNoteTarget(paths, 'src/app.ts').kind, 'file');
  });

  it('re-bases absolute paths from the conversation cwd onto this workspace', () => {
    const { paths } = setup();
    const target = resolveNoteTarget(paths, '/home/other/project/src/app.ts', '/home/other/project');
    assert.equal(target.kind, 'file');
    assert.equal((target as { relative: string }).relative, 'src/app.ts');
  });
});

describe('per-file notes and reused inode numbers', () => {
  /** Deletes `file` and creates `other` until the new file gets the deleted one's inode number (usual on ext4/tmpfs). */
  function createWithReusedInode(file: string, other: string): boolean {
    const ino = fs.statSync(file).ino;
    fs.rmSync(file);
    for (let i = 0; i < 200; i++) {
      fs.writeFileSync(other, `export const other = ${i};\n`);
      if (fs.statSync(other).ino === ino) return true;
      fs.rmSync(other);
      fs.writeFileSync(other + `.pad${i}`, ''); // Take the next free inode so the old number comes round.
    }
    return false;
  }

  it("a new file that reuses a deleted file's inode does not get its notes; heal sends them to facts.md", function () {
    const { ws, paths, file } = setup();
    add(paths, file, 'app note');
    const other = path.join(ws, 'src', 'other.ts');
    if (!createWithReusedInode(file, other)) this.skip();
    assert.equal(findNotesForFile(paths, other), undefined);
    add(paths, other, 'other note');
    const otherNotes = findNotesForFile(paths, other)!;
    assert.deepEqual(
      otherNotes.note.notes.map((n) => n.text),
      ['other note [from: c1, 2026-11-20]'],
    );
    // The deleted file's notes stay in their own note file until a heal sends them to facts.md.
    assert.equal(healNotes(paths).orphaned.length, 1);
    const facts = fs.readFileSync(path.join(paths.root, 'facts.md'), 'utf8');
    assert.match(facts, /- src\/app\.ts: app note \[from: c1, 2026-11-20\]/);
    // A later heal leaves the rest as it is.
    const report = healNotes(paths);
    assert.deepEqual(report, { healed: [], orphaned: [] });
    assert.deepEqual(findNotesForFile(paths, other)!.note.notes.length, 1);
  });

  it("heal never moves a deleted file's notes onto the file that took its inode number", function () {
    const { ws, paths, file } = setup();
    add(paths, file, 'app note');
    const other = path.join(ws, 'src', 'other.ts');
    if (!createWithReusedInode(file, other)) this.skip();
    const report = healNotes(paths);
    assert.equal(report.orphaned.length, 1);
    assert.equal(report.healed.length, 0);
    assert.equal(findNotesForFile(paths, other), undefined);
    assert.match(fs.readFileSync(path.join(paths.root, 'facts.md'), 'utf8'), /src\/app\.ts: app note/);
  });

  it('still follows a file moved outside the editor with its content unchanged (same inode)', () => {
    const { ws, paths, file } = setup();
    add(paths, file, 'moved note');
    const moved = path.join(ws, 'src', 'moved.ts');
    fs.renameSync(file, moved);
    assert.equal(findNotesForFile(paths, moved)?.note.notes[0].text, 'moved note [from: c1, 2026-11-20]');
  });
});

describe('a checkout under a new inode', () => {
  it('writes no note file: the notes keep their recorded fingerprint, so "changed since" survives it', () => {
    const { paths, file } = setup();
    add(paths, file, 'about version 1');
    const recorded = findNotesForFile(paths, file)!.note.meta;
    // A checkout brings other content under a new inode at the same path.
    fs.writeFileSync(file + '.new', 'export const app = 2; // other content\n');
    fs.renameSync(file + '.new', file);
    const noteFile = findNotesForFile(paths, file)!.file;
    const text = fs.readFileSync(noteFile, 'utf8');
    healNotes(paths);
    const healed = findNotesForFile(paths, file)!;
    assert.equal(healed.file, noteFile);
    assert.equal(fs.readFileSync(noteFile, 'utf8'), text, 'byte for byte');
    assert.equal(healed.note.meta.fingerprint, recorded.fingerprint);
    assert.equal(healed.note.meta.size, recorded.size);
    assert.notEqual(identifyFile(file)!.fingerprint, recorded.fingerprint);
  });
});

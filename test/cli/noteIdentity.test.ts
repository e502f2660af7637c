/**
 * Portable note identity, with real git and real clones: a note file has the same name on every
 * machine, reading never changes a committed file, a teammate's rename arrives through git and is
 * followed by path, and an older store's device-inode note files migrate once (preview, apply,
 * idempotent, crash-safe).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { noteIdForPath, parseNoteFile, renderNoteFile } from '../../src/core/model/noteFile';
import { makeWorkspace, runCli, snapshotTree } from '../helpers/cli';
import { gitIn, initRepo } from '../helpers/gitRepo';
import { makeTempDir } from '../helpers/paths';

/** A bare origin holding one workspace with a store (and the given notes), and a way to clone it. */
async function team(notes: Array<[string, string]> = []) {
  const { ws, root } = await makeWorkspace();
  for (const [file, text] of notes) {
    const result = await runCli(['note', path.join(ws, file), text, '--root', root]);
    assert.equal(result.code, 0, result.stderr);
  }
  initRepo(ws);
  const origin = path.join(makeTempDir('lore-origin-'), 'origin.git');
  gitIn(ws, 'clone', '-q', '--bare', ws, origin);
  const clone = (): { ws: string; root: string } => {
    const dir = path.join(makeTempDir('lore-clone-'), 'ws');
    gitIn(path.dirname(dir), 'clone', '-q', origin, dir);
    gitIn(dir, 'config', 'user.name', 'Teammate');
    gitIn(dir, 'config', 'user.email', 'teammate@example.com');
    return { ws: dir, root: path.join(dir, '.lore') };
  };
  return { origin, clone };
}

const status = (ws: string) => gitIn(ws, 'status', '--porcelain', '--untracked-files=all');
const noteNames = (root: string) =>
  fs
    .readdirSync(path.join(root, 'files'))
    .filter((n) => n.endsWith('.md'))
    .sort();

describe('portable note identity (real git clones)', () => {
  it('reading notes in a fresh clone leaves git status clean', async () => {
    const { clone } = await team([['src/app.ts', 'Uses ephemeral cache blocks']]);
    const b = clone();
    const file = path.join(b.ws, 'src', 'app.ts');
    const shown = await runCli(['notes', file, '--root', b.root]);
    assert.match(shown.stdout, /Uses ephemeral cache blocks/);
    assert.equal((await runCli(['notes', file, '--json', '--root', b.root])).code, 0);
    assert.equal((await runCli(['context', '--files', file, '--root', b.root])).code, 0);
    assert.equal((await runCli(['search', 'ephemeral', '--root', b.root])).code, 0);
    // The clone's checkout gave the file a new inode: found by path, and still nothing changes.
    fs.writeFileSync(file + '.tmp', fs.readFileSync(file));
    fs.renameSync(file + '.tmp', file);
    assert.match((await runCli(['notes', file, '--root', b.root])).stdout, /Uses ephemeral cache blocks/);
    assert.equal(status(b.ws), '');
  });

  it('two people noting the same file on their own machines write the same note file name', async () => {
    const { clone } = await team();
    const [b, c] = [clone(), clone()];
    for (const [who, text] of [
      [b, 'noted on machine b'],
      [c, 'noted on machine c'],
    ] as const) {
      const result = await runCli(['note', path.join(who.ws, 'src', 'app.ts'), text, '--root', who.root]);
      assert.equal(result.code, 0, result.stderr);
    }
    assert.deepEqual(noteNames(b.root), [`${noteIdForPath('src/app.ts')}.md`]);
    assert.deepEqual(noteNames(c.root), noteNames(b.root));
  });

  it("a teammate's rename arrives through git and is followed by path, with no churn", async () => {
    const { clone } = await team([['src/app.ts', 'The entry point']]);
    const [b, c] = [clone(), clone()];
    const names = noteNames(c.root);
    // c reads first, so its local index knows the file under its old path and inode.
    assert.match((await runCli(['notes', path.join(c.ws, 'src', 'app.ts'), '--root', c.root])).stdout, /The entry point/);

    gitIn(b.ws, 'mv', 'src/app.ts', 'src/main.ts');
    const before = await runCli(['notes', path.join(b.ws, 'src', 'main.ts'), '--root', b.root]);
    assert.match(
      before.stdout,
      /^# src\/main\.ts {2}\(files\/app-ts-[0-9a-z]{8}\.md, re-found by fingerprint, recorded as src\/app\.ts until its notes are next written\)/,
    );
    const healed = await runCli(['notes', '--heal', '--root', b.root]);
    assert.match(healed.stdout, /moved: src\/app\.ts → src\/main\.ts/);
    assert.deepEqual(noteNames(b.root), names, 'the note file keeps its name');
    gitIn(b.ws, 'add', '-A');
    gitIn(b.ws, 'commit', '-q', '-m', 'rename app to main');
    gitIn(b.ws, 'push', '-q', 'origin', 'main');

    gitIn(c.ws, 'pull', '-q', '--no-rebase', 'origin', 'main');
    const shown = await runCli(['notes', path.join(c.ws, 'src', 'main.ts'), '--root', c.root]);
    assert.match(shown.stdout, /^# src\/main\.ts {2}\(files\/app-ts-[0-9a-z]{8}\.md\)\n- [0-9a-z]{8} {2}The entry point/);
    assert.deepEqual(noteNames(c.root), names);
    assert.equal(status(c.ws), '');
  });
});

describe('lore notes --migrate (older device-inode note files)', () => {
  const legacy = (relative: string, fileId: string, lines: string[]) =>
    `---\npath: ${JSON.stringify(relative)}\nfile_id: ${JSON.stringify(fileId)}\nsize: 1\nfingerprint: "sha256:00"\n---\n# ${relative}\n\n${lines.join('\n')}\n`;

  /** A store as an older Lore left it: app.ts noted on two machines (two files), other.ts once. */
  async function legacyStore() {
    const { ws, root } = await makeWorkspace();
    fs.writeFileSync(path.join(ws, 'src', 'other.ts'), 'export const other = 1;\n');
    const files = path.join(root, 'files');
    fs.writeFileSync(path.join(files, '2049-1234.md'), legacy('src/app.ts', '2049:1234', ['- from machine one [from: c1, 2026-11-20]']));
    fs.writeFileSync(path.join(files, '66-777.md'), legacy('src/app.ts', '66:777', ['- from machine two [from: c2, 2026-11-21]']));
    fs.writeFileSync(path.join(files, '2049-99.md'), legacy('src/other.ts', '2049:99', ['- other note [from: c3, 2026-11-22]']));
    return { ws, root };
  }

  /** Every note line per recorded path, across all note files. */
  function notesByPath(root: string): Record<string, string[]> {
    const out: Record<string, string[]> = {};
    for (const name of noteNames(root)) {
      const note = parseNoteFile(fs.readFileSync(path.join(root, 'files', name), 'utf8'));
      (out[note.meta.path] ??= []).push(...note.notes.map((n) => n.raw));
    }
    for (const lines of Object.values(out)) lines.sort();
    return Object.fromEntries(Object.entries(out).sort());
  }

  const expected = {
    'src/app.ts': ['- from machine one [from: c1, 2026-11-20]', '- from machine two [from: c2, 2026-11-21]'],
    'src/other.ts': ['- other note [from: c3, 2026-11-22]'],
  };

  it('previews each rename without changing anything, applies once, and is idempotent', async () => {
    const { root } = await legacyStore();
    const before = snapshotTree(root);
    const preview = await runCli(['notes', '--migrate', '--root', root]);
    assert.equal(preview.code, 0, preview.stderr);
    const app = `${noteIdForPath('src/app.ts')}.md`;
    const other = `${noteIdForPath('src/other.ts')}.md`;
    assert.match(preview.stdout, new RegExp(`would rename: files/2049-1234\\.md → files/${app}  \\(src/app\\.ts\\)`));
    assert.match(preview.stdout, new RegExp(`would rename: files/66-777\\.md → files/${app}  \\(src/app\\.ts\\)`));
    assert.match(preview.stdout, new RegExp(`would rename: files/2049-99\\.md → files/${other}  \\(src/other\\.ts\\)`));
    assert.match(preview.stdout, /3 note file\(s\) to rename; run lore notes --migrate --apply/);
    assert.deepEqual(snapshotTree(root), before, 'a preview writes nothing');

    const applied = await runCli(['notes', '--migrate', '--apply', '--json', '--root', root]);
    assert.equal(applied.code, 0, applied.stderr);
    assert.equal((JSON.parse(applied.stdout) as { renames: unknown[] }).renames.length, 3);
    assert.deepEqual(noteNames(root), [app, other].sort());
    assert.deepEqual(notesByPath(root), expected);
    for (const name of noteNames(root)) {
      const text = fs.readFileSync(path.join(root, 'files', name), 'utf8');
      assert.ok(!text.includes('file_id'), name);
      assert.equal(parseNoteFile(text).meta.id, name.replace(/\.md$/, ''));
    }

    const after = snapshotTree(root);
    const again = await runCli(['notes', '--migrate', '--apply', '--root', root]);
    assert.match(again.stdout, /nothing to migrate/);
    assert.deepEqual(snapshotTree(root), after);
  });

  it("gives a fresh id when the path's name already holds another file's notes", async () => {
    const { root } = await legacyStore();
    // A note file already named by app.ts's id, but about a file that was renamed to src/kept.ts.
    const taken = `${noteIdForPath('src/app.ts')}.md`;
    const id = taken.replace(/\.md$/, '');
    fs.writeFileSync(
      path.join(root, 'files', taken),
      renderNoteFile({ path: 'src/kept.ts', id, size: 1, fingerprint: '' }, '# src/kept.ts\n\n- kept note [from: c9, 2026-11-23]\n'),
    );
    assert.equal((await runCli(['notes', '--migrate', '--apply', '--root', root])).code, 0);
    const byPath = notesByPath(root);
    assert.deepEqual(byPath['src/kept.ts'], ['- kept note [from: c9, 2026-11-23]']);
    assert.deepEqual(byPath['src/app.ts'], expected['src/app.ts']);
    assert.equal(noteNames(root).length, 3);
    assert.ok(noteNames(root).every((n) => !/^\d+-\d+\.md$/.test(n)));
  });

  it('a crash at any step loses no note, and the next run finishes the migration', async function () {
    this.timeout(120_000);
    for (let step = 1; ; step++) {
      const { root } = await legacyStore();
      const crashed = await runCli(['notes', '--migrate', '--apply', '--root', root], { env: { LORE_TEST_CRASH_AFTER: String(step) } });
      const notes = notesByPath(root);
      for (const [file, lines] of Object.entries(expected)) {
        for (const line of lines) assert.ok(notes[file]?.includes(line), `step ${step}: ${line} of ${file} lost`);
      }
      const finished = await runCli(['notes', '--migrate', '--apply', '--root', root]);
      assert.equal(finished.code, 0, finished.stderr);
      assert.deepEqual(notesByPath(root), expected, `step ${step}`);
      assert.ok(
        noteNames(root).every((n) => !/^\d+-\d+\.md$/.test(n)),
        `step ${step}`,
      );
      if (crashed.signal === null) break; // The run got past its last crash point: every step was tried.
      assert.ok(step < 100, 'the migration ends');
    }
  });
});

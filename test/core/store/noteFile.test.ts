import * as assert from 'node:assert/strict';
import { listItems } from '../../../src/core/model/categoryFile';
import {
  isLegacyNoteName,
  noteIdForPath,
  parseNoteFile,
  randomNoteId,
  readCoreFrontmatter,
  renderNoteFile,
  type NoteFileMeta,
} from '../../../src/core/model/noteFile';
import { parseFrontmatter } from '../../../src/core/base/yamlFrontmatter';

/** What parseNoteFile made of a text before it had a fast path: gray-matter's reading of it. */
function viaYaml(text: string) {
  const { data, content } = parseFrontmatter(text.replace(/^\ufeff/, ''));
  const meta: NoteFileMeta = {
    path: typeof data.path === 'string' ? data.path : '',
    id: typeof data.id === 'string' ? data.id : '',
    size: typeof data.size === 'number' ? data.size : -1,
    fingerprint: typeof data.fingerprint === 'string' ? data.fingerprint : '',
  };
  return { meta, body: content, notes: listItems(content) };
}

describe('note files: reading Lore’s own frontmatter without YAML', () => {
  it('reads what renderNoteFile writes exactly as the YAML parser does, whatever the path holds', () => {
    const metas: NoteFileMeta[] = [
      { path: 'src/app.ts', id: '2049-1234', size: 5120, fingerprint: 'sha256:ab' },
      { path: 'src/we "ird":#path.ts', id: '2049-123456789012345678', size: 0, fingerprint: '' },
      { path: 'ünï/cødé 😀.ts', id: '1-2', size: -1, fingerprint: 'sha256:' },
      { path: 'C:\\Users\\me\\x.ts', id: '1-3', size: 9007199254740991, fingerprint: 'x' },
      { path: 'tab\there\nnewline\u0001ctl/— ---.ts', id: '', size: 12, fingerprint: '---' },
      { path: '/abs/outside/ws.ts', id: '7-8', size: 3, fingerprint: 'sha256:ff' },
    ];
    const bodies = [
      '# src/app.ts\n\n- one [from: c, 2026-01-01]\n- two\n  continued\n',
      '',
      '\n\n- after blank lines\n',
      '\r- starts with CR\n',
      '---\n- a rule line first\n',
    ];
    for (const meta of metas) {
      for (const body of bodies) {
        for (const text of [renderNoteFile(meta, body), '\ufeff' + renderNoteFile(meta, body)]) {
          assert.ok(readCoreFrontmatter(text.replace(/^\ufeff/, '')), `fast path taken for ${JSON.stringify(text)}`);
          assert.deepEqual(parseNoteFile(text), viaYaml(text), JSON.stringify(text));
        }
      }
    }
  });

  it('leaves anything else to the YAML parser: hand-edited, CRLF, reordered, broken', () => {
    const texts = [
      '---\r\npath: "crlf.ts"\r\nfile_id: "1:3"\r\nsize: 4\r\nfingerprint: "x"\r\n---\r\n- a\r\n',
      '---\npath: hand written\nsize: 7\n---\n- a\n- b\n',
      '---\nfile_id: "1:2"\npath: "reordered.ts"\nsize: 1\nfingerprint: ""\n---\n- a\n',
      '---\npath: "a.ts"\nfile_id: "1:2"\nsize: 0123\nfingerprint: ""\n---\n- leading zero\n',
      '---\npath: "a.ts"\nfile_id: "1:2"\nsize: 1\nfingerprint: "\\x41"\n---\n- a YAML-only escape\n',
    ];
    for (const text of texts) {
      assert.equal(readCoreFrontmatter(text), undefined, JSON.stringify(text));
      assert.deepEqual(parseNoteFile(text), viaYaml(text), JSON.stringify(text));
    }
    // A broken frontmatter keeps every line as body, so no note is lost.
    const broken = '---\npath: "broken\n---\n- a\n';
    assert.equal(readCoreFrontmatter(broken), undefined);
    assert.deepEqual(
      parseNoteFile(broken).notes.map((n) => n.text),
      ['a'],
    );
  });
});

describe('note ids: the same on every machine, valid file names everywhere', () => {
  /** A name Windows, macOS and Linux all accept, short, and the same whatever the case. */
  const portableName = /^[a-z0-9][a-z0-9-]{0,31}-[0-9a-hjkmnp-tv-z]{8}$/;

  it('derives the id from the workspace-relative path alone, with the base name in front', () => {
    assert.equal(noteIdForPath('src/app.ts'), noteIdForPath('src/app.ts'));
    assert.match(noteIdForPath('src/app.ts'), /^app-ts-[0-9a-hjkmnp-tv-z]{8}$/);
    assert.notEqual(noteIdForPath('src/app.ts'), noteIdForPath('lib/app.ts'));
    assert.notEqual(noteIdForPath('src/App.ts'), noteIdForPath('src/app.ts'), 'paths differing in case only keep their own notes');
  });

  it('sanitizes any base name into a short, Windows-safe name', () => {
    const paths = [
      'CON',
      'aux.txt',
      '.env',
      'a:b*?"<>|.ts',
      '😀.ts',
      'ünïcødé.md',
      'x'.repeat(300) + '.ts',
      'dir/',
      'trailing. ',
      'C:\\win\\path.ts',
    ];
    for (const relative of paths) {
      for (const id of [noteIdForPath(relative), randomNoteId(relative)]) {
        assert.match(id, portableName, `${relative} → ${id}`);
        assert.ok(!isLegacyNoteName(`${id}.md`));
      }
    }
  });

  it('tells an older Lore\u2019s device-inode names apart', () => {
    assert.ok(isLegacyNoteName('2049-1234.md'));
    assert.ok(isLegacyNoteName('66306-123456789012345678.md'));
    assert.ok(!isLegacyNoteName('app-ts-3k9x2m1q.md'));
  });

  it("reads an older Lore's file_id frontmatter (fast path and YAML alike) with no id", () => {
    const text = '---\npath: "src/app.ts"\nfile_id: "2049:1234"\nsize: 3\nfingerprint: "sha256:ab"\n---\n- a\n';
    assert.deepEqual(readCoreFrontmatter(text)?.meta, { path: 'src/app.ts', id: '', size: 3, fingerprint: 'sha256:ab' });
    assert.deepEqual(parseNoteFile(text), viaYaml(text));
  });
});

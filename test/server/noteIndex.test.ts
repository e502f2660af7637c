import * as assert from 'node:assert/strict';
import { parseNoteFile, renderNoteFile } from '../../src/core/model/noteFile';
import { listItems } from '../../src/core/model/categoryFile';
import { countItems, readNoteSummary } from '../../src/core/store/noteIndex';
import { lineHashSet, setDistance } from '../../src/server/staleness';

describe('server note index and staleness helpers', () => {
  it('reads note meta and counts like core parseNoteFile, fast path or not', () => {
    const body = '# a\n\n- one [from: c, 2026-01-01]\n- two\n  continued\n```\n- fenced\n```\n';
    const texts = [
      renderNoteFile({ path: 'src/we "ird":#path.ts', id: '2049-123456789012345678', size: 12, fingerprint: 'sha256:ab' }, body),
      renderNoteFile({ path: 'ünï/cødé.ts', id: '1-2', size: 0, fingerprint: '' }, body),
      '---\r\npath: "crlf.ts"\r\nfile_id: "1:3"\r\nsize: 4\r\nfingerprint: "x"\r\n---\r\n- a\r\n',
      '---\npath: hand written\nsize: 7\n---\n- a\n- b\n',
      '- no frontmatter at all\n',
      '---\npath: "broken\n---\n- a\n',
    ];
    for (const text of texts) {
      const core = parseNoteFile(text);
      assert.deepEqual(readNoteSummary(text), { meta: core.meta, count: core.notes.length }, text);
    }
  });

  it('counts items exactly as core listItems', () => {
    const bodies = [
      '# t\n\n- a\n* b\n+ c\n-not an item\n---\n  - nested continuation\n-\ttab item\n- \n',
      '```\n- fenced\n```\n~~~md\n- fenced too\n~~~\n- after\n',
      '\ufeff- bom item\r\n- crlf item\r\n',
      '## Open\n\n- task\n\n## Done\n\n- done task\n   ```\n- in indented fence\n```\n',
    ];
    for (const body of bodies) assert.equal(countItems(body), listItems(body).length, JSON.stringify(body));
  });

  it('measures line-set distance (Jaccard over distinct non-blank lines)', () => {
    const a = lineHashSet('a\nb\nc\nd\n\n');
    assert.equal(setDistance(a, lineHashSet('a\nb\nc\nd')), 0);
    assert.equal(setDistance(a, lineHashSet('a  \nb\nc\nd\n')), 0, 'trailing whitespace is ignored');
    assert.equal(setDistance(a, lineHashSet('a\nb\nx\ny')), 1 - 2 / 6);
    assert.equal(setDistance(a, lineHashSet('w\nx\ny\nz')), 1);
    assert.equal(setDistance(lineHashSet(''), lineHashSet('')), 0);
  });
});

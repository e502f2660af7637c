/** removeItems / markTasksDone: the edits behind the views' Delete and Mark Task Done. */
import * as assert from 'node:assert/strict';
import { markTasksDone, removeItems } from '../../../src/core/knowledge/categoryFile';
import { lineIdentity } from '../../../src/core/knowledge/itemLines';

const ids = (...lines: string[]) => new Set(lines.map(lineIdentity));

describe('item edits in category files', () => {
  it('removeItems deletes the item and its continuation lines and keeps every other byte (BOM, CRLF, hand lines)', () => {
    const text = '\ufeff# Facts\r\n\r\nmy own paragraph\r\n- keep me [from: a, 2026-11-01]\r\n- drop me [from: b, 2026-11-02]\r\n  wrapped part of it\r\n- last one\r\n';
    assert.equal(removeItems(text, ids('- drop me [from: b, 2026-11-09]')), '\ufeff# Facts\r\n\r\nmy own paragraph\r\n- keep me [from: a, 2026-11-01]\r\n- last one\r\n');
  });

  it('removeItems says when there is nothing to delete', () => {
    assert.equal(removeItems('- a\n', ids('- b')), undefined);
  });

  it('markTasksDone moves an open task to the end of ## Done', () => {
    const text = '# Tasks\n\n## Open\n\n- ship it [from: c, 2026-11-03]\n- write docs\n\n## Done\n\n- old one\n';
    assert.equal(markTasksDone(text, ids('- ship it [from: c, 2026-11-03]')), '# Tasks\n\n## Open\n\n- write docs\n\n## Done\n\n- old one\n- ship it [from: c, 2026-11-03]\n');
  });

  it('markTasksDone creates ## Done when the file has none, and leaves a done task alone', () => {
    assert.equal(markTasksDone('# Tasks\n\n## Open\n\n- only task\n', ids('- only task')), '# Tasks\n\n## Open\n\n## Done\n\n- only task\n');
    assert.equal(markTasksDone('## Done\n\n- finished\n', ids('- finished')), undefined);
  });
});

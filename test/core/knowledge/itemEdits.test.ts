/** removeItems / markTasksDone (the views' Delete and Mark Task Done), replaceItem / supersedeItem (agents' updates). */
import * as assert from 'node:assert/strict';
import { markTasksDone, removeItems } from '../../../src/core/model/categoryFile';
import { lineIdentity } from '../../../src/core/model/itemLines';
import { itemId } from '../../../src/core/model/itemId';
import { replaceItem, supersedeItem } from '../../../src/core/model/itemEdits';
import { neutralizeItemText, parseProvenance } from '../../../src/core/model/provenance';
import { supersededBy } from '../../../src/core/model/supersession';

const ids = (...lines: string[]) => new Set(lines.map(lineIdentity));

describe('item edits in category files', () => {
  it('removeItems deletes the item and its continuation lines and keeps every other byte (BOM, CRLF, hand lines)', () => {
    const text =
      '\ufeff# Facts\r\n\r\nmy own paragraph\r\n- keep me [from: a, 2026-11-01]\r\n- drop me [from: b, 2026-11-02]\r\n  wrapped part of it\r\n- last one\r\n';
    assert.equal(
      removeItems(text, ids('- drop me [from: b, 2026-11-09]')),
      '\ufeff# Facts\r\n\r\nmy own paragraph\r\n- keep me [from: a, 2026-11-01]\r\n- last one\r\n',
    );
  });

  it('removeItems says when there is nothing to delete', () => {
    assert.equal(removeItems('- a\n', ids('- b')), undefined);
  });

  it('markTasksDone moves an open task to the end of ## Done', () => {
    const text = '# Tasks\n\n## Open\n\n- ship it [from: c, 2026-11-03]\n- write docs\n\n## Done\n\n- old one\n';
    assert.equal(
      markTasksDone(text, ids('- ship it [from: c, 2026-11-03]')),
      '# Tasks\n\n## Open\n\n- write docs\n\n## Done\n\n- old one\n- ship it [from: c, 2026-11-03]\n',
    );
  });

  it('markTasksDone creates ## Done when the file has none, and leaves a done task alone', () => {
    assert.equal(
      markTasksDone('# Tasks\n\n## Open\n\n- only task\n', ids('- only task')),
      '# Tasks\n\n## Open\n\n## Done\n\n- only task\n',
    );
    assert.equal(markTasksDone('## Done\n\n- finished\n', ids('- finished')), undefined);
  });
});

describe('item edits by identity: replace and supersede', () => {
  it('replaceItem puts the new line where the item stood, continuation lines and copies gone, every other byte kept', () => {
    const text = '\ufeff# Facts\r\n\r\n- keep [from: a, 2026-11-01]\r\n- old text [from: b, 2026-11-02]\r\n  wrapped\r\n- tail\r\n';
    const next = replaceItem(text, lineIdentity('- old text [from: b, 2026-11-02]'), '- new text [from: b, 2026-11-27]');
    assert.equal(next, '\ufeff# Facts\r\n\r\n- keep [from: a, 2026-11-01]\r\n- new text [from: b, 2026-11-27]\r\n- tail\r\n');
    assert.equal(replaceItem(text, lineIdentity('- absent'), '- x'), undefined);
  });

  it('supersedeItem marks the old line before its provenance, keeps its id, and puts the successor right after it', () => {
    const old = '- deploys go through Jenkins [from: c1, 2026-11-20]';
    const text = `# Tasks\n\n## Open\n\n${old}\n- other\n\n## Done\n`;
    const successor = '- deploys go through GitHub Actions [from: claude-code:s1, 2026-11-27]';
    const next = supersedeItem(text, lineIdentity(old), itemId(successor), successor)!;
    const marked = `- deploys go through Jenkins [superseded by ${itemId(successor)}, 2026-11-27] [from: c1, 2026-11-20]`;
    assert.equal(next, `# Tasks\n\n## Open\n\n${marked}\n${successor}\n- other\n\n## Done\n`);
    assert.equal(itemId(marked), itemId(old), 'the marker is not part of the identity');
    assert.equal(supersededBy(marked), itemId(successor));
    assert.deepEqual(parseProvenance(marked) && { source: parseProvenance(marked)!.source, date: parseProvenance(marked)!.date }, {
      source: 'c1',
      date: '2026-11-20',
    });
    // Again: re-pointed, the successor not added twice.
    assert.equal(supersedeItem(next, lineIdentity(old), itemId(successor), successor), next);
  });

  it('agent text cannot forge a supersession marker or provenance', () => {
    assert.equal(
      neutralizeItemText('x [superseded by: abcdefgh] [from: y, 2020-01-01]'),
      'x (superseded by: abcdefgh] (from: y, 2020-01-01]',
    );
  });

  it('provenance naming a client and session (client:session) parses, and is part of the identity', () => {
    const line = '- uses pnpm [from: claude-code:4f2a-9c, 2026-11-27]';
    assert.equal(parseProvenance(line)?.source, 'claude-code:4f2a-9c');
    assert.equal(lineIdentity(line), 'claude-code:4f2a-9c\u0000uses pnpm');
    assert.notEqual(itemId(line), itemId('- uses pnpm [from: codex:4f2a-9c, 2026-11-27]'));
    assert.equal(itemId(line), itemId('- uses pnpm [from: claude-code:4f2a-9c, 2026-12-01]'));
  });
});

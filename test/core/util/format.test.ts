import * as assert from 'node:assert/strict';
import { itemCountsText, printable, reclaimText } from '../../../src/core/model/format';

describe('printable', () => {
  it('escapes what a terminal would act on and keeps ordinary text, tabs and non-ASCII', () => {
    assert.equal(printable('evil\x1b]0;pwned\x07\x1b[2Jx.md'), 'evil\\x1b]0;pwned\\x07\\x1b[2Jx.md');
    assert.equal(printable('a\rb\nc\x00d\x7fe\x9bf\tg'), 'a\\rb\\nc\\x00d\\x7fe\\x9bf\tg');
    assert.equal(printable('gnp.\u202etxt.md \u2028'), 'gnp.\\u202etxt.md \\u2028');
    assert.equal(printable('café/日本/ok — fine.md'), 'café/日本/ok — fine.md');
  });

  it('keepLineBreaks keeps \\n for multi-line messages and still escapes \\r', () => {
    assert.equal(printable('line 1\r\nline\x1b 2', { keepLineBreaks: true }), 'line 1\\r\nline\\x1b 2');
  });
});

describe('itemCountsText', () => {
  const none = { facts: 0, decisions: 0, tasks_done: 0, tasks_open: 0, questions: 0, playbooks: 0, files: 0 };
  it('says the counts in words, singular and plural, leaving zeros out', () => {
    assert.equal(
      itemCountsText({ ...none, facts: 3, decisions: 1, tasks_open: 2, files: 1 }),
      '3 facts, 1 decision, 2 open tasks, 1 file note',
    );
    assert.equal(itemCountsText({ ...none, tasks_done: 1 }), '1 done task');
  });
  it('says when nothing is new', () => {
    assert.equal(itemCountsText(none), 'no new items');
  });
});

describe('reclaimText', () => {
  it('says what happened to the inbox conversations instead of "reclaimed"', () => {
    assert.equal(
      reclaimText(['delete', 'delete', 'archive']),
      '2 conversations removed from the inbox, 1 conversation moved to the archive',
    );
    assert.equal(reclaimText(['archive'], true), '1 conversation to be moved to the archive');
  });
  it('is empty when nothing leaves the inbox (reclaim: keep)', () => {
    assert.equal(reclaimText([]), '');
  });
});

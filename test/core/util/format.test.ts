import * as assert from 'node:assert/strict';
import { humanTime, itemCountsText, printable, reclaimText } from '../../../src/core/model/format';

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

describe('humanTime', () => {
  // Local times, as the person's clock shows them.
  const now = new Date(2026, 4, 12, 15, 30);
  it('says today and yesterday with the clock time', () => {
    assert.equal(humanTime(new Date(2026, 4, 12, 9, 5).toISOString(), now), 'today at 09:05');
    assert.equal(humanTime(new Date(2026, 4, 11, 23, 59).getTime(), now), 'yesterday at 23:59');
  });
  it('names the day and month earlier this year, and the year before that', () => {
    assert.equal(humanTime(new Date(2026, 2, 3, 14, 32), now), 'on 3 Mar at 14:32');
    assert.equal(humanTime(new Date(2025, 11, 31, 8, 0), now), 'on 31 Dec 2025');
  });
  it('gives back what it cannot read as a date', () => {
    assert.equal(humanTime('not a date', now), 'not a date');
  });
});

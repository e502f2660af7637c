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
  // Local dates, so the test holds in any time zone: Monday 7 Dec 2026, 14:05.
  const now = new Date(2026, 11, 7, 14, 5);
  const at = (month: number, day: number, hours = 9, minutes = 30, year = 2026) => new Date(year, month, day, hours, minutes);

  it('says today and yesterday with the time of day', () => {
    assert.equal(humanTime(at(11, 7, 8, 2), { now }), 'today 08:02');
    assert.equal(humanTime(at(11, 6, 23, 59), { now }), 'yesterday 23:59');
    assert.equal(humanTime(at(11, 7, 0, 0), { now }), 'today 00:00');
  });

  it('names the weekday within the past week, then the day and month, and the year only for another year', () => {
    assert.equal(humanTime(at(11, 5), { now }), 'Saturday 09:30');
    assert.equal(humanTime(at(11, 1, 16, 20), { now }), 'Tuesday 16:20');
    assert.equal(humanTime(at(10, 30), { now }), '30 Nov');
    assert.equal(humanTime(at(2, 12), { now }), '12 Mar');
    assert.equal(humanTime(at(2, 12, 9, 30, 2025), { now }), '12 Mar 2025');
  });

  it('reads ISO text and epoch milliseconds, leaves the time out on request, and returns what it cannot read', () => {
    assert.equal(humanTime(at(11, 7, 10, 15).toISOString(), { now }), 'today 10:15');
    assert.equal(humanTime(at(11, 6).getTime(), { now, withTime: false }), 'yesterday');
    assert.equal(humanTime('not a date', { now }), 'not a date');
    // A day alone (a provenance date) is that day wherever the reader is, without a time.
    assert.equal(humanTime('2026-12-06', { now }), 'yesterday');
    assert.equal(humanTime('2026-03-12', { now }), '12 Mar');
  });

  it('gives a moment after now (another clock) its full date rather than a weekday', () => {
    assert.equal(humanTime(at(11, 9), { now }), '9 Dec 2026');
  });
});

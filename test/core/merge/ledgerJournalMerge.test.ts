import * as assert from 'node:assert/strict';
import { mergeLedgerTexts, readLedgerText } from '../../../src/core/model/merge/ledgerMerge';
import { mergeJournalTexts } from '../../../src/core/model/merge/journalMerge';
import { ledgerText, type Ledger, type LedgerEntry } from '../../../src/core/model/ledgerFormat';
import { parseJournal } from '../../../src/core/model/journalFormat';

const entry = (status: LedgerEntry['status'], at: string, more: Partial<LedgerEntry> = {}): LedgerEntry => ({
  path: 'inbox/c.jsonl',
  status,
  at,
  deleted: false,
  ...more,
});
const text = (ledger: Ledger) => ledgerText(ledger);

describe('merging ledger.json', () => {
  it('unites entries by hash and tombstones, in the canonical form', () => {
    const base: Ledger = { entries: { a: entry('harvested', '2026-11-01T00:00:00Z') } };
    const ours: Ledger = { ...base, entries: { ...base.entries, b: entry('harvested', '2026-11-02T00:00:00Z', { id: 'cb' }) } };
    const theirs: Ledger = {
      entries: { ...base.entries, c: entry('harvested', '2026-11-03T00:00:00Z', { id: 'cc' }) },
      forgotten: {
        conversations: { ca: { at: '2026-11-04T00:00:00Z', sha256: ['a'] } },
        items: { k3m9x2ab: { at: '2026-11-04T00:00:00Z', hash: 'h' } },
      },
    };
    const merged = JSON.parse(mergeLedgerTexts(text(base), text(ours), text(theirs))!) as Ledger;
    assert.deepEqual(Object.keys(merged.entries), ['a', 'b', 'c']);
    assert.deepEqual(merged.forgotten, theirs.forgotten);
    assert.equal(mergeLedgerTexts(text(base), text(ours), text(theirs)), text(merged));
  });

  it('two statuses of one hash: the one that proves more wins, then the later', () => {
    const base: Ledger = { entries: {} };
    const failed: Ledger = { entries: { a: entry('harvest-failed', '2026-11-05T00:00:00Z', { error: 'x' }) } };
    const harvested: Ledger = { entries: { a: entry('harvested', '2026-11-01T00:00:00Z', { transcript: 'transcripts/t.md' }) } };
    const one = JSON.parse(mergeLedgerTexts(text(base), text(failed), text(harvested))!) as Ledger;
    const other = JSON.parse(mergeLedgerTexts(text(base), text(harvested), text(failed))!) as Ledger;
    assert.equal(one.entries.a.status, 'harvested');
    assert.deepEqual(one, other);
    const later: Ledger = { entries: { a: entry('harvested', '2026-11-09T00:00:00Z') } };
    assert.equal((JSON.parse(mergeLedgerTexts(text(base), text(harvested), text(later))!) as Ledger).entries.a.at, '2026-11-09T00:00:00Z');
  });

  it('an entry one side removed and the other left stays removed; a forget on both sides is one', () => {
    const base: Ledger = { entries: { a: entry('harvested', '2026-11-01T00:00:00Z'), b: entry('harvested', '2026-11-01T00:00:00Z') } };
    const ours: Ledger = {
      entries: { b: base.entries.b },
      forgotten: { conversations: { ca: { at: '2026-11-05T00:00:00Z', sha256: ['a'] } }, items: {} },
    };
    const theirs: Ledger = {
      entries: base.entries,
      forgotten: { conversations: { ca: { at: '2026-11-04T00:00:00Z', sha256: ['a2'] } }, items: {} },
    };
    const merged = JSON.parse(mergeLedgerTexts(text(base), text(ours), text(theirs))!) as Ledger;
    assert.deepEqual(Object.keys(merged.entries), ['b']);
    assert.deepEqual(merged.forgotten!.conversations.ca, { at: '2026-11-04T00:00:00Z', sha256: ['a', 'a2'] });
  });

  it('reads a ledger a hand merge left with conflict markers as both sides, and refuses what is no ledger', () => {
    const conflicted = [
      '{',
      '  "entries": {',
      '<<<<<<< HEAD',
      '    "a": {"at": "2026-11-01T00:00:00Z", "deleted": false, "path": "p", "status": "harvested"}',
      '=======',
      '    "b": {"at": "2026-11-01T00:00:00Z", "deleted": false, "path": "q", "status": "harvested"}',
      '>>>>>>> theirs',
      '  }',
      '}',
      '',
    ].join('\n');
    assert.deepEqual(Object.keys(readLedgerText(conflicted)!.entries), ['a', 'b']);
    assert.equal(mergeLedgerTexts('', '{"entries": 3}', '{"entries": {}}'), undefined);
  });
});

describe('merging a day of the journal', () => {
  const day = (sources: Record<string, Record<string, string[]>>, summary?: string) =>
    [
      '---',
      'type: journal',
      'date: 2026-11-02',
      `sessions: [${Object.keys(sources)
        .map((s) => JSON.stringify(s))
        .join(', ')}]`,
      '---',
      '',
      '# Journal 2026-11-02',
      '',
      ...(summary ? ['## Summary', '', summary, ''] : []),
      ...Object.entries(sources).flatMap(([s, cats]) => [
        `## ${s}`,
        '',
        ...Object.entries(cats).flatMap(([c, b]) => [`### ${c}`, ...b, '']),
      ]),
    ].join('\n');

  it('unites the bullets of both sides per source and category; keeps both summaries when they differ', () => {
    const base = day({ c0: { facts: ['- a'] } });
    const ours = day({ c0: { facts: ['- a'] }, c1: { facts: ['- o'] } }, 'ours');
    const theirs = day({ c0: { facts: ['- a', '- t'] }, c2: { tasks: ['- u'] } }, 'theirs');
    const merged = parseJournal('2026-11-02', mergeJournalTexts('2026-11-02', base, ours, theirs));
    assert.deepEqual(merged.summary, ['ours', '', 'theirs']);
    assert.deepEqual([...merged.sources.keys()], ['c0', 'c1', 'c2']);
    assert.deepEqual(merged.sources.get('c0')!.get('facts'), ['- a', '- t']);
    assert.equal(mergeJournalTexts('2026-11-02', base, ours, base), ours);
  });
});

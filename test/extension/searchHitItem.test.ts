/** The search quick pick's rows (src/extension/search/searchHitItem.ts has no vscode import, so plain Node runs it). */
import * as assert from 'node:assert/strict';
import type { SearchHit } from '../../src/core/services/search/searchTypes';
import { plainMarkdown, searchHitItem } from '../../src/extension/search/searchHitItem';

function hit(fields: Partial<SearchHit> & Pick<SearchHit, 'text' | 'snippet'>): SearchHit {
  return { category: 'facts', file: 'facts.md', absolutePath: '/s/facts.md', line: 3, score: 1, scores: {}, ...fields };
}

describe('search quick pick rows', () => {
  it('shows a playbook as words: no **, no backticks, no link syntax, no provenance', () => {
    const row = searchHitItem(
      hit({
        category: 'playbooks',
        text: '**release**: run `npm run package`, then see [the notes](https://example.com/notes) [from: abc, 2026-11-20]',
        snippet: '«release»: run `npm run package`, then see [the notes](https://example.com/notes)',
        source: 'abc',
        date: '2026-11-20',
      }),
    );
    assert.equal(row.label, 'release: run npm run package, then see the notes');
    assert.equal(row.description, 'playbooks · from abc, 2026-11-20');
  });

  it('does not repeat a short item as its own snippet', () => {
    const row = searchHitItem(
      hit({
        text: 'The flux capacitor needs 1.21 gigawatts. [from: x, 2026-11-20]',
        snippet: 'The flux «capacitor» needs 1.21 «gigawatts».',
      }),
    );
    assert.equal(row.label, 'The flux capacitor needs 1.21 gigawatts.');
    assert.equal(row.detail, undefined);
  });

  it('keeps the snippet of a transcript chunk or a long item, where it shows the part that matched', () => {
    const long = `${'word '.repeat(60)}the needle sits here ${'tail '.repeat(40)}`;
    const row = searchHitItem(hit({ category: 'transcripts', text: long, snippet: '…word word the «needle» sits here tail tail…' }));
    assert.ok(row.label.length <= 200 && row.label.endsWith('…'), row.label);
    assert.equal(row.detail, '…word word the needle sits here tail tail…');
  });

  it('leaves words with inner asterisks and underscores alone', () => {
    assert.equal(plainMarkdown('2*3*4 stays, snake_case_name stays, *this* goes'), '2*3*4 stays, snake_case_name stays, this goes');
  });
});

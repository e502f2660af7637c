import * as assert from 'node:assert/strict';
import { parseQuery } from '../../../src/core/services/search/queryParser';
import { makeSnippet } from '../../../src/core/services/search/textTerms';

const MARKERS = { open: '[', close: ']' };

describe('snippets', () => {
  it('keeps a short text whole, flattened, with every matching word marked', () => {
    const snippet = makeSnippet('The watcher\n  debounces   events; watchers restart.', parseQuery('watcher '), MARKERS);
    assert.equal(snippet, 'The [watcher] debounces events; [watchers] restart.');
  });

  it('cuts a long text around the first match, at word boundaries, marking both cuts', () => {
    const filler = (n: number, word: string) => Array.from({ length: n }, (_, i) => `${word}${i}`).join(' \n');
    const text = `${filler(200, 'alpha')} the sqlite index uses WAL mode ${filler(200, 'omega')}`;
    const snippet = makeSnippet(text, parseQuery('sqlite '), MARKERS);
    assert.match(snippet, /^…alpha\d+ .*the \[sqlite\] index uses WAL mode omega0 .*…$/);
    assert.ok(!snippet.includes('\n'));
    // About 200 characters of text, plus markers and ellipses; never a broken word at the ends.
    assert.ok(snippet.length <= 200 + 4, `${snippet.length} characters`);
    const original = new Set(text.split(/\s+/));
    for (const word of snippet.replace(/^…|…$/g, '').replace(/[[\]]/g, '').split(' '))
      assert.ok(original.has(word), `"${word}" is not a whole word of the text`);
  });

  it('finds a match late in a long text, and starts a long text without a match at its beginning', () => {
    const words = Array.from({ length: 600 }, (_, i) => `w${i}`);
    const late = makeSnippet(`${words.join(' ')} finally the debounce`, parseQuery('debounce '), MARKERS);
    assert.match(late, /^….* the \[debounce\]$/);
    const none = makeSnippet(words.join(' '), parseQuery('absent '), MARKERS);
    assert.match(none, /^w0 w1 w2 .*…$/);
  });

  it('marks the same words in ASCII text (its own quicker path) as in the same text with a non-ASCII word', () => {
    const ascii = 'the cache_ttl of caches, precached; Cache9 and cache';
    const marked = makeSnippet(ascii, parseQuery('cache '), MARKERS);
    assert.equal(marked, 'the [cache]_ttl of caches, precached; Cache9 and [cache]');
    assert.equal(makeSnippet(`${ascii} café`, parseQuery('cache '), MARKERS), `${marked} café`);
  });
});

import * as assert from 'node:assert/strict';
import { listItems } from '../../../src/core/model/categoryFile';
import { isItemId, itemId, ITEM_ID_LENGTH, listItemId, recordItemId } from '../../../src/core/model/itemId';
import { extractDocs } from '../../../src/core/services/search/extractDocs';

describe('itemId', () => {
  it('is the same for the same statement and source, whatever the date, spacing, case or list marker', () => {
    const a = itemId('- Orders use UUIDv7 keys [from: s1, 2026-01-02]');
    assert.equal(a.length, ITEM_ID_LENGTH);
    assert.ok(isItemId(a), a);
    assert.equal(itemId('* orders  use uuidv7 KEYS [from: s1, 2026-11-27]'), a);
  });

  it('differs when the statement or the source differs', () => {
    const a = itemId('- Orders use UUIDv7 keys [from: s1, 2026-01-02]');
    assert.notEqual(itemId('- Orders use UUIDv4 keys [from: s1, 2026-01-02]'), a);
    assert.notEqual(itemId('- Orders use UUIDv7 keys [from: s2, 2026-01-02]'), a);
  });

  it('spreads over the alphabet: 10,000 distinct lines give 10,000 distinct ids', () => {
    const ids = new Set<string>();
    for (let i = 0; i < 10_000; i++) ids.add(itemId(`- fact number ${i} [from: s, 2026-01-01]`));
    assert.equal(ids.size, 10_000);
  });

  it('accepts ids typed in capitals and refuses other shapes', () => {
    const a = itemId('- x [from: s, 2026-01-01]');
    assert.ok(isItemId(a.toUpperCase()));
    assert.ok(!isItemId('abc'));
    assert.ok(!isItemId('ilou0000'));
  });
});

describe('listItemId', () => {
  it("gives an item wrapped over two lines the id search gives it (its joined text), and a one-line item its line's id", () => {
    const text = '# Facts\n\n- a wrapped item that goes on\n  over two lines [from: c2, 2026-11-21]\n- plain [from: c3, 2026-11-22]\n';
    const source = { rel: 'facts.md', abs: '/s/facts.md', kind: 'category' as const, mtimeMs: 0, size: text.length };
    const [wrapped, plain] = listItems(text);
    const docs = extractDocs(source, text);
    assert.equal(listItemId(wrapped), recordItemId(docs[0]));
    assert.notEqual(listItemId(wrapped), itemId(wrapped.raw), 'the first line alone is not the item');
    assert.equal(listItemId(plain), itemId(plain.raw));
    assert.equal(listItemId(plain), recordItemId(docs[1]));
  });
});

import * as assert from 'node:assert/strict';
import { isItemId, itemId, ITEM_ID_LENGTH } from '../../../src/core/knowledge/itemId';

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

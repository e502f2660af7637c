import * as assert from 'node:assert/strict';
import { targetDisplayName, targetLabel } from '../../../src/core/store/items/reviewQueue';

describe('targetDisplayName: how a person reads where a held item goes', () => {
  it('names a note file by the file it is about, never by its device-inode name', () => {
    const target = { file: 'files/65024-2525519.md', notedPath: 'src/orders.ts' };
    assert.equal(targetDisplayName(target), 'notes on src/orders.ts');
    assert.equal(
      targetLabel(target),
      'files/65024-2525519.md (src/orders.ts)',
      'review.md headings keep the file name (they are parsed back)',
    );
  });

  it('keeps a path with a line break on one line', () => {
    assert.equal(targetDisplayName({ file: 'files/1-2.md', notedPath: 'odd\nname.ts' }), 'notes on odd name.ts');
  });

  it('names category files and the tasks sections as before', () => {
    assert.equal(targetDisplayName({ file: 'facts.md' }), 'facts.md');
    assert.equal(targetDisplayName({ file: 'tasks.md', section: 'open' }), 'tasks.md (Open)');
  });
});

import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { storePaths } from '../../src/core/store/storePaths';
import { storeDocumentKind } from '../../src/server/provenanceLines';

describe('store documents the language server checks', () => {
  it('leaves review.md alone (its held lines end with a [flagged: …] marker, not with provenance)', () => {
    const paths = storePaths('/ws/.lore');
    assert.equal(storeDocumentKind(paths, path.join(paths.root, 'review.md')), undefined);
    assert.equal(storeDocumentKind(paths, path.join(paths.root, 'facts.md')), 'category');
  });
});

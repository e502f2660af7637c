import * as assert from 'node:assert/strict';
import { lazy } from '../../../src/core/base/lazy';

describe('lazy', () => {
  it('loads on the first call only, and tells whether it has loaded without loading', () => {
    let loads = 0;
    const value = lazy(() => ({ n: ++loads }));
    assert.equal(value.loaded, false);
    assert.equal(loads, 0, 'declaring the getter loads nothing');
    const first = value();
    assert.equal(value.loaded, true);
    assert.equal(value(), first);
    assert.equal(loads, 1);
  });

  it('loads again after a load that threw (a native module that could not load is not remembered as loaded)', () => {
    let attempts = 0;
    const value = lazy(() => {
      if (++attempts === 1) throw new Error('not yet');
      return attempts;
    });
    assert.throws(value, /not yet/);
    assert.equal(value.loaded, false);
    assert.equal(value(), 2);
  });

  it('requires the module only when first called', () => {
    const file = require.resolve('../../../src/core/base/wellFormedText');
    delete require.cache[file];
    const module = lazy(() => require('../../../src/core/base/wellFormedText') as typeof import('../../../src/core/base/wellFormedText'));
    assert.equal(require.cache[file], undefined);
    assert.equal(typeof module().wellFormedStrings, 'function');
    assert.ok(require.cache[file]);
  });
});

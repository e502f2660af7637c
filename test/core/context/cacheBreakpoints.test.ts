import * as assert from 'node:assert/strict';
import { buildContext } from '../../../src/core/services/context/buildContext';
import { chooseCacheBreakpoints, segmentAtBreakpoints, stablePrefixHash } from '../../../src/core/services/promptCache/cacheBreakpoints';
import { fullInput } from './contextFixtures';

describe('cache breakpoints', () => {
  it('chooses the ends of the last three stable layers, never a volatile one', () => {
    const built = buildContext(fullInput());
    const points = chooseCacheBreakpoints(built);
    assert.deepEqual(
      points.map((p) => p.layer),
      ['project', 'knowledge', 'file-notes'],
    );
    assert.equal(points.at(-1)!.offset, built.stablePrefixLength);
    assert.deepEqual(
      chooseCacheBreakpoints(built, 1).map((p) => p.layer),
      ['file-notes'],
    );
    assert.deepEqual(chooseCacheBreakpoints(buildContext({ message: 'only volatile' })), []);
  });

  it('segments concatenate back to the text, without empty segments', () => {
    const built = buildContext(fullInput());
    const points = chooseCacheBreakpoints(built);
    const segments = segmentAtBreakpoints(built.text, [...points, { layer: 'role', offset: 0 }, points[0]]);
    assert.equal(segments.map((s) => s.text).join(''), built.text);
    assert.deepEqual(
      segments.map((s) => s.breakpoint),
      [true, true, true, false],
    );
    assert.ok(segments.every((s) => s.text.length > 0));
  });

  it('hashes the stable prefix only, salted with the model', () => {
    const a = buildContext(fullInput({ message: 'one' }));
    const b = buildContext(fullInput({ message: 'two' }));
    const c = buildContext(fullInput({ digest: 'another digest' }));
    assert.equal(stablePrefixHash(a, 'm'), stablePrefixHash(b, 'm'));
    assert.notEqual(stablePrefixHash(a, 'm'), stablePrefixHash(c, 'm'));
    assert.notEqual(stablePrefixHash(a, 'm'), stablePrefixHash(a, 'other-model'));
    assert.match(stablePrefixHash(a), /^[0-9a-f]{64}$/);
  });
});

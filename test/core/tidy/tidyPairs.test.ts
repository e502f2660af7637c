/**
 * Tidy's duplicate matching on a labelled table of pairs (test/fixtures/tidy/pairs.json), both
 * ways: two distinct facts of one sentence shape that differ in a number, a name, an identifier,
 * a version or a place are never merged (before, 22 of the 23 were, and one fact's text
 * disappeared), and the same knowledge said twice still is.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { itemId } from '../../../src/core/model/itemId';
import { itemSpecifics, sameSpecifics } from '../../../src/core/services/search/itemSimilarity';
import { tidyProposals } from '../../../src/core/services/tidy/tidyProposals';
import { FIXTURES } from '../../helpers/paths';

interface Pair {
  same: boolean;
  why: string;
  a: string;
  b: string;
}

const { pairs } = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'tidy', 'pairs.json'), 'utf8')) as { pairs: Pair[] };
const A = (p: Pair) => `- ${p.a} [from: c1, 2026-11-01]`;
const B = (p: Pair) => `- ${p.b} [from: c2, 2026-11-05]`;
const propose = (p: Pair, judged?: Parameters<typeof tidyProposals>[2]) =>
  tidyProposals('facts.md', `# Facts\n\n${A(p)}\n${B(p)}\n`, judged);

describe('tidy: which pairs are one item (labelled table)', () => {
  it('labels at least 30 pairs, both kinds', () => {
    assert.ok(pairs.length >= 30);
    assert.ok(pairs.filter((p) => p.same).length >= 10 && pairs.filter((p) => !p.same).length >= 20);
  });

  for (const pair of pairs) {
    it(`${pair.same ? 'merges' : 'keeps apart'} (${pair.why}): "${pair.a}" / "${pair.b}"`, () => {
      const { merges } = propose(pair);
      assert.equal(merges.length, pair.same ? 1 : 0);
      if (pair.same) assert.equal(merges[0].line, `- ${pair.a} [from: c1, 2026-11-01; c2, 2026-11-05]`);
    });
  }

  it('a model\'s "same" does not merge items that name different things either', () => {
    for (const pair of pairs) {
      const { merges } = propose(pair, { same: [[itemId(A(pair)), itemId(B(pair))]], supersedes: [] });
      assert.equal(merges.length, pair.same ? 1 : 0, pair.a);
    }
  });

  it("specifics: numbers, versions, identifiers and names; a capital only at a sentence's start is no name", () => {
    const tokens = (text: string) => itemSpecifics(text).tokens.map((t) => t.join(' '));
    assert.deepEqual(tokens('- Deploys go to eu-west-1 via Jenkins; the TTL is 10,000 s [from: c1, 2026-11-01]'), [
      'eu west 1',
      'jenkin',
      'ttl',
      '10000',
    ]);
    assert.deepEqual(tokens('The build uses esbuild. Then it runs mocha'), []);
    assert.deepEqual(tokens('the image is node:22-alpine on GitHub (v3 API)'), ['node 22 alpine', 'github', 'v3', 'api']);
    assert.equal(sameSpecifics(itemSpecifics('secrets are git-ignored'), itemSpecifics('the secrets are ignored by git')), true);
    assert.equal(sameSpecifics(itemSpecifics('runs on Node'), itemSpecifics('runs on Node.js')), false);
  });
});

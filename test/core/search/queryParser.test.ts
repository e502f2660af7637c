import * as assert from 'node:assert/strict';
import { loadSqlite } from '../../../src/core/base/sqliteDriver';
import { MAX_QUERY_ITEMS, isEmptyQuery, parseQuery, toFtsExpression } from '../../../src/core/services/search/queryParser';
import { NASTY_QUERIES } from './backendSuite';

/** A small deterministic PRNG (mulberry32), so a failing fuzz case can be reproduced. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALPHABET = [
  ...'abcxyz019 ',
  ...'"\'*:^()[]{}-+.,;!?\\/%_~`|&<>=#@$',
  ' AND ',
  ' OR ',
  ' NOT ',
  ' NEAR ',
  'NEAR(',
  ' and ',
  '\u0000',
  '\u0001',
  '\t',
  '\n',
  '\u00a0',
  '\u200b',
  'é',
  'e\u0301',
  'ß',
  'ﬁ',
  '日',
  '本',
  'ü',
  'ø',
  'Σ',
  'ا',
  '😀',
  '\ud83d',
  '\ude00',
  '\ufeff',
  '\u2028',
];

function randomQuery(next: () => number): string {
  const length = Math.floor(next() * 24);
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[Math.floor(next() * ALPHABET.length)];
  return out;
}

describe('query sanitizer', () => {
  it('keeps words and balanced phrases and drops every operator', () => {
    assert.deepEqual(parseQuery('esbuild AND "crash test" NOT (xyz*)'), {
      items: [['esbuild'], ['and'], ['crash', 'test'], ['not'], ['xyz']],
      prefixLast: true,
    });
    assert.equal(toFtsExpression(parseQuery('esbuild AND "crash test"'), 'and'), '"esbuild" AND "and" AND "crash test"');
    assert.equal(toFtsExpression(parseQuery('col:esbuild^ nex'), 'or'), '"col" OR "esbuild" OR "nex"*');
  });

  it('treats the last word as a prefix unless the input ends with a space or a closing quote', () => {
    assert.equal(parseQuery('crash tes').prefixLast, true);
    assert.equal(parseQuery('crash tes ').prefixLast, false);
    assert.equal(parseQuery('"crash test"').prefixLast, false);
    assert.equal(parseQuery('"crash test" mig').prefixLast, true);
    assert.equal(parseQuery('crash te').prefixLast, false, 'two letters are too short to expand');
    assert.equal(parseQuery('日本').prefixLast, true, 'ideographs are words on their own');
  });

  it('reads ASCII text (its own quicker path) as the Unicode rules read it', () => {
    // A non-ASCII word at the end sends the same text down the Unicode path: the words before it must not change.
    const ascii = 'Index_build "x-y Z9" tab\tsep 42 a_b-c';
    const unicode = `${ascii} é`;
    assert.deepEqual(parseQuery(ascii).items, [['index'], ['build'], ['x', 'y', 'z9'], ['tab'], ['sep'], ['42'], ['a'], ['b'], ['c']]);
    assert.deepEqual(parseQuery(unicode).items, [...parseQuery(ascii).items, ['é']]);
    // Short last words: a prefix from three characters, or one Han, kana or Hangul character.
    assert.equal(parseQuery('ab').prefixLast, false);
    assert.equal(parseQuery('abc').prefixLast, true);
    assert.equal(parseQuery('東').prefixLast, true);
  });

  it('ignores an unbalanced quote, folds case, and bounds the number of items', () => {
    assert.deepEqual(parseQuery('"Unbalanced Phrase').items, [['unbalanced'], ['phrase']]);
    assert.equal(parseQuery(Array.from({ length: 100 }, (_, i) => `w${i}`).join(' ')).items.length, MAX_QUERY_ITEMS);
    assert.ok(isEmptyQuery(parseQuery('*** ^^^ ::: (((')));
    assert.ok(isEmptyQuery(parseQuery(undefined)));
    assert.ok(isEmptyQuery(parseQuery({ toString: () => 'esbuild' })));
  });

  it('produces expressions FTS5 always accepts (fuzz, 3000 random inputs plus the nasty list)', function () {
    const { driver } = loadSqlite();
    if (!driver) this.skip();
    const db = driver!.open(':memory:');
    try {
      db.exec("CREATE VIRTUAL TABLE t USING fts5(text, context, tokenize='porter unicode61', prefix='2 3')");
      db.prepare('INSERT INTO t(text, context) VALUES (?, ?)').run('the build uses esbuild 日本語 café', 'x');
      const run = db.prepare('SELECT count(*) AS n FROM t WHERE t MATCH ?');
      const next = prng(20261121);
      const inputs = [...NASTY_QUERIES, ...Array.from({ length: 3000 }, () => randomQuery(next))];
      for (const input of inputs) {
        const query = parseQuery(input);
        for (const mode of ['and', 'or'] as const) {
          const expression = toFtsExpression(query, mode);
          if (expression === undefined) {
            assert.ok(isEmptyQuery(query));
            continue;
          }
          assert.doesNotThrow(() => run.get(expression), `input ${JSON.stringify(input)} → ${expression}`);
        }
      }
    } finally {
      db.close();
    }
  });
});

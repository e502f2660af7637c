/**
 * The design contract of cache-friendly context: two turns with the same stable inputs share
 * exactly their first N bytes, N = the stable prefix. If a layer moves, or a volatile value leaks
 * into a stable layer, these tests fail.
 */
import * as assert from 'node:assert/strict';
import { buildContext } from '../../../src/core/services/context/buildContext';
import type { BuiltContext, ContextInput, EarlierTurn } from '../../../src/core/services/promptCache/contextLayers';
import { fullInput } from './contextFixtures';

/** True when both contexts claim the same stable prefix and their first N UTF-8 bytes are equal. */
function sharesStablePrefix(a: BuiltContext, b: BuiltContext): boolean {
  if (a.stablePrefixBytes !== b.stablePrefixBytes || a.stablePrefixLength !== b.stablePrefixLength) return false;
  const n = a.stablePrefixBytes;
  return Buffer.from(a.text, 'utf8').subarray(0, n).equals(Buffer.from(b.text, 'utf8').subarray(0, n));
}

/** Length of the common byte prefix of two texts. */
function commonBytes(a: string, b: string): number {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  return i;
}

/** mulberry32: a seeded PRNG, so a failing case can be replayed. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALPHABET = ['a', 'Z', '0', ' ', '\n', '\r\n', '\t', '{', '}', '—', 'é', '🚀', '中', '{/message}', '  ', '\ufeff'];

function randomText(rand: () => number, max: number): string {
  let out = '';
  const length = Math.floor(rand() * max);
  for (let i = 0; i < length; i++) out += ALPHABET[Math.floor(rand() * ALPHABET.length)];
  return out;
}

/** Random volatile layers; any of them may be absent. */
function randomVolatile(rand: () => number): Partial<ContextInput> {
  const turns: EarlierTurn[] = Array.from({ length: Math.floor(rand() * 4) }, (_, i) => ({
    role: i % 2 ? 'assistant' : 'user',
    text: randomText(rand, 40),
  }));
  return {
    discussion:
      rand() < 0.8
        ? {
            name: randomText(rand, 12),
            turns: Math.floor(rand() * 100),
            at: new Date(1_767_225_600_000 + Math.floor(rand() * 1e9)).toISOString(),
          }
        : undefined,
    activeFiles: Array.from({ length: Math.floor(rand() * 4) }, () => `src/${randomText(rand, 8)}.ts`),
    earlierTurns: turns,
    message: rand() < 0.9 ? randomText(rand, 80) : undefined,
  };
}

const STABLE: ContextInput = (() => {
  const { role, tools, project, digest, fileNotes } = fullInput();
  return { role, tools, project, digest, fileNotes };
})();

describe('the byte-comparison contract', () => {
  it('two turns with the same stable inputs share exactly the first N bytes', () => {
    const turn1 = buildContext({ ...STABLE, discussion: { turns: 1 }, message: 'first prompt' });
    const turn2 = buildContext({ ...STABLE, discussion: { turns: 2 }, activeFiles: ['src/a.ts'], message: 'second prompt' });
    assert.ok(turn1.stablePrefixBytes > 0);
    assert.ok(sharesStablePrefix(turn1, turn2));
    assert.equal(turn1.text.slice(0, turn1.stablePrefixLength), turn2.text.slice(0, turn2.stablePrefixLength));
    // Exactly N: the texts part right after the prefix (at the separator before the first volatile layer).
    assert.equal(commonBytes(turn1.text, turn2.text), turn1.stablePrefixBytes + '\n{discussion}\nturns: '.length);
  });

  it('fails when a volatile value (a timestamp) leaks into a stable layer', () => {
    // What the contract guards against: `now()` in the system prompt.
    const leaky = (at: number, message: string) =>
      buildContext({ ...STABLE, role: `${STABLE.role} Current time: ${new Date(at).toISOString()}`, message });
    const turn1 = leaky(1_767_225_600_000, 'first prompt');
    const turn2 = leaky(1_767_225_660_000, 'second prompt');
    assert.equal(sharesStablePrefix(turn1, turn2), false);
    assert.ok(commonBytes(turn1.text, turn2.text) < turn1.stablePrefixBytes);
  });

  it('fails when per-turn data is passed as a stable layer (project context holding the message)', () => {
    const misplaced = (message: string) => buildContext({ ...STABLE, project: `${STABLE.project}\nUser asks: ${message}`, message });
    assert.equal(sharesStablePrefix(misplaced('first'), misplaced('second')), false);
  });

  it('holds over 500 random volatile inputs (seeded property test)', () => {
    const seed = 20_261_121;
    const rand = prng(seed);
    const reference = buildContext(STABLE);
    // With no volatile layer at all, the text is the stable prefix itself.
    assert.equal(reference.text.length, reference.stablePrefixLength);
    for (let i = 0; i < 500; i++) {
      const built = buildContext({ ...STABLE, ...randomVolatile(rand) });
      assert.ok(sharesStablePrefix(reference, built), `case ${i} (seed ${seed}) broke the stable prefix`);
      assert.ok(built.text.startsWith(reference.text), `case ${i} (seed ${seed})`);
      assert.ok(!/[^\S\n]\n/.test(built.text), `case ${i}: trailing whitespace in the output`);
      assert.ok(built.text === '' || built.text.endsWith('\n'));
    }
  });

  it('holds when the stable inputs arrive in a different order (tools, notes, schema keys)', () => {
    const rand = prng(7);
    const reference = buildContext(STABLE);
    for (let i = 0; i < 50; i++) {
      const shuffle = <T>(items: readonly T[]): T[] =>
        [...items]
          .map((v) => [rand(), v] as const)
          .sort((a, b) => a[0] - b[0])
          .map(([, v]) => v);
      const tools = shuffle(STABLE.tools!).map((t) => ({
        ...t,
        inputSchema: t.inputSchema && Object.fromEntries(shuffle(Object.entries(t.inputSchema as object))),
      }));
      const built = buildContext({ ...STABLE, tools, fileNotes: shuffle(STABLE.fileNotes!), ...randomVolatile(rand) });
      assert.ok(sharesStablePrefix(reference, built), `shuffle ${i}`);
    }
  });
});

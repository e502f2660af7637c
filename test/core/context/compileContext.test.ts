import * as assert from 'node:assert/strict';
import { compileContext, type CompileInput } from '../../../src/core/services/context/compileContext';
import { estimateTokens } from '../../../src/core/model/tokens';
import { stablePrefix } from '../../../src/core/services/context/buildContext';

const line = (i: number, words = 12) =>
  `- item ${i}: ${Array.from({ length: words }, (_, j) => `word${(i * 7 + j) % 50}`).join(' ')} [from: c${i}, 2026-11-20]`;

function input(message: string, overrides: Partial<CompileInput> = {}): CompileInput {
  return {
    role: 'You are a coding assistant.',
    digest: `# Knowledge digest\n\n## Decisions\n${Array.from({ length: 20 }, (_, i) => line(i)).join('\n')}\n`,
    fileNotes: [{ path: 'src/a.ts', notes: ['A caches. [from: c1, 2026-11-20]', 'A is pure. [from: c2, 2026-11-20]'] }],
    topics: [
      {
        name: 'deploy',
        instructions: 'Run the smoke tests first.',
        subscriptions: [{ path: 'docs/deploy.md', text: 'Deploys go through the release train.\n'.repeat(10) }],
        maxBytes: 4096,
      },
      { name: 'style', instructions: 'Prefer small files.', maxBytes: 4096 },
    ],
    searchHits: Array.from({ length: 200 }, (_, i) => line(100 + i, 20)),
    earlierTurns: Array.from({ length: 30 }, (_, i) => ({
      role: i % 2 ? ('assistant' as const) : ('user' as const),
      text: `turn ${i + 1}: ${'talk '.repeat(60)}`,
    })),
    message,
    ...overrides,
  };
}

describe('compileContext', () => {
  it('fills the budget by slot and records what each slot holds and what was cut', () => {
    const compiled = compileContext(input('how do we deploy?'), { budgetTokens: 2000 });
    assert.ok(compiled.tokens <= 2000, String(compiled.tokens));
    assert.equal(compiled.tokens, estimateTokens(compiled.text));
    const slot = Object.fromEntries(compiled.slots.map((s) => [s.slot, s]));
    // Higher slots are whole; the budget runs out in P3 and P4 is left with nothing.
    assert.equal(slot.P1.cut.length, 0);
    assert.equal(slot.P1.included, 3);
    assert.equal(slot.P2.included, 3, 'two topics and one subscription');
    assert.ok(slot.P3.included > 0 && slot.P3.cut.length > 0);
    assert.equal(slot.P3.included + slot.P3.cut.length, 200);
    assert.equal(slot.P4.included, 0);
    assert.equal(slot.P4.cut.length, 30);
    // The slots' bytes are the layers' bytes: with the blank lines between layers they make the text.
    const separators = compiled.boundaries.length - 1;
    assert.equal(compiled.slots.reduce((sum, s) => sum + s.bytes, 0) + separators, Buffer.byteLength(compiled.text, 'utf8'));
    assert.ok(compiled.text.indexOf('{topics}') < compiled.text.indexOf('{search-hits}'));
    // Best hits first: the kept hits are the first ones given.
    assert.ok(compiled.text.includes(line(100, 20)) && !compiled.text.includes(line(299, 20)));
  });

  it('keeps the newest turns of the history when it runs out (a window without holes)', () => {
    const compiled = compileContext(input('hi', { searchHits: [] }), { budgetTokens: 3000 });
    const p4 = compiled.slots.find((s) => s.slot === 'P4')!;
    assert.ok(p4.included > 0 && p4.included < 30, String(p4.included));
    assert.ok(compiled.text.includes('turn 30:'));
    assert.ok(!compiled.text.includes('turn 1:'));
    const first = 30 - p4.included + 1;
    assert.ok(compiled.text.includes(`turn ${first}:`) && !compiled.text.includes(`turn ${first - 1}:`));
    assert.ok(compiled.text.indexOf(`turn ${first}:`) < compiled.text.indexOf('turn 30:'), 'rendered oldest first');
  });

  it("cuts a topic's subscriptions to its max_context_kb", () => {
    const big = { path: 'docs/big.md', text: 'A line of the subscribed file.\n'.repeat(400) };
    const compiled = compileContext(
      input('x', { topics: [{ name: 'big', instructions: 'Read the big file.', subscriptions: [big], maxBytes: 2048 }] }),
    );
    const topics = compiled.boundaries.find((b) => b.layer === 'topics')!;
    assert.ok(topics.endByte - topics.startByte <= 2048 + 200, String(topics.endByte - topics.startByte));
    const p2 = compiled.slots.find((s) => s.slot === 'P2')!;
    assert.deepEqual(
      p2.cut.map((c) => c.why),
      ['topic-cap'],
    );
    assert.match(compiled.text, /cut to the topic's max_context_kb; see docs\/big\.md/);
  });

  it('cuts the digest at a line when it does not fit, and honours a character cap', () => {
    const compiled = compileContext(input('x', { topics: [], searchHits: [], earlierTurns: [] }), { budgetTokens: 8000, maxChars: 900 });
    assert.ok(compiled.text.length <= 900, String(compiled.text.length));
    assert.match(compiled.text, /digest cut for the context budget/);
    assert.equal(compiled.slots.find((s) => s.slot === 'P1')!.cut[0].label, 'digest (the rest)');
  });

  it('gives identical bytes for identical inputs, and the same stable prefix for another message', () => {
    const a = compileContext(input('how do we deploy?'));
    const b = compileContext(input('how do we deploy?'));
    assert.equal(a.text, b.text);
    assert.deepEqual(a.slots, b.slots);
    const c = compileContext(input('and what about rollbacks?'));
    assert.equal(stablePrefix(c), stablePrefix(a));
    assert.notEqual(c.text, a.text);
  });
});

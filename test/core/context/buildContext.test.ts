import * as assert from 'node:assert/strict';
import { buildContext, normalizeBlock, stablePrefix, volatileSuffix } from '../../../src/core/services/context/buildContext';
import { canonicalJson } from '../../../src/core/base/canonicalJson';
import { CONTEXT_LAYERS } from '../../../src/core/services/promptCache/contextLayers';
import { KNOWLEDGE_FRAMING } from '../../../src/core/model/safety/dataFraming';
import { fullInput, TOPIC_INPUT } from './contextFixtures';
import { stripInvisible } from '../../../src/core/model/safety/invisibleChars';

describe('buildContext', () => {
  it('orders the layers stable → volatile and records each one', () => {
    const built = buildContext(fullInput({ topics: [TOPIC_INPUT] }));
    assert.deepEqual(
      built.boundaries.map((b) => b.layer),
      [...CONTEXT_LAYERS],
    );
    assert.deepEqual(
      built.boundaries.map((b) => b.stable),
      [true, true, true, true, true, true, false, false, false, false, false],
    );
    assert.ok(built.text.startsWith('You are a careful coding assistant.\n\n{tools}\n'));
    assert.ok(built.text.endsWith('{message}\nNow make it faster — ça va?\n{/message}\n'));
  });

  it('renders active topics last among the stable layers: instructions as written, subscriptions framed as data', () => {
    const built = buildContext(fullInput({ topics: [TOPIC_INPUT, { name: 'caching', instructions: 'a repeat is dropped' }] }));
    const topics = built.boundaries.find((b) => b.layer === 'topics')!;
    assert.equal(
      built.text.slice(topics.start, topics.end),
      `{topics}\n## topic: caching\n\nKeep the stable prefix byte-identical.\n\n### caching subscribes to docs/cache.md\n${KNOWLEDGE_FRAMING}\nBreakpoints go after the last stable layer.\n{/topics}\n`,
    );
    assert.equal(built.stablePrefixLength, topics.end);
  });

  it('wraps the digest in {knowledge} … {/knowledge}, framed as quoted data', () => {
    const built = buildContext(fullInput());
    const knowledge = built.boundaries.find((b) => b.layer === 'knowledge')!;
    assert.equal(
      built.text.slice(knowledge.start, knowledge.end),
      `{knowledge}\n${KNOWLEDGE_FRAMING}\n# Knowledge digest\n\n## Decisions\n- Use SQLite FTS5 — über fast 🚀 [from: c1, 2026-11-20]\n{/knowledge}\n`,
    );
  });

  it('frames a digest that already carries the framing (as digest.md does) exactly once', () => {
    const digest = `# Knowledge digest\n${KNOWLEDGE_FRAMING}\n\n## Facts\n- f [from: c1, 2026-11-20]\n`;
    const built = buildContext({ digest });
    assert.equal(built.text, `{knowledge}\n${digest}{/knowledge}\n`);
  });

  it('has no knowledge block when digest.md does not exist (delete to turn off)', () => {
    const built = buildContext(fullInput({ digest: undefined }));
    assert.ok(!built.text.includes('{knowledge}'));
    assert.ok(!built.boundaries.some((b) => b.layer === 'knowledge'));
  });

  it('leaves out empty layers instead of rendering empty blocks', () => {
    const built = buildContext({
      tools: [],
      project: '  \n',
      digest: '\n\n',
      fileNotes: [{ path: 'x', notes: [' '] }],
      activeFiles: [],
      message: 'hi',
    });
    assert.equal(built.text, '{message}\nhi\n{/message}\n');
    assert.equal(built.stablePrefixLength, 0);
    assert.equal(built.stablePrefixBytes, 0);
  });

  it('ends the stable prefix after the last stable layer, in UTF-16 units and in UTF-8 bytes', () => {
    const built = buildContext(fullInput());
    const notes = built.boundaries.find((b) => b.layer === 'file-notes')!;
    assert.equal(built.stablePrefixLength, notes.end);
    assert.ok(built.text.slice(0, built.stablePrefixLength).endsWith('{/file-notes}\n'));
    assert.equal(built.stablePrefixBytes, Buffer.byteLength(built.text.slice(0, built.stablePrefixLength), 'utf8'));
    assert.ok(built.stablePrefixBytes > built.stablePrefixLength, 'the digest has multi-byte characters');
    assert.equal(stablePrefix(built) + volatileSuffix(built), built.text);
  });

  it('gives boundaries whose UTF-16 and UTF-8 offsets cut out the same text', () => {
    const built = buildContext(fullInput());
    const bytes = Buffer.from(built.text, 'utf8');
    for (const b of built.boundaries) {
      assert.equal(bytes.subarray(b.startByte, b.endByte).toString('utf8'), built.text.slice(b.start, b.end), b.layer);
    }
    // Layers are separated by exactly one blank line.
    for (let i = 1; i < built.boundaries.length; i++) assert.equal(built.boundaries[i].start, built.boundaries[i - 1].end + 1);
  });

  it('sorts file notes by path and tools by name, whatever order they come in', () => {
    const a = buildContext(fullInput());
    const input = fullInput();
    const b = buildContext({ ...input, fileNotes: [...input.fileNotes!].reverse(), tools: [...input.tools!].reverse() });
    assert.equal(a.text, b.text);
    assert.ok(a.text.indexOf('## src/a.ts') < a.text.indexOf('## src/b.ts'));
    assert.ok(a.text.indexOf('- read_note:') < a.text.indexOf('- search:'));
  });

  it('renders schemas and metadata with sorted keys', () => {
    const one = buildContext({
      tools: [{ name: 't', description: 'd', inputSchema: { b: 1, a: { d: 2, c: 3 } } }],
      discussion: { z: 1, a: 'x' },
    });
    const two = buildContext({
      tools: [{ name: 't', description: 'd', inputSchema: { a: { c: 3, d: 2 }, b: 1 } }],
      discussion: { a: 'x', z: 1 },
    });
    assert.equal(one.text, two.text);
    assert.match(one.text, /input: \{"a":\{"c":3,"d":2\},"b":1\}/);
    assert.match(one.text, /\{discussion\}\na: x\nz: 1\n\{\/discussion\}/);
    assert.equal(canonicalJson(new Map()), '{}');
  });

  it('normalizes CRLF, BOM and trailing whitespace so editors cannot move the boundary', () => {
    const clean = buildContext(fullInput());
    const messy = buildContext(
      fullInput({
        role: '\ufeffYou are a careful coding assistant.   \r\n\r\n',
        digest: fullInput().digest!.replace(/\n/g, '  \r\n') + '\r\n\r\n',
      }),
    );
    assert.equal(messy.text, clean.text);
    assert.equal(normalizeBlock(' a \r\n b\t\n\n'), ' a\n b');
    // The fast path (already clean) and the slow path must agree on every shape.
    for (const text of ['a\n', '\na', 'a\u00a0\nb', 'a\u2003', 'a\n\nb', 'a\vb\n', 'x\u3000\ny', 'clean\ntext']) {
      // Control characters (\v) are invisible characters: stripped first (safety/invisibleChars).
      const slow = stripInvisible(text)
        .replace(/\r\n?/g, '\n')
        .replace(/[^\S\n]+$/gm, '')
        .replace(/^\n+/, '')
        .replace(/\n+$/, '');
      assert.equal(normalizeBlock(text), slow, JSON.stringify(text));
    }
  });

  it('merges repeated paths and drops repeated notes and active files (notes framed as quoted data)', () => {
    const built = buildContext({
      fileNotes: [
        { path: 'a', notes: ['x'] },
        { path: 'a', notes: ['x', 'y'] },
      ],
      activeFiles: ['a', 'b', 'a'],
      message: 'm',
    });
    assert.ok(built.text.includes(`{file-notes}\n${KNOWLEDGE_FRAMING}\n## a\n- x\n- y\n{/file-notes}\n`));
    assert.match(built.text, /\{active-files\}\n- a\n- b\n\{\/active-files\}\n/);
  });

  it('puts search hits after the earlier turns and before the message, in rank order, framed as data', () => {
    const built = buildContext({
      searchHits: ['- second-best? no: best', '- runner-up', '- best-first', '- runner-up'],
      message: 'm',
      digest: 'd',
    });
    assert.equal(
      built.text,
      `{knowledge}\n${KNOWLEDGE_FRAMING}\nd\n{/knowledge}\n\n{search-hits}\n${KNOWLEDGE_FRAMING}\n- second-best? no: best\n- runner-up\n- best-first\n{/search-hits}\n\n{message}\nm\n{/message}\n`,
    );
    assert.equal(built.boundaries.find((b) => b.layer === 'search-hits')?.stable, false);
    assert.equal(buildContext({ searchHits: ['  ', ''] }).text, '');
  });

  it('is the same text for the same input, call after call', () => {
    const texts = new Set(Array.from({ length: 5 }, () => buildContext(fullInput()).text));
    assert.equal(texts.size, 1);
  });
});

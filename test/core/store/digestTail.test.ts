import * as assert from 'node:assert/strict';
import { listItems } from '../../../src/core/model/categoryFile';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { digestSections, digestSectionsFromFiles, digestSectionsFromTexts } from '../../../src/core/store/digest';
import { renderDigest } from '../../../src/core/model/digestFormat';
import { storePaths } from '../../../src/core/store/storePaths';
import { makeTempDir } from '../../helpers/paths';
import { tailItems } from '../../../src/core/model/digestTail';

/** Deterministic PRNG so a failure can be reproduced from its seed. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

const PIECES = [
  '- item [from: c1, 2026-01-01]',
  '- ünïcödé item — detail',
  '* star item',
  '+ plus item',
  '-not an item',
  '  continued line',
  '\tcontinued with tab',
  ' one space',
  '',
  '   ',
  '## Open',
  '## Done',
  '## open ',
  '# Title',
  '### Deep',
  '#hashtag',
  'paragraph text',
  '```',
  '~~~',
  '  ```',
  '```js',
  '- [ ] box',
  '## Someday',
  '-  spaced item',
  '  - nested bullet',
  '\u00a0\u00a0nbsp continued',
  'text ``` inline fence marker',
  '- item with ``` inside',
  '  ~~~',
  '##',
  '## ',
  '-\titem after tab',
];

function randomDoc(rand: () => number): string {
  const lines = Array.from({ length: Math.floor(rand() * 40) }, () => PIECES[Math.floor(rand() * PIECES.length)]);
  const eol = rand() < 0.3 ? '\r\n' : '\n';
  return (rand() < 0.2 ? '\ufeff' : '') + lines.join(eol) + (rand() < 0.7 ? eol : '');
}

describe('digest tail reader', () => {
  it('yields exactly what listItems yields, newest first, over 3,000 random documents', () => {
    const rand = prng(42);
    for (let i = 0; i < 3000; i++) {
      const doc = randomDoc(rand);
      const expectedAll = listItems(doc)
        .map((it) => `- ${it.text}`)
        .reverse();
      assert.deepEqual(tailItems(Buffer.from(doc), { budgetBytes: Infinity }), expectedAll, `doc ${i}: ${JSON.stringify(doc)}`);
      const expectedOpen = listItems(doc)
        .filter((it) => it.section?.trim().toLowerCase() === 'open')
        .map((it) => `- ${it.text}`)
        .reverse();
      assert.deepEqual(
        tailItems(Buffer.from(doc), { budgetBytes: Infinity, section: 'open' }),
        expectedOpen,
        `doc ${i} (open): ${JSON.stringify(doc)}`,
      );
    }
  });

  it('the budgeted digest is byte-identical to the full parse', () => {
    const rand = prng(7);
    for (let i = 0; i < 300; i++) {
      const many = (n: number) => Array.from({ length: n }, () => randomDoc(rand).replace(/^\ufeff/, '')).join('\n');
      const texts = {
        facts: many(30),
        tasks: many(20),
        decisions: randomDoc(rand),
        questions: randomDoc(rand),
        playbooks: randomDoc(rand),
      };
      assert.equal(renderDigest(digestSectionsFromTexts(texts)), renderDigest(digestSections(texts)), `set ${i}`);
    }
  });

  it('reads the files on disk the same way (digestSectionsFromFiles)', () => {
    const root = makeTempDir();
    const texts = { facts: '\ufeff# Facts\r\n\r\n- a\r\n  wrapped\r\n- b\r\n', tasks: '# Tasks\n\n## Open\n\n- t\n\n## Done\n\n- d\n' };
    fs.writeFileSync(path.join(root, 'facts.md'), texts.facts);
    fs.writeFileSync(path.join(root, 'tasks.md'), texts.tasks);
    assert.deepEqual(digestSectionsFromFiles(storePaths(root)), digestSections(texts));
  });

  it('stops reading once the budget is spent', () => {
    const doc = '# Facts\n' + Array.from({ length: 10_000 }, (_, i) => `- fact number ${i}`).join('\n') + '\n';
    const items = tailItems(Buffer.from(doc), { budgetBytes: 4096 });
    assert.equal(items[0], '- fact number 9999');
    assert.ok(items.length < 300, String(items.length));
  });
});

import * as assert from 'node:assert/strict';
import { normalizeBlock } from '../../../src/core/services/context/buildContext';
import { updateInstructionText } from '../../../src/core/store/instructionSync';
import { stripInvisible } from '../../../src/core/model/safety/invisibleChars';
import { digestSections } from '../../../src/core/store/digest';
import { renderDigest } from '../../../src/core/model/digestFormat';

/** One of each kind an agent reads and a person does not see. */
const HIDDEN = [
  '\u202a',
  '\u202b',
  '\u202c',
  '\u202d',
  '\u202e', // bidi embeddings and overrides
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069', // bidi isolates
  '\u200b',
  '\u200c',
  '\u200d',
  '\u200e',
  '\u200f', // zero-width and marks
  '\u2060',
  '\u2061',
  '\u2062',
  '\u2063',
  '\u2064',
  '\ufeff',
  '\u00ad', // word joiner, invisible operators, BOM, soft hyphen
  '\u{E0001}',
  '\u{E0041}',
  '\u{E007F}', // tag characters (a hidden sentence)
  '\u0000',
  '\u0007',
  '\u001b',
  '\u007f',
  '\u0085', // other controls
];
const hasHidden = (text: string) => HIDDEN.some((c) => text.includes(c));
const FACT = `- The API key lives in Vault${HIDDEN.join('')}, never in .env [from: c1, 2026-11-20]`;
const SHOWN = '- The API key lives in Vault, never in .env [from: c1, 2026-11-20]';

describe('invisible characters', () => {
  it('are stripped, and tab, line breaks, accents, CJK and emoji stay', () => {
    assert.equal(stripInvisible(`a${HIDDEN.join('')}b`), 'ab');
    const visible = 'tab\there\nline\r\nnaïve café 日本語 Привет 🙂';
    assert.equal(stripInvisible(visible), visible);
  });

  it('never reach digest.md, the instruction-file block or a context layer', () => {
    const digest = renderDigest(digestSections({ facts: `# Facts\n\n${FACT}\n` }))!;
    assert.ok(digest.includes(SHOWN), digest);
    assert.ok(!hasHidden(digest), 'digest.md');
    // An older digest.md still holding them (or one edited by hand) is stripped when the block is written.
    const block = updateInstructionText('# Agents\n', `# Knowledge digest\n\n## Facts\n${FACT}\n`)!;
    assert.ok(block.includes(SHOWN), block);
    assert.ok(!hasHidden(block), 'AGENTS.md block');
    const layer = normalizeBlock(`## Facts\n${FACT}\n`);
    assert.equal(layer, `## Facts\n${SHOWN}`);
  });
});

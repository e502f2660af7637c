import * as assert from 'node:assert/strict';
import { parseFrontmatter } from '../../../src/core/base/yamlFrontmatter';
import { yamlScalar } from '../../../src/core/model/transcriptSyntax';

/** What yamlScalar means, asked of the YAML parser itself: plain when it reads back as the text (or, for a timestamp, as a date). */
function byParser(value: string, timestamp: boolean): string {
  const flat = value.replace(/\s+/g, ' ');
  if (flat !== '' && flat === flat.trim()) {
    let back: unknown;
    try {
      back = parseFrontmatter(`---\nk: ${flat}\n---\n`).data.k;
    } catch {
      back = undefined; // Not YAML at all: quoted.
    }
    if (back === flat || (timestamp && back instanceof Date && /^\d{4}-\d{2}-\d{2}/.test(flat))) return flat;
  }
  return JSON.stringify(flat);
}

/** A small deterministic generator, so that a failure names a value that fails again. */
function* strings(count: number): Generator<string> {
  const alphabet = 'aZ_/.-09eE:# ~!&*?|>@`"\'%,[]{}';
  let seed = 20_261_207;
  for (let i = 0; i < count; i++) {
    let s = '';
    const length = 1 + (i % 7);
    for (let j = 0; j < length; j++) {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      s += alphabet[seed % alphabet.length];
    }
    yield s;
  }
}

describe('yamlScalar', () => {
  it('writes header values plain exactly when YAML reads them back as written', () => {
    const values = [
      ...['true', 'True', 'FALSE', 'null', 'Null', 'yes', 'No', 'on', 'OFF', 'y', 'n', '~', '.inf', '.NaN', '-.inf', '<<', '=', '_', '/'],
      ...['4986ca71-6cc0-4dd7-a64c-2eef2fd97e9f', 'abcdef12-0000-4000-8000-000000000000', 'e1', 'E5', '0x1F', '0o17', '1e3', '12', '1.5'],
      ...['claude-sonnet-4-5', 'gpt-5.1-codex', '/Users/dev/work/data-pipeline', 'C:/work', 'a: b', 'a #b', 'a#b', '-x', '?x', 'x-', 'x.'],
      ...[
        '2025-03-23T12:21:19.000Z',
        '2025-03-23T12:21:19Z',
        '2025-13-45T99:99:99Z',
        '2025-03-23',
        '2025-03-23 12:21:19',
        '2025-03-23T12:21:19+02:00',
      ],
      ...strings(3000),
    ];
    for (const value of values) {
      for (const timestamp of [false, true])
        assert.equal(yamlScalar(value, timestamp), byParser(value, timestamp), `${value} (${timestamp})`);
    }
  });
});

import * as assert from 'node:assert/strict';
import { cleanText, forEachJsonLine, trimBlankLines } from '../../../src/core/services/conversations/importSupport';

/** What trimBlankLines did line by line before it searched the text: the definition it must keep. */
function trimByLines(text: string): string {
  const lines = text.split('\n');
  let start = 0;
  while (start < lines.length && lines[start].trim() === '') start++;
  return lines.slice(start).join('\n').trimEnd();
}

const ODD_TEXTS = [
  '',
  '\n\n',
  ' \t \n',
  'one',
  '\n\n  indented\nnext  \n\n',
  '\u00a0\n\ufeff\n x', // no-break space and BOM lines are blank to trim()
  '\u2028 \nafter a line separator',
  ' \r\n\r\ntext\r\n',
  'a\u0000b\r\nc\rd',
  '\ud83d\n\n',
];

describe('importSupport text helpers', () => {
  it('trimBlankLines drops the same leading blank lines and trailing whitespace as splitting into lines', () => {
    for (const text of ODD_TEXTS) assert.equal(trimBlankLines(text), trimByLines(text), JSON.stringify(text));
  });

  it('cleanText removes NULs and makes every line end a line feed, and returns clean text as it is', () => {
    assert.equal(cleanText('a\u0000b\r\nc\rd\n'), 'ab\nc\nd\n');
    assert.equal(cleanText('a\u0000b'), 'ab');
    assert.equal(cleanText('x\r\r\ny'), 'x\n\ny');
    for (const text of ODD_TEXTS) assert.equal(cleanText(text), text.replace(/\u0000/g, '').replace(/\r\n?/g, '\n'));
  });

  it('forEachJsonLine reads each line, blank and padded ones included, and counts the malformed', () => {
    const records: unknown[] = [];
    const skipped: Record<string, number> = {};
    forEachJsonLine('{"a":1}\n\n  {"b":2}\u00a0\n[1]\nnot json\n{"c":3}', skipped, (record) => records.push(record));
    assert.deepEqual(records, [{ a: 1 }, { b: 2 }, { c: 3 }]);
    assert.deepEqual(skipped, { malformed: 2 });
  });
});

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { appendCapped, readCappedLines } from '../../../src/core/store/cappedLog';

describe('capped logs (the spending, gate, usage and hook logs)', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lore-capped-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('moves a full log aside to <file>.1 and reads both back, the older lines first', () => {
    const file = path.join(dir, '.logs', 'spending.jsonl');
    appendCapped(file, 'one\ntwo\n', 8);
    // The log reached its cap: the next append starts a new file after moving this one aside.
    appendCapped(file, 'three\n', 8);
    assert.equal(fs.readFileSync(`${file}.1`, 'utf8'), 'one\ntwo\n');
    assert.equal(fs.readFileSync(file, 'utf8'), 'three\n');
    assert.deepEqual(readCappedLines(file), ['one', 'two', 'three']);
  });

  it('reads nothing from a log that was never written, and skips blank lines', () => {
    const file = path.join(dir, 'gates.jsonl');
    assert.deepEqual(readCappedLines(file), []);
    fs.writeFileSync(file, 'a\n\n  \nb\n');
    assert.deepEqual(readCappedLines(file), ['a', 'b']);
  });
});

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { appendItems } from '../../../src/core/model/categoryFile';
import { FileBusyError, recoverStaleAsides, replaceGuarded } from '../../../src/core/base/guardedReplace';
import { replaceTextGuarded } from '../../../src/core/base/storeText';
import { StoreEntryError } from '../../../src/core/base/storeLinks';
import { decodeLossless, encodeLossless } from '../../../src/core/base/losslessText';
import { setClock } from '../../../src/core/base/clock';
import { skippingClock } from '../../helpers/engineClock';
import { makeTempDir } from '../../helpers/paths';

const LORE_LINE = '- lore fact [from: c1, 2026-11-20]';
const appendLore = (text: string | undefined) => appendItems(text, 'Facts', [LORE_LINE]);

function strayFiles(dir: string): string[] {
  return fs.readdirSync(dir).filter((n) => n.endsWith('.tmp') || n.includes('.lore-prev-'));
}

describe('lossless text', () => {
  it('round-trips any bytes, including invalid UTF-8, through a string', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 2000; i++) {
      const bytes = Buffer.from(Array.from({ length: Math.floor(random() * 40) }, () => Math.floor(random() * 256)));
      assert.ok(encodeLossless(decodeLossless(bytes)).equals(bytes), bytes.toString('hex'));
    }
    for (const hex of ['e9', 'c3', 'eda080', 'f4908080', 'c0af', 'f09f9880', 'e282ac', 'ff00fe']) {
      const bytes = Buffer.from(hex, 'hex');
      assert.ok(encodeLossless(decodeLossless(bytes)).equals(bytes), hex);
    }
    assert.equal(decodeLossless(Buffer.from('naïve ✓', 'utf8')), 'naïve ✓');
  });
});

describe('guarded replacement of a file people edit', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = makeTempDir('lore-guard-');
    file = path.join(dir, 'facts.md');
  });

  it("keeps invalid UTF-8 and each line's own line break; only the added line is new", () => {
    const before = Buffer.concat([
      Buffer.from('# Facts\r\n\r\n- caf'),
      Buffer.from([0xe9]),
      Buffer.from(' in Latin-1 [from: a, 2026-01-01]\n'),
      Buffer.from('- binary '),
      Buffer.from([0xff, 0xfe, 0x00, 0x80]),
      Buffer.from(' bytes\r\n- lf line\n'),
    ]);
    fs.writeFileSync(file, before);
    replaceTextGuarded(file, appendLore).settle();
    assert.ok(fs.readFileSync(file).equals(Buffer.concat([before, Buffer.from(LORE_LINE + '\n')])));
  });

  it("watches a file saved by someone else moments ago for the settle window, measured on the engine's clock; not one it wrote itself, nor one saved long ago", () => {
    const clock = skippingClock();
    const restore = setClock(clock);
    try {
      fs.writeFileSync(file, '# Facts\n\n- typed [from: a, 2026-01-01]\n'); // A person's save, just now.
      replaceTextGuarded(file, appendLore).settle();
      const watched = clock.skipped;
      assert.ok(watched >= 400, `waited ${watched} ms for a stale save of the file being edited`);
      replaceTextGuarded(file, (text) => appendItems(text, 'Facts', ['- second [from: c1, 2026-11-20]'])).settle();
      assert.equal(clock.skipped, watched, 'the version it wrote itself is not being edited');
      fs.writeFileSync(file, '# Facts\n\n- typed long ago [from: a, 2026-01-01]\n');
      const longAgo = new Date(clock.now() - 60_000);
      fs.utimesSync(file, longAgo, longAgo);
      replaceTextGuarded(file, appendLore).settle();
      assert.equal(clock.skipped, watched, 'a file saved a minute ago is not being edited');
      assert.equal(fs.readFileSync(file, 'utf8'), `# Facts\n\n- typed long ago [from: a, 2026-01-01]\n${LORE_LINE}\n`);
    } finally {
      restore();
    }
  });

  it('re-applies its edit when the file changes between its read and its write', () => {
    fs.writeFileSync(file, '# Facts\n\n- old [from: a, 2026-01-01]\n');
    let calls = 0;
    const result = replaceTextGuarded(file, (text) => {
      // A person saves while Lore is computing its change.
      if (calls++ === 0) fs.appendFileSync(file, '- typed meanwhile\n');
      return appendLore(text);
    }).settle();
    assert.equal(fs.readFileSync(file, 'utf8'), `# Facts\n\n- old [from: a, 2026-01-01]\n- typed meanwhile\n${LORE_LINE}\n`);
    assert.ok(result.rebased >= 1);
    assert.deepEqual(strayFiles(dir), []);
  });

  it('merges what an appender wrote into the replaced file after the swap', () => {
    fs.writeFileSync(file, '# Facts\n\n- old [from: a, 2026-01-01]\n');
    const appender = fs.openSync(file, 'a'); // Opened before Lore's rename: writes go to the old file.
    const replaced = replaceTextGuarded(file, appendLore);
    fs.writeSync(appender, '- appended late\n');
    fs.closeSync(appender);
    replaced.settle();
    const text = fs.readFileSync(file, 'utf8');
    assert.ok(text.includes('- appended late\n') && text.includes(LORE_LINE), text);
    assert.deepEqual(strayFiles(dir), []);
  });

  it('re-applies its lines when an editor saves an older buffer over the new file', () => {
    const old = '# Facts\n\n- old [from: a, 2026-01-01]\n';
    fs.writeFileSync(file, old);
    const replaced = replaceTextGuarded(file, appendLore);
    fs.writeFileSync(file, old + '- edited in a stale buffer\n');
    replaced.settle();
    assert.equal(fs.readFileSync(file, 'utf8'), `${old}- edited in a stale buffer\n${LORE_LINE}\n`);
  });

  it('applies an edit once when the file is as it wrote it, even an edit that would never find its line (half an emoji)', () => {
    fs.writeFileSync(file, '# Facts\n\n- old [from: a, 2026-01-01]\n');
    // U+D83D alone is written as U+FFFD, so this edit never sees its line as there.
    const line = '- half \ud83d an emoji [from: c1, 2026-11-20]';
    replaceTextGuarded(file, (text) => (text!.includes(line) ? undefined : `${text}${line}\n`)).settle();
    assert.equal(fs.readFileSync(file, 'utf8'), '# Facts\n\n- old [from: a, 2026-01-01]\n- half \ufffd an emoji [from: c1, 2026-11-20]\n');
  });

  it('leaves a file a person deleted right after the write deleted', () => {
    fs.writeFileSync(file, '# Facts\n\n- old [from: a, 2026-01-01]\n- x\n\n');
    const replaced = replaceTextGuarded(file, appendLore);
    fs.rmSync(file);
    replaced.settle();
    assert.equal(fs.existsSync(file), false);
  });

  it('gives up with FileBusyError on a file that never holds still, losing nothing', () => {
    fs.writeFileSync(file, '# Facts\n');
    let n = 0;
    assert.throws(
      () =>
        replaceTextGuarded(
          file,
          (text) => {
            fs.appendFileSync(file, `- save ${n++}\n`);
            return appendLore(text);
          },
          { patienceMs: 200 },
        ),
      FileBusyError,
    );
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    for (let i = 0; i < n; i++) assert.ok(lines.includes(`- save ${i}`), `save ${i} lost`);
    assert.deepEqual(strayFiles(dir), []);
  });

  it('refuses a folder where the file should be, naming it', () => {
    fs.mkdirSync(file);
    assert.throws(
      () => replaceGuarded(file, () => Buffer.from('x')),
      (error: Error) => error instanceof StoreEntryError && error.message === `${file} is a folder, not a file: move it away and run again`,
    );
  });

  it('recovers bytes left waiting beside their file by a crash', () => {
    fs.writeFileSync(file, '# Facts\n\n- kept [from: a, 2026-01-01]\n');
    fs.writeFileSync(path.join(dir, '.facts.md.lore-prev-123abc'), '# Facts\n\n- kept [from: a, 2026-01-01]\n- only in the waiting copy\n');
    fs.writeFileSync(path.join(dir, '.decisions.md.lore-prev-456def'), '# Decisions\n\n- restored\n');
    recoverStaleAsides(dir);
    assert.equal(fs.readFileSync(file, 'utf8'), '# Facts\n\n- kept [from: a, 2026-01-01]\n- only in the waiting copy\n');
    assert.equal(fs.readFileSync(path.join(dir, 'decisions.md'), 'utf8'), '# Decisions\n\n- restored\n');
    assert.deepEqual(strayFiles(dir), []);
  });
});

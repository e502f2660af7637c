import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LedgerCorruptError, readLedger, serializeLedger, writeLedger } from '../../../src/core/store/ledger';
import { makeTempDir } from '../../helpers/paths';

describe('ledger', () => {
  it('serializes with sorted keys at every level', () => {
    const text = serializeLedger({
      entries: {
        bbb: {
          status: 'harvested',
          path: '/x',
          at: '2026-01-01T00:00:00.000Z',
          deleted: true,
          items: { tasks_open: 0, facts: 1 } as never,
        },
        aaa: { status: 'too-large', path: '/y', at: '2026-01-01T00:00:00.000Z', deleted: false },
      },
    });
    assert.ok(text.indexOf('"aaa"') < text.indexOf('"bbb"'));
    const bbb = text.slice(text.indexOf('"bbb"'));
    assert.ok(
      bbb.indexOf('"at"') < bbb.indexOf('"deleted"') &&
        bbb.indexOf('"deleted"') < bbb.indexOf('"items"') &&
        bbb.indexOf('"path"') < bbb.indexOf('"status"'),
    );
    assert.ok(bbb.indexOf('"facts"') < bbb.indexOf('"tasks_open"'));
    assert.ok(text.endsWith('}\n'));
  });

  it('round-trips through disk and treats a missing file as empty', () => {
    const file = path.join(makeTempDir(), 'ledger.json');
    assert.deepEqual(readLedger(file), { entries: {} });
    writeLedger(file, { entries: { abc: { path: '/p', status: 'harvest-failed', at: 'now', deleted: false, error: 'boom' } } });
    assert.equal(readLedger(file).entries.abc.error, 'boom');
  });

  it('writes paths inside the store relative to it, reads them back absolute, and reads an old absolute ledger of a store that moved', () => {
    const root = path.join(makeTempDir(), '.lore');
    fs.mkdirSync(path.join(root, 'archive', '2026-11'), { recursive: true });
    const file = path.join(root, 'ledger.json');
    const archived = path.join(root, 'archive', '2026-11', 'ses-a.md');
    const outside = path.join(path.dirname(root), 'sessions', 'ses-b.jsonl');
    const at = '2026-11-20T00:00:00.000Z';
    writeLedger(file, {
      entries: {
        a: { path: path.join(root, 'inbox', 'ses-a.md'), archived, status: 'harvested', at, deleted: false },
        b: { path: outside, status: 'harvested', at, deleted: false },
      },
    });
    const stored = JSON.parse(fs.readFileSync(file, 'utf8'));
    assert.deepEqual(
      [stored.entries.a.path, stored.entries.a.archived, stored.entries.b.path],
      ['inbox/ses-a.md', 'archive/2026-11/ses-a.md', outside],
    );
    const read = readLedger(file);
    assert.deepEqual(
      [read.entries.a.path, read.entries.a.archived, read.entries.b.path],
      [path.join(root, 'inbox', 'ses-a.md'), archived, outside],
    );

    // A ledger written before, with absolute paths of the store's old place: they name this store's files.
    const old = '/home/someone/old-project/.lore';
    fs.writeFileSync(
      file,
      JSON.stringify({
        entries: {
          a: { path: `${old}/inbox/ses-a.md`, archived: `${old}/archive/2026-11/ses-a.md`, status: 'harvested', at, deleted: false },
          b: { path: '/home/someone/.claude/x.jsonl', status: 'harvested', at, deleted: false },
        },
      }),
    );
    const migrated = readLedger(file);
    assert.deepEqual(
      [migrated.entries.a.path, migrated.entries.a.archived, migrated.entries.b.path],
      [path.join(root, 'inbox', 'ses-a.md'), archived, '/home/someone/.claude/x.jsonl'],
    );
  });

  it('refuses a corrupt ledger with a message saying what to do, and leaves it untouched', () => {
    const file = path.join(makeTempDir(), 'ledger.json');
    fs.writeFileSync(file, '{"entries": {"abc": ');
    assert.throws(
      () => readLedger(file),
      (error: Error) => error instanceof LedgerCorruptError && /fix the JSON or move the file away/.test(error.message),
    );
    fs.writeFileSync(file, '[1,2]');
    assert.throws(() => readLedger(file), LedgerCorruptError);
    assert.equal(fs.readFileSync(file, 'utf8'), '[1,2]');
  });

  it('validates every entry when read: wrong types, unknown statuses and arrays are refused, naming what is wrong', () => {
    const file = path.join(makeTempDir(), 'ledger.json');
    const entry = { path: '/p', status: 'harvested', at: '2026-01-01T00:00:00.000Z', deleted: true };
    const refuse = (ledger: unknown, problem: RegExp) => {
      fs.writeFileSync(file, JSON.stringify(ledger));
      assert.throws(
        () => readLedger(file),
        (error: Error) =>
          error instanceof LedgerCorruptError && error.message.startsWith(`${file} is not a valid ledger`) && problem.test(error.message),
      );
    };
    refuse({ entries: [] }, /entries: /);
    refuse({ entries: { abc: [] } }, /entries\.abc: /);
    refuse({ entries: { abc: { ...entry, deleted: 'yes' } } }, /entries\.abc\.deleted: /);
    refuse({ entries: { abc: { ...entry, status: 'eaten' } } }, /entries\.abc\.status: /);
    refuse({ entries: { abc: { ...entry, items: { facts: -1 } } } }, /entries\.abc\.items\.facts: /);
    refuse({ entries: { abc: { ...entry, path: 7 } } }, /entries\.abc\.path: /);
    refuse({}, /entries: /);
    // Fields Lore does not know (a newer version's) are kept, and written back.
    fs.writeFileSync(file, JSON.stringify({ entries: { abc: { ...entry, future: { x: 1 } } }, note: 'hi' }));
    const ledger = readLedger(file);
    assert.deepEqual((ledger.entries.abc as unknown as { future: unknown }).future, { x: 1 });
    assert.match(serializeLedger(ledger), /"future": \{\n\s+"x": 1/);
  });

  it('refuses a ledger nested 100,000 levels deep when reading it, without overflowing the stack', () => {
    const file = path.join(makeTempDir(), 'ledger.json');
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const entry = '{"path":"/p","status":"harvested","at":"2026-01-01T00:00:00.000Z","deleted":true,"extra":' + deep + '}';
    for (const text of [`{"entries":{"abc":${entry}}}`, `{"entries":${deep}}`, deep]) {
      fs.writeFileSync(file, text);
      assert.throws(
        () => readLedger(file),
        (error: Error) => error instanceof LedgerCorruptError && /nested deeper than 32 levels/.test(error.message),
      );
    }
  });

  it('names the file when ledger.json is a folder', () => {
    const file = path.join(makeTempDir(), 'ledger.json');
    fs.mkdirSync(file);
    assert.throws(
      () => readLedger(file),
      (error: NodeJS.ErrnoException) => error.code === 'EISDIR' && error.path === file,
    );
  });
});

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LedgerCorruptError, readLedger, serializeLedger, writeLedger } from '../../../src/core/store/ledger';
import { makeTempDir } from '../../helpers/paths';

describe('ledger', () => {
  it('serializes with sorted keys at every level', () => {
    const text = serializeLedger({
      entries: {
        bbb: { status: 'harvested', path: '/x', at: '2026-01-01T00:00:00.000Z', deleted: true, items: { tasks_open: 0, facts: 1 } as never },
        aaa: { status: 'too-large', path: '/y', at: '2026-01-01T00:00:00.000Z', deleted: false },
      },
    });
    assert.ok(text.indexOf('"aaa"') < text.indexOf('"bbb"'));
    const bbb = text.slice(text.indexOf('"bbb"'));
    assert.ok(bbb.indexOf('"at"') < bbb.indexOf('"deleted"') && bbb.indexOf('"deleted"') < bbb.indexOf('"items"') && bbb.indexOf('"path"') < bbb.indexOf('"status"'));
    assert.ok(bbb.indexOf('"facts"') < bbb.indexOf('"tasks_open"'));
    assert.ok(text.endsWith('}\n'));
  });

  it('round-trips through disk and treats a missing file as empty', () => {
    const file = path.join(makeTempDir(), 'ledger.json');
    assert.deepEqual(readLedger(file), { entries: {} });
    writeLedger(file, { entries: { abc: { path: '/p', status: 'harvest-failed', at: 'now', deleted: false, error: 'boom' } } });
    assert.equal(readLedger(file).entries.abc.error, 'boom');
  });

  it('refuses a corrupt ledger with a message saying what to do, and leaves it untouched', () => {
    const file = path.join(makeTempDir(), 'ledger.json');
    fs.writeFileSync(file, '{"entries": {"abc": ');
    assert.throws(() => readLedger(file), (error: Error) => error instanceof LedgerCorruptError && /fix the JSON or move the file away/.test(error.message));
    fs.writeFileSync(file, '[1,2]');
    assert.throws(() => readLedger(file), LedgerCorruptError);
    assert.equal(fs.readFileSync(file, 'utf8'), '[1,2]');
  });
});

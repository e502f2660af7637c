import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { classifyConversations, dryRunTotals } from '../../../src/core/harvest/classify';
import { makeTempDir } from '../../helpers/paths';

describe('dry-run classification', () => {
  it('classifies by content, size, encoding, ledger and budget without parsing', () => {
    const dir = makeTempDir();
    const write = (name: string, data: string | Buffer) => {
      fs.writeFileSync(path.join(dir, name), data);
      return { path: path.join(dir, name), inInbox: true };
    };
    const sha = (data: string) => createHash('sha256').update(data).digest('hex');
    const files = [
      write('a.md', 'hello a'),
      write('b.md', 'hello a'),
      write('done.md', 'old'),
      write('failed.md', 'failed before'),
      write('big.md', 'x'.repeat(1024 * 1024 + 1)),
      write('bin.md', Buffer.from([0x68, 0x00, 0x69])),
      write('latin1.txt', Buffer.from([0x63, 0x61, 0x66, 0xe9])),
      write('empty.md', '  \n'),
      write('c.md', 'y'.repeat(100)),
    ];
    const ledger = {
      entries: {
        [sha('old')]: { path: '/x', status: 'harvested' as const, at: '', deleted: false },
        [sha('failed before')]: { path: '/y', status: 'harvest-failed' as const, at: '', deleted: false },
      },
    };
    const out = classifyConversations(files, ledger, { maxHarvestBytes: 30 });
    assert.deepEqual(out.map((c) => [path.basename(c.path), c.class]), [
      ['a.md', 'harvest'],
      ['b.md', 'duplicate'],
      ['done.md', 'harvested'],
      ['failed.md', 'retry'],
      ['big.md', 'too-large'],
      ['bin.md', 'binary'],
      ['latin1.txt', 'binary'],
      ['empty.md', 'empty'],
      ['c.md', 'deferred'],
    ]);
    assert.equal(out[0].sha256, sha('hello a'));
    const totals = dryRunTotals(out);
    assert.equal(totals.harvestBytes, 7 + 13);
    assert.equal(totals.estimatedTokens, 5);
    assert.equal(totals.reclaimable, 2);
  });

  it('marks recently written agent logs outside the inbox as live', () => {
    const dir = makeTempDir();
    const log = path.join(dir, 's.jsonl');
    const md = path.join(dir, 'n.md');
    fs.writeFileSync(log, '{}\n');
    fs.writeFileSync(md, 'note');
    const now = Date.now();
    const out = classifyConversations([{ path: log, inInbox: false }, { path: md, inInbox: false }], { entries: {} }, { liveWindowMs: 60_000, now });
    assert.deepEqual(out.map((c) => c.class), ['live', 'harvest']);
    const old = new Date(now - 120_000);
    fs.utimesSync(log, old, old);
    assert.equal(classifyConversations([{ path: log, inInbox: false }], { entries: {} }, { liveWindowMs: 60_000, now })[0].class, 'harvest');
  });
});

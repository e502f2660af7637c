import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { classifyConversations, dryRunTotals, keptDuplicates } from '../../../src/core/services/harvest/classify';
import { makeTempDir } from '../../helpers/paths';

describe('dry-run classification', () => {
  it('classifies by content, rendered size, encoding, ledger and budget', () => {
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
    const unbudgeted = classifyConversations(files, ledger);
    const rendered = (name: string) => unbudgeted.find((c) => path.basename(c.path) === name)!.renderedBytes!;
    // a.md and failed.md fit the budget; c.md would be one byte over it.
    const out = classifyConversations(files, ledger, { maxHarvestBytes: rendered('a.md') + rendered('failed.md') + rendered('c.md') - 1 });
    assert.deepEqual(
      out.map((c) => [path.basename(c.path), c.class]),
      [
        ['a.md', 'harvest'],
        ['b.md', 'duplicate'],
        ['done.md', 'harvested'],
        ['failed.md', 'retry'],
        ['big.md', 'too-large'],
        ['bin.md', 'binary'],
        ['latin1.txt', 'binary'],
        ['empty.md', 'empty'],
        ['c.md', 'deferred'],
      ],
    );
    assert.equal(out[0].sha256, sha('hello a'));
    const totals = dryRunTotals(out);
    assert.equal(totals.harvestBytes, rendered('a.md') + rendered('failed.md'));
    assert.equal(totals.harvestRawBytes, 7 + 13);
    assert.equal(totals.estimatedTokens, Math.ceil(totals.harvestBytes / 4));
    assert.equal(out[0].format, 'plain');
    assert.equal(out[0].turns, 1);
    // Rendered as a transcript (front matter, heading), plain text grows rather than shrinks.
    assert.ok(rendered('a.md') > 7);
    assert.equal(out[4].reason, 'rendered transcript over 1.0 MB');
    assert.equal(totals.reclaimable, 2);
  });

  it('counts an inbox copy as reclaimable only when --apply proves its content: a copy of a kept file is kept', () => {
    const dir = makeTempDir();
    const write = (name: string, data: string | Buffer) => {
      fs.writeFileSync(path.join(dir, name), data);
      return { path: path.join(dir, name), inInbox: true };
    };
    const files = [
      write('a.md', 'hello a'),
      write('a-copy.md', 'hello a'),
      write('bin.md', Buffer.from([0x68, 0x00])),
      write('bin-copy.md', Buffer.from([0x68, 0x00])),
      write('blank.md', ' \n'),
      write('blank-copy.md', ' \n'),
    ];
    const out = classifyConversations(files, { entries: {} });
    assert.deepEqual(
      out.map((c) => c.class),
      ['harvest', 'duplicate', 'binary', 'duplicate', 'empty', 'duplicate'],
    );
    assert.deepEqual(
      keptDuplicates(out).map((c) => path.basename(c.path)),
      ['bin-copy.md', 'blank-copy.md'],
    );
    assert.equal(dryRunTotals(out).reclaimable, 1);
  });

  it('marks recently written agent logs outside the inbox as live', () => {
    const dir = makeTempDir();
    const log = path.join(dir, 's.jsonl');
    const md = path.join(dir, 'n.md');
    fs.writeFileSync(log, '{}\n');
    fs.writeFileSync(md, 'note');
    const now = Date.now();
    const out = classifyConversations(
      [
        { path: log, inInbox: false },
        { path: md, inInbox: false },
      ],
      { entries: {} },
      { liveWindowMs: 60_000, now },
    );
    assert.deepEqual(
      out.map((c) => c.class),
      ['live', 'harvest'],
    );
    // The report says why it waits and from when a harvest picks it up.
    const written = new Date(now - 20_000);
    fs.utimesSync(log, written, written);
    const reason = classifyConversations([{ path: log, inInbox: false }], { entries: {} }, { liveWindowMs: 60_000, now })[0].reason;
    assert.equal(
      reason,
      'changed 20 seconds ago, so an agent may still be writing it; the first harvest after 40 seconds more without a change picks it up',
    );
    const old = new Date(now - 120_000);
    fs.utimesSync(log, old, old);
    assert.equal(
      classifyConversations([{ path: log, inInbox: false }], { entries: {} }, { liveWindowMs: 60_000, now })[0].class,
      'unrecognized', // no longer live, so read: and `{}` has no turns
    );
  });

  it('keeps a raw file over the raw cap as too-large without reading it whole, hashed all the same', () => {
    const dir = makeTempDir();
    const file = path.join(dir, 'huge.jsonl');
    const data = 'z'.repeat(3 * 1024 * 1024 + 5);
    fs.writeFileSync(file, data);
    const [c] = classifyConversations([{ path: file, inInbox: true }], { entries: {} }, { maxRawBytes: 2 * 1024 * 1024 });
    assert.equal(c.class, 'too-large');
    assert.equal(c.reason, 'raw file over 2.0 MB, not read');
    assert.equal(c.bytes, data.length);
    assert.equal(c.sha256, createHash('sha256').update(data).digest('hex'));
    assert.equal(c.renderedBytes, undefined);
  });

  it('measures what the model reads: a Claude Code log whose tool output is large renders small', () => {
    const dir = makeTempDir();
    const file = path.join(dir, 'session.jsonl');
    const base = { isSidechain: false, cwd: '/w', sessionId: 's-1', type: 'user' };
    const lines = [
      JSON.stringify({ ...base, uuid: 'u0', timestamp: '2026-11-20T08:00:00.000Z', message: { role: 'user', content: 'Run it.' } }),
      JSON.stringify({
        ...base,
        uuid: 'u1',
        timestamp: '2026-11-20T08:00:02.000Z',
        message: { role: 'user', content: [{ tool_use_id: 't', type: 'tool_result', content: 'o'.repeat(200_000) }] },
      }),
    ];
    fs.writeFileSync(file, lines.join('\n') + '\n');
    const [c] = classifyConversations([{ path: file, inInbox: true }], { entries: {} });
    assert.equal(c.class, 'harvest');
    assert.equal(c.format, 'claude-code');
    assert.equal(c.started, '2026-11-20T08:00:00.000Z');
    assert.ok(c.bytes > 200_000 && c.renderedBytes! < 1000, `raw ${c.bytes}, rendered ${c.renderedBytes}`);
    assert.equal(dryRunTotals([c]).overSummarizeThreshold, 0);
  });
});

import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { acquireStoreLock, StoreLockedError } from '../../../src/core/base/storeLock';
import { makeTempDir } from '../../helpers/paths';

describe('store lock', () => {
  it('excludes another process until it releases, naming it and never advising to delete a live lock', async () => {
    const root = makeTempDir();
    // Another Lore process, alive, holds the store.
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      fs.writeFileSync(
        path.join(root, '.lock'),
        JSON.stringify({ pid: other.pid, host: os.hostname(), at: '2026-11-28T10:00:00.000Z', command: 'lore harvest' }),
      );
      await assert.rejects(acquireStoreLock(root, 150), (error: Error) => {
        assert.ok(error instanceof StoreLockedError);
        assert.equal(
          error.message,
          `the store is locked by another Lore process (pid ${other.pid} (lore harvest) on ${os.hostname()} since 2026-11-28T10:00:00.000Z); wait for it to finish, or stop that process, then run again`,
        );
        return true;
      });
    } finally {
      other.kill();
    }
    await new Promise((resolve) => other.once('exit', resolve));
    const lock = await acquireStoreLock(root, 150);
    lock.release();
    assert.ok(!fs.existsSync(path.join(root, '.lock')));
  });

  it("queues one process's parallel writers instead of locking them out of their own lock", async () => {
    const root = makeTempDir();
    const order: number[] = [];
    let inside = 0;
    await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        // A short timeout: only another process may make a writer wait on the file.
        const lock = await acquireStoreLock(root, 100);
        inside++;
        assert.equal(inside, 1, 'two writers of one process held the store at once');
        await new Promise((resolve) => setTimeout(resolve, 20));
        order.push(i);
        inside--;
        lock.release();
      }),
    );
    assert.equal(order.length, 12);
    assert.ok(!fs.existsSync(path.join(root, '.lock')));
  });

  it('takes over a lock file of its own process that no writer of it holds', async () => {
    const root = makeTempDir();
    fs.writeFileSync(path.join(root, '.lock'), JSON.stringify({ pid: process.pid, host: os.hostname(), at: new Date().toISOString() }));
    const lock = await acquireStoreLock(root, 150);
    lock.release();
  });

  it('takes over a lock left by a process that died', async () => {
    const root = makeTempDir();
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    fs.writeFileSync(
      path.join(root, '.lock'),
      JSON.stringify({ pid: Number(dead.stdout.toString()), host: os.hostname(), at: new Date().toISOString() }),
    );
    const lock = await acquireStoreLock(root, 150);
    assert.equal(JSON.parse(fs.readFileSync(path.join(root, '.lock'), 'utf8')).pid, process.pid);
    lock.release();
  });

  it('treats a torn (unreadable) lock file as stale', async () => {
    const root = makeTempDir();
    fs.writeFileSync(path.join(root, '.lock'), '{"pid": 12');
    const lock = await acquireStoreLock(root, 150);
    lock.release();
  });
});

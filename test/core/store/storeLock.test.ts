import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { acquireStoreLock, StoreLockedError } from '../../../src/core/store/storeLock';
import { makeTempDir } from '../../helpers/paths';

describe('store lock', () => {
  it('excludes a second holder until released, then lets it in', async () => {
    const root = makeTempDir();
    const first = await acquireStoreLock(root);
    await assert.rejects(acquireStoreLock(root, 150), (error: Error) => error instanceof StoreLockedError && /locked by another Lore process \(pid \d+/.test(error.message));
    first.release();
    const second = await acquireStoreLock(root, 150);
    second.release();
    assert.ok(!fs.existsSync(path.join(root, '.lock')));
  });

  it('takes over a lock left by a process that died', async () => {
    const root = makeTempDir();
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    fs.writeFileSync(path.join(root, '.lock'), JSON.stringify({ pid: Number(dead.stdout.toString()), host: os.hostname(), at: new Date().toISOString() }));
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

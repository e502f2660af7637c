import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { lockStoreForApply } from '../../../src/core/store/changes/applyPlan';
import { acquireStoreLock } from '../../../src/core/base/storeLock';
import { storePaths } from '../../../src/core/store/storePaths';
import { makeTempDir } from '../../helpers/paths';

describe('lockStoreForApply', () => {
  it('releases the lock when the cleanup it does under the lock fails', async () => {
    const ws = makeTempDir('lore-lock-apply-');
    const paths = storePaths(path.join(ws, '.lore'), ws);
    fs.mkdirSync(paths.root, { recursive: true });
    // A set-aside copy whose file is now a folder: merging it back refuses, naming the entry.
    fs.mkdirSync(path.join(paths.root, 'odd.md'));
    fs.writeFileSync(path.join(paths.root, '.odd.md.lore-prev-1'), '- kept line\n');
    await assert.rejects(lockStoreForApply(paths, 1000));
    const again = await acquireStoreLock(paths.root, 500); // fails with StoreLockedError if the lock leaked
    again.release();
    assert.ok(fs.existsSync(path.join(paths.root, '.odd.md.lore-prev-1')), 'the set-aside bytes are kept');
  });
});

import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { storePaths } from '../../src/core/store/storePaths';
import { StoreEvents, type StoreChangeBatch } from '../../src/server/storeEvents';

describe('server StoreEvents: the one debounce of store file events', () => {
  const paths = storePaths(path.resolve('/ws/.lore'), path.resolve('/ws'));

  /** Feeds events, then waits for the batch they make (or none). */
  async function batchOf(files: string[]): Promise<StoreChangeBatch[]> {
    const batches: StoreChangeBatch[] = [];
    const events = new StoreEvents(paths, (b) => batches.push(b), 5);
    for (const f of files) events.add(f);
    await new Promise((r) => setTimeout(r, 50));
    events.dispose();
    return batches;
  }

  it('sorts a burst into one batch: note files, store-root markdown, every changed source', async () => {
    const [batch, ...more] = await batchOf([
      path.join(paths.files, 'a-1.md'),
      path.join(paths.files, 'a-1.md'),
      path.join(paths.root, 'facts.md'),
      path.join(paths.inbox, 'chat.jsonl'),
    ]);
    assert.equal(more.length, 0);
    assert.deepEqual(batch.noteFiles, new Set(['a-1.md']));
    assert.deepEqual(batch.storeFiles, new Set(['facts.md']));
    assert.deepEqual(
      [...batch.changed].sort(),
      [path.join(paths.root, 'facts.md'), path.join(paths.files, 'a-1.md'), path.join(paths.inbox, 'chat.jsonl')].sort(),
    );
  });

  it('ignores derived folders, dotfiles (atomic-write temporaries, the lock) and paths outside the store', async () => {
    const batches = await batchOf([
      path.join(paths.root, '.index', 'search.db-wal'),
      path.join(paths.root, '.cache', 'x.json'),
      path.join(paths.root, '.facts.md.lore-tmp-1'),
      path.join(paths.files, '.a-1.md.tmp'),
      path.resolve('/ws/src/app.ts'),
    ]);
    assert.deepEqual(batches, []);
  });

  it('rescans every note when the store or files/ itself comes or goes', async () => {
    for (const dir of [paths.root, paths.files]) {
      const [batch] = await batchOf([dir]);
      assert.equal(batch.noteFiles, 'all', dir);
    }
  });
});

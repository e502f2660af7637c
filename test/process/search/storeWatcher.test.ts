import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { watchStore, type StoreWatcher } from '../../../src/core/services/search/storeWatcher';
import type { StorePaths } from '../../../src/core/store/storePaths';
import { makeSearchStore } from '../../core/search/searchFixtures';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('store watcher', function () {
  this.timeout(20_000);
  let paths: StorePaths;
  let watcher: StoreWatcher | undefined;
  let changes: string[];

  /** Waits until the watcher reported `file` (absolute), or fails after a few seconds. */
  async function reported(file: string): Promise<void> {
    for (let waited = 0; waited < 5000; waited += 25) {
      if (changes.includes(file)) return;
      await sleep(25);
    }
    assert.fail(
      `${path.relative(paths.root, file)} was not reported; reported: ${changes.map((f) => path.relative(paths.root, f)).join(', ')}`,
    );
  }

  beforeEach(() => {
    ({ paths } = makeSearchStore());
    for (const dir of [paths.index, paths.cache, paths.transcripts, path.join(paths.root, '.logs'), path.join(paths.root, '.undo')])
      fs.mkdirSync(dir, { recursive: true });
    changes = [];
  });
  afterEach(() => watcher?.close());

  it('receives no event at all for writes under .index/ and the other derived folders', async () => {
    watcher = watchStore(paths, (files) => changes.push(...files));
    assert.ok(watcher, 'the store can be watched on this platform');
    // What an index build does: a database, its WAL, a journal created, written, renamed, removed.
    for (let i = 0; i < 20; i++) {
      const db = path.join(paths.index, 'lore.sqlite');
      fs.writeFileSync(`${db}-wal`, `frame ${i}`);
      fs.writeFileSync(`${db}-journal`, 'x');
      fs.renameSync(`${db}-journal`, `${db}.${i}`);
      fs.rmSync(`${db}.${i}`);
    }
    fs.writeFileSync(path.join(paths.cache, 'reply.json'), '{}');
    fs.writeFileSync(path.join(paths.transcripts, 'c1.md'), '# a stored transcript\n');
    fs.writeFileSync(path.join(paths.root, '.logs', 'harvest.log'), 'line\n');
    fs.writeFileSync(path.join(paths.root, '.undo', 'last.json'), '{}');
    await sleep(300);
    assert.equal(watcher.events, 0, 'no event reached the process');
    assert.deepEqual(changes, []);

    // The watcher is alive: a source written after that is reported, and only it.
    fs.appendFileSync(path.join(paths.root, 'facts.md'), '- the watcher skips .index/ [from: c3, 2026-11-27]\n');
    await reported(path.join(paths.root, 'facts.md'));
    assert.ok(watcher.events > 0);
    assert.deepEqual(changes, [path.join(paths.root, 'facts.md')]);
  });

  it('reports category files, note files and conversations nested in inbox/ and archive/', async () => {
    watcher = watchStore(paths, (files) => changes.push(...files));
    const note = path.join(paths.files, '5-6.md');
    fs.writeFileSync(note, '---\npath: src/app.ts\n---\n# src/app.ts\n\n- a new note [from: c1, 2026-11-27]\n');
    fs.mkdirSync(path.join(paths.inbox, 'project', 'session'), { recursive: true });
    const nested = path.join(paths.inbox, 'project', 'session', 'talk.md');
    fs.writeFileSync(nested, 'User: hello\nAssistant: hi\n');
    fs.mkdirSync(path.join(paths.archive, '2026'));
    const archived = path.join(paths.archive, '2026', 'old2.txt');
    fs.writeFileSync(archived, 'User: how do we rotate keys?\n');
    fs.appendFileSync(path.join(paths.root, 'decisions.md'), '- watch only source folders [from: c4, 2026-11-27]\n');
    await reported(note);
    await reported(nested);
    await reported(archived);
    await reported(path.join(paths.root, 'decisions.md'));
  });

  it('leaves inbox/ and archive/ alone when conversations are not indexed', async () => {
    watcher = watchStore(paths, (files) => changes.push(...files), undefined, { transcripts: false });
    fs.writeFileSync(path.join(paths.inbox, 'later.md'), 'User: hello\n');
    fs.appendFileSync(path.join(paths.root, 'facts.md'), '- one more [from: c3, 2026-11-27]\n');
    await reported(path.join(paths.root, 'facts.md'));
    await sleep(100);
    assert.deepEqual(changes, [path.join(paths.root, 'facts.md')]);
  });

  it('watches files/ from when it is created, reporting a note file written with it', async () => {
    fs.rmSync(paths.files, { recursive: true });
    watcher = watchStore(paths, (files) => changes.push(...files));
    fs.mkdirSync(paths.files);
    const first = path.join(paths.files, '7-8.md');
    fs.writeFileSync(first, '---\npath: src/app.ts\n---\n# src/app.ts\n\n- the first note [from: c1, 2026-11-27]\n');
    await reported(first);
    const second = path.join(paths.files, '9-10.md');
    fs.writeFileSync(second, '---\npath: src/other.ts\n---\n# src/other.ts\n\n- the second note [from: c1, 2026-11-27]\n');
    await reported(second);
  });
});

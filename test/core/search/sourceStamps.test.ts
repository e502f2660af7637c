import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { replaceGuarded } from '../../../src/core/base/guardedReplace';
import { SearchIndex } from '../../../src/core/services/search/searchIndex';
import { STAMPS_KEY, TRUSTED_MS, readStamps, stampsHold } from '../../../src/core/services/search/sourceStamps';
import type { StorePaths } from '../../../src/core/store/storePaths';
import { age, ageStore, makeSearchStore } from './searchFixtures';

/**
 * Ages the store's source folders, as in a store untouched for a minute (their files' times are
 * what the index recorded: aging them would be a change).
 */
function ageFolders(paths: StorePaths, ...more: string[]): void {
  for (const dir of [paths.root, paths.files, paths.inbox, paths.archive, ...more]) age(dir);
}

describe('search index freshness without a stat of every source', () => {
  let paths: StorePaths;
  let index: SearchIndex;

  beforeEach(async () => {
    paths = makeSearchStore().paths;
    ageStore(paths);
    index = SearchIndex.open(paths, { embedder: null });
    await index.update();
    ageFolders(paths);
    // The first update indexed everything (no stamps then); this one finds all as indexed and records them.
    const clean = await index.update();
    assert.equal(clean.indexed.length, 0);
    assert.ok(clean.scanned > 0);
  });

  afterEach(() => index.close());

  it('skips the listing while no source folder and no category file changed, in a new process too', async () => {
    const again = await index.update();
    assert.equal(again.scanned, 0, 'nothing listed');
    assert.ok(again.docs > 0);
    assert.equal(again.docs, (await index.search('esbuild')).update?.docs ?? again.docs);
    index.close();
    index = SearchIndex.open(paths, { embedder: null });
    const response = await index.search('esbuild');
    assert.equal(response.update?.scanned, 0);
    assert.equal(response.hits[0]?.file, 'facts.md', 'answers from the index as it is');
  });

  it('sees a note file added, and one removed', async () => {
    fs.writeFileSync(path.join(paths.files, '3-4.md'), '---\npath: "src/b.ts"\n---\n# src/b.ts\n\n- okapis graze here\n');
    assert.equal((await index.search('okapis')).hits.length, 1);
    fs.rmSync(path.join(paths.files, '1-2.md'));
    assert.equal((await index.search('bundler')).hits.length, 0);
  });

  it('sees a conversation added in a subfolder of the inbox', async () => {
    const project = path.join(paths.inbox, 'project');
    fs.mkdirSync(project);
    await index.update();
    ageFolders(paths, project);
    await index.update();
    assert.equal((await index.update()).scanned, 0, 'stamps recorded with the subfolder');
    fs.writeFileSync(path.join(project, 'later.md'), 'User: what about tapirs?\n');
    assert.equal((await index.search('tapirs')).hits.length, 1);
  });

  it('sees a category file edited in place by another program', async () => {
    const facts = path.join(paths.root, 'facts.md');
    fs.appendFileSync(facts, '- giraffes are tall [from: c9, 2026-11-22]\n');
    age(facts, 30);
    assert.equal((await index.search('giraffes')).hits.length, 1);
  });

  it("sees Lore's own in-place append to a note file, which changes no folder but touches it", async () => {
    const note = path.join(paths.files, '1-2.md');
    replaceGuarded(note, (bytes) => Buffer.concat([bytes!, Buffer.from('- wombats dig burrows [from: c9, 2026-11-22]\n')]));
    const written = fs.statSync(note);
    assert.ok(fs.statSync(paths.files).mtimeMs >= written.mtimeMs - 1, 'the folder was touched');
    age(note, 30);
    assert.equal((await index.search('wombats')).hits.length, 1);
  });

  it("drops the stamps when a watcher's update of some files changed the index", async () => {
    const note = path.join(paths.files, '1-2.md');
    const docs = (await index.update()).docs;
    fs.appendFileSync(note, '- tapirs swim well [from: c9, 2026-11-22]\n');
    age(note, 30);
    assert.deepEqual((await index.update({ only: [note] })).indexed, ['files/1-2.md']);
    const full = await index.update();
    assert.ok(full.scanned > 0, 'listed again');
    assert.equal(full.docs, docs + 1);
  });

  it('records no stamps from an update that changed something, nor racy ones', async () => {
    fs.writeFileSync(path.join(paths.files, '3-4.md'), '# src/b.ts\n\n- okapis graze here\n');
    const changed = await index.update();
    assert.deepEqual(changed.indexed, ['files/3-4.md']);
    // The folder just changed: its time is not trusted yet, so the next update lists again.
    assert.ok((await index.update()).scanned > 0);
  });

  it('trusts stamps for a bounded time only: an in-place save by another program is seen after it', () => {
    const stamps = readStamps(paths, {});
    const recorded = JSON.stringify(stamps);
    assert.equal(stampsHold(recorded, {}, stamps.at + 1000), true);
    assert.equal(stampsHold(recorded, {}, stamps.at + TRUSTED_MS), false);
    assert.equal(stampsHold(recorded, { transcripts: false }, stamps.at + 1000), false, 'recorded for another listing');
    assert.equal(stampsHold('not json', {}), false);
    assert.equal(stampsHold(undefined, {}), false);
    const note = path.join(paths.files, '1-2.md');
    const before = fs.statSync(note);
    // Changed in place (no folder change) with its time kept: only the bound catches this.
    fs.writeFileSync(note, fs.readFileSync(note, 'utf8').replace('bundler', 'packager'));
    fs.utimesSync(note, before.atime, before.mtime);
    assert.equal(stampsHold(recorded, {}, stamps.at + 1000), true);
  });

  it('keeps the stamps in the index, dropped with it', async () => {
    const lexical = (index as unknown as { engine: { lexical: { meta(key: string): string | undefined } } }).engine.lexical;
    assert.ok(lexical.meta(STAMPS_KEY));
    index.close();
    fs.rmSync(paths.index, { recursive: true, force: true });
    index = SearchIndex.open(paths, { embedder: null });
    const rebuilt = await index.update();
    assert.ok(rebuilt.indexed.length > 0, 'a deleted index is rebuilt, not trusted');
  });
});

/**
 * Which store an editor window uses (issue 17, part 5): the global store only when a person chose
 * it, never as the fallback of a window without a folder.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { editorStoreLocation, globalStoreDir } from '../../../src/core/store/storeLocation';

describe('editorStoreLocation', () => {
  let home: string;
  beforeEach(() => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'lore-home-'));
  });
  afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

  it('has no store with no folder open and the global store not chosen, even when ~/.lore exists', () => {
    fs.mkdirSync(globalStoreDir(home));
    assert.equal(editorStoreLocation(undefined, 'workspace', home), undefined);
  });

  it('uses <folder>/.lore with a folder open', () => {
    const folder = path.join(home, 'project');
    assert.deepEqual(editorStoreLocation(folder, 'workspace', home), { root: path.join(folder, '.lore'), workspace: folder });
  });

  it('uses ~/.lore when the global store is chosen, for the open folder or for itself without one', () => {
    const folder = path.join(home, 'project');
    assert.deepEqual(editorStoreLocation(folder, 'global', home), { root: path.join(home, '.lore'), workspace: folder });
    assert.deepEqual(editorStoreLocation(undefined, 'global', home), {
      root: path.join(home, '.lore'),
      workspace: path.join(home, '.lore'),
    });
  });
});

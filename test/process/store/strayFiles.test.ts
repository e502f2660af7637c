import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { storePaths } from '../../../src/core/store/storePaths';
import { removeStrayFiles } from '../../../src/core/store/strayFiles';
import { makeTempDir } from '../../helpers/paths';

describe('stray files of killed Lore processes', () => {
  it('removes the temporary files and lock graves of dead processes anywhere in the store, and nothing else', () => {
    const paths = storePaths(path.join(makeTempDir(), '.lore'));
    const dead = spawnSync(process.execPath, ['-e', '']).pid!; // Exited: its pid is gone.
    const live = process.ppid;
    const files: Record<string, boolean> = {
      [`.undo/.record.json.${dead}.mx0abc12.tmp`]: true,
      [`tasks/.fix-it.md.${dead}.mx0abc12.tmp`]: true,
      [`transcripts/2026/11/20/.1000-a.md.${dead}.mx0abc12.tmp`]: true,
      [`.lock.stale.${dead}`]: true,
      [`.logs/.history.json.${live}.mx0abc12.tmp`]: false, // A write in flight.
      [`.facts.md.${process.pid}.mx0abc12.tmp`]: false,
      [`.index/.x.${dead}.mx0abc12.tmp`]: false, // The index's folder is the index's.
      'inbox/notes.tmp': false, // A person's file.
      'facts.md': false,
    };
    for (const file of Object.keys(files)) {
      fs.mkdirSync(path.dirname(path.join(paths.root, file)), { recursive: true });
      fs.writeFileSync(path.join(paths.root, file), 'x');
    }
    const removed = removeStrayFiles(paths);
    assert.deepEqual(
      removed.sort(),
      Object.keys(files)
        .filter((f) => files[f])
        .sort(),
    );
    for (const [file, goes] of Object.entries(files)) assert.equal(fs.existsSync(path.join(paths.root, file)), !goes, file);
  });
});

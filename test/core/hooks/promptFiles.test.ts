import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { filesNamedIn } from '../../../src/core/services/hooks/promptFiles';
import { storePaths } from '../../../src/core/store/storePaths';
import { makeTempDir } from '../../helpers/paths';

function workspace() {
  const ws = fs.realpathSync(makeTempDir('lore-prompt-files-'));
  fs.mkdirSync(path.join(ws, 'src', 'deep'), { recursive: true });
  fs.mkdirSync(path.join(ws, '.lore', 'files'), { recursive: true });
  for (const f of ['src/app.ts', 'src/deep/x.py', 'README.md', '.lore/facts.md']) fs.writeFileSync(path.join(ws, f), 'x\n');
  return { ws, paths: storePaths(path.join(ws, '.lore')) };
}

describe('filesNamedIn', () => {
  it('finds the workspace files a prompt names, in the order named, in the forms people write them', () => {
    const { ws, paths } = workspace();
    const prompt = 'Look at @src/app.ts and `src/deep/x.py:12:3`, (README.md), src/app.ts again and src/missing.ts.';
    assert.deepEqual(
      filesNamedIn(prompt, ws, paths),
      ['src/app.ts', 'src/deep/x.py', 'README.md'].map((f) => path.join(ws, f)),
    );
    // Relative to the agent's folder first, then the workspace root.
    assert.deepEqual(filesNamedIn('open x.py', path.join(ws, 'src', 'deep'), paths), [path.join(ws, 'src', 'deep', 'x.py')]);
    assert.deepEqual(filesNamedIn('open app.ts#L4-L9', path.join(ws, 'src'), paths), [path.join(ws, 'src', 'app.ts')]);
  });

  it('ignores names outside the workspace, links out of it, the store, folders and URLs', () => {
    const { ws, paths } = workspace();
    const outside = path.join(path.dirname(ws), `${path.basename(ws)}-outside.ts`);
    fs.writeFileSync(outside, 'secret');
    fs.symlinkSync(outside, path.join(ws, 'src', 'link.ts'));
    const prompt = `read ../${path.basename(outside)} ${outside} src/link.ts .lore/facts.md src/deep https://example.com/a.ts /etc/passwd`;
    assert.deepEqual(filesNamedIn(prompt, ws, paths), []);
  });

  it('looks at a bounded number of words, however long the prompt', () => {
    const { ws, paths } = workspace();
    const noise = Array.from({ length: 500 }, (_, i) => `dir${i}/file${i}.ts`).join(' ');
    assert.deepEqual(filesNamedIn(`${noise} src/app.ts`, ws, paths), []);
  });
});

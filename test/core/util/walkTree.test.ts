import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { walkTree } from '../../../src/core/base/walkTree';
import { makeTempDir } from '../../helpers/paths';

/** a.md, sub/b.md, sub/deep/c.md, .hidden/d.md, and `loop` → the root (a folder symlink). */
function tree(): string {
  const root = makeTempDir('lore-walk-');
  fs.writeFileSync(path.join(root, 'a.md'), 'a');
  fs.mkdirSync(path.join(root, 'sub', 'deep'), { recursive: true });
  fs.writeFileSync(path.join(root, 'sub', 'b.md'), 'b');
  fs.writeFileSync(path.join(root, 'sub', 'deep', 'c.md'), 'c');
  fs.mkdirSync(path.join(root, '.hidden'));
  fs.writeFileSync(path.join(root, '.hidden', 'd.md'), 'd');
  fs.symlinkSync(root, path.join(root, 'loop'));
  return root;
}

function files(root: string, options: Omit<Parameters<typeof walkTree>[1], 'file'> = {}): string[] {
  const seen: string[] = [];
  walkTree(root, { ...options, file: (entry, full) => entry.isFile() && seen.push(path.relative(root, full)) });
  return seen.sort();
}

describe('walkTree', () => {
  it('visits every file below the root and never follows a folder symlink', () => {
    assert.deepEqual(files(tree()), ['.hidden/d.md', 'a.md', 'sub/b.md', 'sub/deep/c.md']);
  });

  it('enters only the folders the caller accepts, to the depth asked', () => {
    const root = tree();
    assert.deepEqual(files(root, { enter: (entry) => !entry.name.startsWith('.') }), ['a.md', 'sub/b.md', 'sub/deep/c.md']);
    assert.deepEqual(files(root, { maxDepth: 1 }), ['.hidden/d.md', 'a.md', 'sub/b.md']);
    assert.deepEqual(files(root, { maxDepth: 0 }), ['a.md']);
  });

  it('visits in name order when sorted', () => {
    const root = tree();
    const order: string[] = [];
    walkTree(root, { sorted: true, file: (_entry, full) => order.push(path.relative(root, full)) });
    assert.deepEqual(order, ['.hidden/d.md', 'a.md', 'loop', 'sub/b.md', 'sub/deep/c.md']);
  });

  it('reports a folder it cannot list and goes on', () => {
    // The folder vanishes between its listing and its turn (as under a concurrent checkout); this
    // runs the same way as root, where a chmod 000 folder would still be readable.
    const root = tree();
    const unreadable: string[] = [];
    const listed = files(root, {
      enter: (entry, full) => {
        if (entry.name === 'sub') fs.rmSync(full, { recursive: true });
        return true;
      },
      unreadable: (dir, error) => unreadable.push(`${path.relative(root, dir)} ${(error as NodeJS.ErrnoException).code}`),
    });
    assert.deepEqual(listed, ['.hidden/d.md', 'a.md']);
    assert.deepEqual(unreadable, ['sub ENOENT']);
  });

  it('reports a root that does not exist', () => {
    const missing: string[] = [];
    walkTree(path.join(makeTempDir(), 'gone'), {
      file: () => assert.fail('no file expected'),
      unreadable: (dir) => missing.push(path.basename(dir)),
    });
    assert.deepEqual(missing, ['gone']);
  });
});

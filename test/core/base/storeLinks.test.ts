/**
 * The store's writers never act through a symbolic link below the store's folder (issue 33): a
 * folder made, a file moved in or out, a file removed. Each is tried with the link where a
 * cloned store could bring it, and the folder the link names is checked to be as it was.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LinkInStoreError, mkdirNoFollow, removeNoFollow, renameNoFollow } from '../../../src/core/base/storeLinks';
import { writeFileAtomic } from '../../../src/core/base/atomicWrite';
import { storePaths } from '../../../src/core/store/storePaths';
import { makeTempDir } from '../../helpers/paths';

/** A store in a workspace and a folder outside it holding one file. */
function setup(): { root: string; outside: string; precious: string } {
  const root = path.join(makeTempDir('lore-links-'), '.lore');
  storePaths(root);
  fs.mkdirSync(root, { recursive: true });
  const outside = makeTempDir('lore-outside-');
  const precious = path.join(outside, 'precious.md');
  fs.writeFileSync(path.join(outside, 'precious.md'), 'a person’s file\n');
  return { root, outside, precious };
}

function listing(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true }).map(String).sort();
}

describe('store writers and symbolic links', () => {
  it('mkdirNoFollow makes no folder inside a folder a link names, and makes ordinary ones', () => {
    const { root, outside } = setup();
    fs.symlinkSync(outside, path.join(root, 'journal'));
    assert.throws(() => mkdirNoFollow(path.join(root, 'journal', '2026')), LinkInStoreError);
    assert.deepEqual(listing(outside), ['precious.md']);
    mkdirNoFollow(path.join(root, 'files', 'src'));
    assert.ok(fs.statSync(path.join(root, 'files', 'src')).isDirectory());
  });

  it('renameNoFollow moves nothing out of, into or over a link', () => {
    const { root, outside, precious } = setup();
    // Out of a linked inbox: the person's file would leave their folder.
    fs.symlinkSync(outside, path.join(root, 'inbox'));
    assert.throws(() => renameNoFollow(path.join(root, 'inbox', 'precious.md'), path.join(root, '.undo', 'kept.md')), LinkInStoreError);
    // Into a linked folder.
    fs.writeFileSync(path.join(root, 'mine.md'), 'mine\n');
    fs.symlinkSync(outside, path.join(root, 'archive'));
    assert.throws(() => renameNoFollow(path.join(root, 'mine.md'), path.join(root, 'archive', 'mine.md')), LinkInStoreError);
    // Over a link: refused, not replaced.
    fs.symlinkSync(precious, path.join(root, 'facts.md'));
    assert.throws(
      () => renameNoFollow(path.join(root, 'mine.md'), path.join(root, 'facts.md')),
      (e: unknown) => e instanceof LinkInStoreError && e.link === path.join(root, 'facts.md'),
    );
    assert.ok(fs.lstatSync(path.join(root, 'facts.md')).isSymbolicLink());
    assert.deepEqual(listing(outside), ['precious.md']);
    assert.equal(fs.readFileSync(precious, 'utf8'), 'a person’s file\n');
    // Between ordinary folders it moves, making the destination's folder.
    renameNoFollow(path.join(root, 'mine.md'), path.join(root, 'kept', 'mine.md'));
    assert.equal(fs.readFileSync(path.join(root, 'kept', 'mine.md'), 'utf8'), 'mine\n');
  });

  it('removeNoFollow deletes nothing inside a folder a link names; a link itself is removed, not what it names', () => {
    const { root, outside, precious } = setup();
    fs.symlinkSync(outside, path.join(root, '.undo'));
    assert.throws(() => removeNoFollow(path.join(root, '.undo', 'precious.md'), { force: true }), LinkInStoreError);
    assert.deepEqual(listing(outside), ['precious.md']);
    removeNoFollow(path.join(root, '.undo'), { recursive: true, force: true });
    assert.equal(fs.existsSync(path.join(root, '.undo')), false);
    assert.equal(fs.readFileSync(precious, 'utf8'), 'a person’s file\n');
  });

  it('the refusal names the link as the workspace shows it and says where it points', () => {
    const { root, precious } = setup();
    fs.symlinkSync(precious, path.join(root, 'decisions.md'));
    assert.throws(
      () => writeFileAtomic(path.join(root, 'decisions.md'), 'replaced\n'),
      (e: unknown) =>
        e instanceof LinkInStoreError &&
        e.message.startsWith(`.lore/decisions.md is a symbolic link (to ${precious}, outside the store)`) &&
        /Lore does not write through links in its store.*nothing was written\. Replace it with a regular file/.test(e.message),
    );
    assert.equal(fs.readFileSync(precious, 'utf8'), 'a person’s file\n');
  });

  it('outside every store a path is not checked (the workspace and home folder are the person’s)', () => {
    const outside = makeTempDir('lore-plain-');
    fs.mkdirSync(path.join(outside, 'real'));
    fs.symlinkSync(path.join(outside, 'real'), path.join(outside, 'linked'));
    mkdirNoFollow(path.join(outside, 'linked', 'sub'));
    assert.ok(fs.statSync(path.join(outside, 'real', 'sub')).isDirectory());
  });
});

/**
 * The store's readers never read through a symbolic link that leads out of the store: such a file
 * reads as missing, and the person is told once. Links that stay inside the store, a store folder
 * that is itself a link, and files outside every store read as they are.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openStoreFile, readStoreFile, readTextIfExists, readTextLossless } from '../../../src/core/base/readText';
import { LinkOutOfStoreError, linkOutOfStore, takeLinkNotices } from '../../../src/core/base/storeLinks';
import { fingerprintFile } from '../../../src/core/base/fileIdentity';
import { storePaths } from '../../../src/core/store/storePaths';
import { makeTempDir } from '../../helpers/paths';

const SECRET = '-----BEGIN OPENSSH PRIVATE KEY----- not a real one\n';

/** A store in a workspace, and a secret file and folder outside it. */
function setup(): { root: string; secret: string; secretDir: string } {
  const root = path.join(makeTempDir('lore-read-links-'), '.lore');
  storePaths(root);
  fs.mkdirSync(root, { recursive: true });
  const secretDir = makeTempDir('lore-outside-');
  const secret = path.join(secretDir, 'id_rsa');
  fs.writeFileSync(secret, SECRET);
  takeLinkNotices();
  return { root, secret, secretDir };
}

describe('store readers and symbolic links', () => {
  it('a file linked out of the store reads as missing through every reader, and the notice names it once', () => {
    const { root, secret } = setup();
    const facts = path.join(root, 'facts.md');
    fs.symlinkSync(secret, facts);
    assert.equal(linkOutOfStore(facts), facts);
    assert.equal(readTextIfExists(facts), undefined);
    assert.equal(readTextLossless(facts), undefined);
    assert.throws(
      () => readStoreFile(facts),
      (e: unknown) => e instanceof LinkOutOfStoreError && e.code === 'ENOENT' && e.link === facts,
    );
    assert.throws(() => openStoreFile(facts), LinkOutOfStoreError);
    assert.throws(() => fingerprintFile(facts), LinkOutOfStoreError);
    const notices = takeLinkNotices();
    assert.equal(notices.length, 1, notices.join('\n'));
    assert.match(notices[0], /^\.lore\/facts\.md is a symbolic link \(to .*id_rsa, outside the store\); Lore does not read it/);
    assert.match(notices[0], /Replace it with a regular file/);
    assert.doesNotMatch(notices[0], /BEGIN OPENSSH/);
    assert.equal(fs.readFileSync(secret, 'utf8'), SECRET, 'the file it names is untouched');
  });

  it('a folder linked out of the store: nothing under it is read, and the notice says folder', () => {
    const { root, secretDir } = setup();
    fs.symlinkSync(secretDir, path.join(root, 'files'));
    const note = path.join(root, 'files', 'id_rsa');
    assert.equal(linkOutOfStore(note), path.join(root, 'files'));
    assert.equal(readTextIfExists(note), undefined);
    const [notice] = takeLinkNotices();
    assert.match(notice, /^\.lore\/files is a symbolic link .*Lore does not read what lies under it.*regular folder/);
  });

  it('links that stay inside the store, a linked store folder and files outside every store read as before', () => {
    const { root, secret } = setup();
    fs.writeFileSync(path.join(root, 'kept.md'), 'kept\n');
    fs.symlinkSync(path.join(root, 'kept.md'), path.join(root, 'facts.md'));
    assert.equal(linkOutOfStore(path.join(root, 'facts.md')), undefined);
    assert.equal(readTextIfExists(path.join(root, 'facts.md')), 'kept\n');

    const linkedRoot = path.join(makeTempDir('lore-linked-store-'), 'store');
    fs.symlinkSync(root, linkedRoot);
    storePaths(linkedRoot);
    assert.equal(readTextIfExists(path.join(linkedRoot, 'kept.md')), 'kept\n');
    assert.equal(readTextIfExists(path.join(linkedRoot, 'facts.md')), 'kept\n');

    assert.equal(readTextIfExists(secret), SECRET, 'a file in no store is not Lore’s to judge');
    assert.equal(readTextIfExists(path.join(root, 'missing.md')), undefined);
    assert.deepEqual(takeLinkNotices(), []);
  });
});

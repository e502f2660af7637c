import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { defaultPromptsDir } from '../../../src/core/services/harvest/prompts';
import { initStore } from '../../../src/core/store/initStore';
import { StoreEntryError } from '../../../src/core/base/storeLinks';
import { checkStoreEntries, describeFileError, withPath } from '../../../src/core/store/storeErrors';
import { storePaths } from '../../../src/core/store/storePaths';
import { makeTempDir } from '../../helpers/paths';

/** The error `body` throws. */
function caught(body: () => unknown): unknown {
  try {
    body();
  } catch (error) {
    return error;
  }
  assert.fail('expected an error');
}

describe('store file errors', () => {
  it('a folder where a file should be: names the file and says what to do, even when Node names no path', () => {
    const dir = makeTempDir();
    const facts = path.join(dir, 'facts.md');
    fs.mkdirSync(facts);
    const read = caught(() => fs.readFileSync(facts, 'utf8'));
    assert.equal((read as NodeJS.ErrnoException).path, undefined, 'Node names no path for EISDIR on a read');
    assert.equal(describeFileError(read, facts), `${facts} is a folder, not a file: move it away and run again.`);
    assert.equal(describeFileError(withPath(read, facts)), `${facts} is a folder, not a file: move it away and run again.`);
    // Without any path, Node's own message is kept rather than nothing.
    assert.match(
      describeFileError(caught(() => fs.readFileSync(facts)))!,
      /^a file Lore needs \(EISDIR: illegal operation on a directory, read\) is a folder/,
    );
    // A rename onto the folder names the folder (the destination), not the temporary file.
    const tmp = path.join(dir, '.facts.md.tmp');
    fs.writeFileSync(tmp, 'x');
    assert.match(
      describeFileError(caught(() => fs.renameSync(tmp, facts)))!,
      new RegExp(`^${facts.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is a folder`),
    );
  });

  it('a file where a folder should be, and errors that are not about files', () => {
    const dir = makeTempDir();
    fs.writeFileSync(path.join(dir, 'files'), 'x');
    const error = caught(() => fs.writeFileSync(path.join(dir, 'files', 'n.md'), 'y'));
    assert.match(
      describeFileError(error)!,
      /files\/n\.md: part of this path is a file where a folder should be: move that file away and run again\.$/,
    );
    assert.equal(describeFileError(new Error('boom')), undefined);
    assert.equal(describeFileError('boom'), undefined);
    assert.equal(
      describeFileError(caught(() => fs.readFileSync(path.join(dir, 'missing')))),
      undefined,
      "ENOENT keeps Node's message, which names the path",
    );
  });

  it('checkStoreEntries names a store file that is a folder, or a store folder that is a file', () => {
    const paths = storePaths(path.join(makeTempDir(), '.lore'));
    initStore(paths, defaultPromptsDir());
    checkStoreEntries(paths);
    fs.mkdirSync(paths.ledger);
    assert.throws(
      () => checkStoreEntries(paths),
      (error: Error) =>
        error instanceof StoreEntryError && error.message === `${paths.ledger} is a folder, not a file: move it away and run again`,
    );
    fs.rmdirSync(paths.ledger);
    fs.rmSync(path.join(paths.root, 'tasks.md'));
    fs.mkdirSync(path.join(paths.root, 'tasks.md'));
    assert.throws(() => checkStoreEntries(paths), /tasks\.md is a folder, not a file/);
    fs.rmdirSync(path.join(paths.root, 'tasks.md'));
    fs.rmSync(paths.files, { recursive: true });
    fs.writeFileSync(paths.files, '');
    assert.throws(
      () => checkStoreEntries(paths),
      (error: Error) => error.message === `${paths.files} is a file, not a folder: move it away and run again`,
    );
  });
});

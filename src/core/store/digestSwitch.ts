/**
 * Whether the digest is on, and its text as agents' readers take it. digest.md is the switch
 * ("delete to turn off"), but Lore also removes it when every section is empty (the seed: no file
 * with nothing to say). A mark in .cache/ tells the two apart: removed by Lore for being empty, the
 * digest is still on (readers get only its header, and the next refresh with items writes it
 * again); deleted by the person, it is off. Deleting .cache/ loses only the mark: the digest then
 * waits for a regenerate or a harvest.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fsyncDirectory, writeFileAtomic } from '../base/atomicWrite';
import { readTextIfExists } from '../base/readText';
import { mkdirNoFollow, removeNoFollow } from '../base/storeLinks';
import { NEW_STORE_DIGEST } from '../model/digestFormat';
import type { StorePaths } from './storePaths';

function emptiedMark(paths: StorePaths): string {
  return path.join(paths.cache, 'digest-emptied');
}

/** True when Lore removed digest.md for being empty: the digest is on, with nothing to say yet. */
export function digestEmptied(paths: StorePaths): boolean {
  return fs.existsSync(emptiedMark(paths));
}

/**
 * digest.md's text for its readers (the hook, the context, the instruction files): only its
 * header while it is on and empty, undefined when it is off.
 */
export function readDigestText(paths: StorePaths): string | undefined {
  return readTextIfExists(paths.digest) ?? (digestEmptied(paths) ? NEW_STORE_DIGEST : undefined);
}

/** Writes digest.md (its text ends with a newline); the digest has something to say again. */
export function writeDigest(paths: StorePaths, text: string): void {
  writeFileAtomic(paths.digest, text);
  removeNoFollow(emptiedMark(paths), { force: true });
}

/** Removes digest.md: `emptied` when every section is empty (the digest stays on), else turned off. */
export function removeDigest(paths: StorePaths, reason: 'emptied' | 'off'): void {
  if (reason === 'emptied') {
    mkdirNoFollow(paths.cache);
    // Not fsynced: a mark lost in a crash leaves the digest waiting for a regenerate or a harvest.
    writeFileAtomic(emptiedMark(paths), '', { durable: false });
  } else removeNoFollow(emptiedMark(paths), { force: true });
  if (!fs.existsSync(paths.digest)) return;
  removeNoFollow(paths.digest, { force: true });
  fsyncDirectory(paths.root);
}

/**
 * The git repository a store lives in, if any: the workspace's (the store is a folder of it) or
 * the store's own (`lore init --git`). Everything the history does names paths relative to the
 * repository's top, and touches only the store's part of it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { StorePaths } from '../storePaths';
import { GitMissingError, runGit } from './git';

export interface StoreRepo {
  /** The repository's work tree top (absolute, real path). */
  top: string;
  /** Its git directory (absolute), where the temporary index goes. */
  gitDir: string;
  /** The store folder relative to `top`, with forward slashes; '.' when the store is the top. */
  storeRel: string;
}

/**
 * The repository holding the store, or undefined: no git binary, the store not (yet) a folder,
 * not inside a work tree, or inside the git directory itself.
 */
export async function findStoreRepo(paths: StorePaths): Promise<StoreRepo | undefined> {
  if (!fs.existsSync(paths.root)) return undefined;
  let result;
  try {
    result = await runGit(['rev-parse', '--show-toplevel', '--absolute-git-dir'], { cwd: paths.root });
  } catch (error) {
    if (error instanceof GitMissingError) return undefined;
    throw error;
  }
  if (result.code !== 0) return undefined;
  const [top, gitDir] = result.stdout.split('\n');
  if (!top || !gitDir) return undefined;
  // git prints the real path of the top; compare it with the store's real path.
  const rel = path.relative(top, fs.realpathSync(paths.root));
  if (rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  return { top, gitDir, storeRel: rel === '' ? '.' : rel.split(path.sep).join('/') };
}

/** A pathspec naming exactly one store-relative path (or the whole store), taken literally. */
export function storePathspec(repo: StoreRepo, storeRelative = ''): string {
  const rel = [repo.storeRel === '.' ? '' : repo.storeRel, storeRelative].filter(Boolean).join('/');
  return rel ? `:(top,literal)${rel}` : ':(top)';
}

/** A repository-relative path of a store-relative one, as git log and blame take it. */
export function repoPath(repo: StoreRepo, storeRelative: string): string {
  return repo.storeRel === '.' ? storeRelative : `${repo.storeRel}/${storeRelative}`;
}

/**
 * Whether the repository is in the middle of something a person started (a merge, rebase,
 * cherry-pick, revert or bisect): Lore then leaves its changes for a later commit.
 */
export function repoBusy(repo: StoreRepo): string | undefined {
  const markers: Array<[string, string]> = [
    ['MERGE_HEAD', 'a merge'],
    ['rebase-merge', 'a rebase'],
    ['rebase-apply', 'a rebase'],
    ['CHERRY_PICK_HEAD', 'a cherry-pick'],
    ['REVERT_HEAD', 'a revert'],
    ['BISECT_LOG', 'a bisect'],
  ];
  for (const [name, what] of markers) if (fs.existsSync(path.join(repo.gitDir, name))) return what;
  return undefined;
}

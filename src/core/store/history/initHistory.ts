/**
 * `lore init --git`: turns the store's history on. A store outside any repository gets its own
 * (`git init` in the store, committing after each apply by default); a store inside the
 * workspace's repository gets `"git": {"commit": "apply"}` in its config.json, since committing
 * to the person's branches is something they ask for. Either way the store as it is becomes the
 * first commit.
 */
import * as fs from 'node:fs';
import { writeFileAtomic } from '../../base/atomicWrite';
import type { StorePaths } from '../storePaths';
import { setStoreTrust } from '../storeTrust';
import { commitStore, type CommitOutcome } from './commitStore';
import { git, GitMissingError } from './git';
import { findStoreRepo, type StoreRepo } from './storeRepo';
import { readStoreFile } from '../../base/readText';

export interface InitHistoryResult {
  repo: StoreRepo;
  /** True when `git init` made a repository for the store. */
  created: boolean;
  /** True when config.json was changed to commit (a store in a workspace's repository). */
  configured: boolean;
  commit: CommitOutcome;
}

/** Sets `git.commit` in config.json, keeping every other key; refuses a file that is not a JSON object. */
function enableCommitsInConfig(paths: StorePaths): boolean {
  let config: Record<string, unknown> = {};
  if (fs.existsSync(paths.config)) {
    const parsed: unknown = JSON.parse(readStoreFile(paths.config, 'utf8').replace(/^\ufeff/, ''));
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
      throw new Error(`${paths.config} is not a JSON object; set "git": {"commit": "apply"} in it by hand`);
    config = parsed as Record<string, unknown>;
  }
  const section = config.git && typeof config.git === 'object' && !Array.isArray(config.git) ? (config.git as Record<string, unknown>) : {};
  if (section.commit !== undefined) return false; // The person already chose.
  config.git = { ...section, commit: 'apply' };
  writeFileAtomic(paths.config, JSON.stringify(config, null, 2) + '\n');
  return true;
}

/** Creates or adopts the store's repository and commits the store. Throws GitMissingError without git. */
export async function initHistory(paths: StorePaths): Promise<InitHistoryResult> {
  let repo = await findStoreRepo(paths);
  let created = false;
  if (!repo) {
    try {
      await git(['init', '-q'], { cwd: paths.root });
    } catch (error) {
      if (error instanceof GitMissingError) throw error;
      throw new Error(`could not create a git repository in ${paths.root}: ${(error as Error).message}`, { cause: error });
    }
    created = true;
    repo = await findStoreRepo(paths);
    if (!repo) throw new Error(`git init in ${paths.root} did not make a repository`);
  }
  const configured = repo.storeRel === '.' ? false : enableCommitsInConfig(paths);
  // The person asked for commits in this store: its config.json's git.commit is theirs (storeTrust.ts).
  if (repo.storeRel !== '.') setStoreTrust(paths.root, true);
  const commit = await commitStore(repo, {
    subject: created ? 'maintenance: the knowledge store, as Lore found it' : 'maintenance: the knowledge store, history turned on',
  });
  return { repo, created, configured, commit };
}

/**
 * The layout of a knowledge store (`.lore/` by default) and the guard that keeps every write
 * inside it.
 */
import * as path from 'node:path';
import { rememberStoreRoot } from '../base/storeLinks';

export interface StorePaths {
  /** The store folder itself, e.g. `<workspace>/.lore`. */
  root: string;
  /** The workspace the store describes: per-file notes resolve paths against it. */
  workspace: string;
  inbox: string;
  archive: string;
  /** Immutable rendered, redacted transcripts of harvested conversations (transcriptFiles.ts). */
  transcripts: string;
  files: string;
  prompts: string;
  digest: string;
  ledger: string;
  config: string;
  /** Derived, git-ignored, deletable: cached model replies. */
  cache: string;
  /** Derived, git-ignored, deletable: the search index. */
  index: string;
}

/** The default store folder name inside a workspace. */
export const STORE_DIR_NAME = '.lore';

/**
 * Resolves the layout for a store root. The workspace defaults to the store's parent when the
 * store is named `.lore`, else to the store itself (a standalone or global store).
 */
export function storePaths(root: string, workspace?: string): StorePaths {
  const abs = path.resolve(root);
  rememberStoreRoot(abs); // Writes below it are checked for links (storeLinks.ts).
  const ws = path.resolve(workspace ?? (path.basename(abs) === STORE_DIR_NAME ? path.dirname(abs) : abs));
  return {
    root: abs,
    workspace: ws,
    inbox: path.join(abs, 'inbox'),
    archive: path.join(abs, 'archive'),
    transcripts: path.join(abs, 'transcripts'),
    files: path.join(abs, 'files'),
    prompts: path.join(abs, 'prompts'),
    digest: path.join(abs, 'digest.md'),
    ledger: path.join(abs, 'ledger.json'),
    config: path.join(abs, 'config.json'),
    cache: path.join(abs, '.cache'),
    index: path.join(abs, '.index'),
  };
}

/** Workspace-relative path with forward slashes (how note files record paths). */
export function workspaceRelative(paths: StorePaths, absolute: string): string {
  return path.relative(paths.workspace, absolute).split(path.sep).join('/');
}

/** True when `candidate` is `dir` or lies beneath it (after resolving `..`). */
export function isInside(dir: string, candidate: string): boolean {
  const rel = path.relative(path.resolve(dir), path.resolve(candidate));
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * Resolves a store-relative path and refuses anything that would land outside the store
 * (`..`, absolute paths). Every write of the store goes through this.
 */
export function resolveInStore(paths: StorePaths, relative: string): string {
  const target = path.resolve(paths.root, relative);
  if (!isInside(paths.root, target) || target === paths.root) {
    throw new Error(`refusing to write outside the knowledge store: ${relative}`);
  }
  return target;
}

/** A store-relative path with forward slashes, for reports and plans. */
export function storeRelative(paths: StorePaths, absolute: string): string {
  return path.relative(paths.root, absolute).split(path.sep).join('/');
}

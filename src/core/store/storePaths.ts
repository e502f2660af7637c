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
  /**
   * The person's own layer inside a workspace store (`personal/`, git-ignored): a store of its own
   * (category files, review.md, digest.md, ledger.json) that agents get together with the shared
   * one and that no committed file ever holds (personalLayer.ts).
   */
  personal: string;
  /** Set on the personal layer's paths (personalStorePaths): which layer of the store these are. */
  layer?: 'personal';
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
    personal: path.join(abs, PERSONAL_DIR_NAME),
  };
}

/** The personal layer's folder inside a store (git-ignored: initStore.ts). */
export const PERSONAL_DIR_NAME = 'personal';

/** Which layer of a store an item is in: the team's shared files, or the person's own. */
export type StoreLayer = 'shared' | 'personal';

/**
 * The paths of the personal layer of a store: a store of its own under `personal/`, for the same
 * workspace, reading the shared store's config.json and prompts (one set of settings per store).
 */
export function personalStorePaths(paths: StorePaths): StorePaths {
  if (paths.layer === 'personal') return paths;
  const own = storePaths(paths.personal, paths.workspace);
  return { ...own, config: paths.config, prompts: paths.prompts, layer: 'personal' };
}

/** The layer a store-relative file belongs to: `personal/facts.md` is personal, `facts.md` shared. */
export function layerOfFile(relative: string): StoreLayer {
  return relative.startsWith(`${PERSONAL_DIR_NAME}/`) ? 'personal' : 'shared';
}

/** A file of the personal layer as the shared store names it: `facts.md` → `personal/facts.md`. */
export function personalFileName(relative: string): string {
  return layerOfFile(relative) === 'personal' ? relative : `${PERSONAL_DIR_NAME}/${relative}`;
}

/** A file's name inside its own layer: `personal/facts.md` → `facts.md` (a shared name is unchanged). */
export function fileInLayer(relative: string): string {
  return layerOfFile(relative) === 'personal' ? relative.slice(PERSONAL_DIR_NAME.length + 1) : relative;
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

/**
 * Where a store is, found the way git finds `.git`: the nearest `.lore/` folder in a folder or
 * one of its parents. Finding never creates anything: a store that is not there is reported, and
 * only `lore init` (or a write the user asked for) makes one.
 *
 * The global store, `~/.lore/`, is never found this way: it lies above every project in the home
 * folder, so the walk up from a project without a store of its own would hand it that project's
 * sessions and agents' writes. It is used only when asked for by name (`--global`, `--root`,
 * `$LORE_ROOT`, the VS Code setting `lore.store.location`).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CATEGORY_FILES } from '../model/categories';
import { STORE_DIR_NAME } from './storePaths';

/** True when `dir` exists and is a folder. */
export function isDirectory(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** Names only a store holds (what `lore init` or a first harvest writes), besides a `.lore` name. */
const STORE_MARKS = ['ledger.json', 'digest.md', 'inbox', ...Object.values(CATEGORY_FILES).map((c) => c.file)];

/**
 * True when `dir` is a store: a folder named `.lore`, or a folder that holds a ledger, a digest,
 * an inbox or a category file. Commands that keep a store (tidy, prune, undo, tasks) check this
 * first, so a `--root` that names a plain folder is refused rather than made into a store.
 */
export function isStore(dir: string): boolean {
  if (!isDirectory(dir)) return false;
  return path.basename(dir) === STORE_DIR_NAME || STORE_MARKS.some((name) => fs.existsSync(path.join(dir, name)));
}

/** The global store's folder: `<home>/.lore`. */
export function globalStoreDir(home: string = os.homedir()): string {
  return path.join(path.resolve(home), STORE_DIR_NAME);
}

/**
 * The nearest `.lore/` folder in `start` or above it, if any, the global store (`<home>/.lore`)
 * excepted (see the module comment). `home`: the home folder (default: this process's).
 */
export function nearestStoreDir(start: string, home: string = os.homedir()): string | undefined {
  const global = globalStoreDir(home);
  let dir = path.resolve(start);
  for (;;) {
    const candidate = path.join(dir, STORE_DIR_NAME);
    if (candidate !== global && isDirectory(candidate)) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * The nearest folder named by the relative path `relative` in `start` or above it: how a
 * relative `--root .lore` keeps working when an agent starts the server in a subfolder.
 */
export function nearestExisting(start: string, relative: string): string | undefined {
  let dir = path.resolve(start);
  for (;;) {
    const candidate = path.resolve(dir, relative);
    if (isDirectory(candidate)) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** Where an editor window's store is, and the folder it describes. */
export interface EditorStoreLocation {
  root: string;
  workspace: string;
}

/**
 * The store an editor window uses: `<folder>/.lore`, or the global store when a person chose it
 * (`lore.store.location: global`). With no folder open and the global store not chosen there is
 * none (undefined): the global store is written only on explicit request, never as a fallback.
 */
export function editorStoreLocation(
  folder: string | undefined,
  location: 'workspace' | 'global',
  home: string = os.homedir(),
): EditorStoreLocation | undefined {
  if (location === 'global') {
    const root = globalStoreDir(home);
    return { root, workspace: folder ? path.resolve(folder) : root };
  }
  if (!folder) return undefined;
  const workspace = path.resolve(folder);
  return { root: path.join(workspace, STORE_DIR_NAME), workspace };
}

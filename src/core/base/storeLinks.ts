/**
 * Lore never writes through a symbolic link inside a store. A store arrives in clones and zips,
 * and git keeps links: a committed `.lore/tasks/<id>.jsonl` or `.lore/tasks` that links to a
 * file or folder elsewhere would otherwise turn an agent's `task_start`, a harvest or a note into
 * a write to whatever the link names. Every write of the store substrate (atomic replace, guarded
 * replace, append, folder, move) asks `refuseLinks` first; appends also open with O_NOFOLLOW, so a
 * link put in place after the check is refused by the system too. Code above base writes through
 * these (eslint.config.mjs forbids the raw fs calls there), so a new write cannot forget the check.
 *
 * The store's own folder may be a link (a person's choice, e.g. a store kept on another disk);
 * only what lies below it is checked. Which folders are stores is what `storePaths` was asked
 * for in this process: every write path starts there.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Store folders this process has resolved (absolute, as `storePaths` made them). */
const storeRoots = new Set<string>();

/** Remembers `root` as a store, so writes below it are checked for links. */
export function rememberStoreRoot(root: string): void {
  storeRoots.add(path.resolve(root));
}

/** A file Lore was about to write that is, or lies under, a symbolic link inside the store. */
export class LinkInStoreError extends Error {
  readonly code = 'ELINKINSTORE';
  constructor(
    readonly file: string,
    readonly link: string,
    root?: string,
  ) {
    const shown = (entry: string) => (root ? shownInStore(root, entry) : entry);
    const where = linkTarget(link, root);
    super(
      link === file
        ? `${shown(link)} is a symbolic link${where}; Lore does not write through links in its store (a link can point anywhere), so nothing was written. Replace it with a regular file to let Lore write there.`
        : `${shown(link)} is a symbolic link${where}, on the way to ${shown(file)}; Lore does not write through links in its store (a link can point anywhere), so nothing was written. Replace it with a regular folder to let Lore write there.`,
    );
    this.name = 'LinkInStoreError';
  }
}

/** `entry` as a person finds it: `.lore/decisions.md` for a store in a workspace, else the full path. */
function shownInStore(root: string, entry: string): string {
  const rel = path.relative(path.basename(root) === '.lore' ? path.dirname(root) : root, entry);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : entry;
}

/** " (to X, outside the store)" for a link that can be read, else "". */
function linkTarget(link: string, root: string | undefined): string {
  try {
    const target = path.resolve(path.dirname(link), fs.readlinkSync(link));
    const outside = root !== undefined && path.relative(root, target).startsWith('..');
    return ` (to ${target}${outside ? ', outside the store' : ''})`;
  } catch {
    return '';
  }
}

/** The innermost store that holds `file`, if any. */
function storeOf(file: string): string | undefined {
  let found: string | undefined;
  for (const root of storeRoots) {
    const rel = path.relative(root, file);
    if (rel && !rel.startsWith('..') && !path.isAbsolute(rel) && (!found || root.length > found.length)) found = root;
  }
  return found;
}

/**
 * Throws LinkInStoreError when `file`, or a folder between it and its store's folder, is a
 * symbolic link. A file outside every store is not Lore's to judge and passes.
 */
export function refuseLinks(file: string): void {
  const target = path.resolve(file);
  const root = storeOf(target);
  if (!root) return;
  for (let entry = target; entry !== root; entry = path.dirname(entry)) {
    if (fs.lstatSync(entry, { throwIfNoEntry: false })?.isSymbolicLink()) throw new LinkInStoreError(target, entry, root);
  }
}

/** O_NOFOLLOW where the system has it (0 elsewhere): an open that refuses a link in the last place. */
export const NO_FOLLOW = fs.constants.O_NOFOLLOW ?? 0;

/** Appends `data` to `file` (made when missing), never through a link (see refuseLinks). */
export function appendNoFollow(file: string, data: string | Buffer): void {
  refuseLinks(file);
  const fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT | NO_FOLLOW, 0o644);
  try {
    fs.writeFileSync(fd, data);
  } finally {
    fs.closeSync(fd);
  }
}

/** Makes `dir` and the folders above it, never inside a folder a link names (see refuseLinks). */
export function mkdirNoFollow(dir: string): void {
  refuseLinks(dir);
  fs.mkdirSync(dir, { recursive: true });
}

/**
 * Moves `from` to `to` (its folder made when missing), never out of or into a folder a link
 * names: a linked inbox or `.undo/` would otherwise turn reclaiming a conversation or undoing a
 * harvest into a move of someone else's file. `from` itself may be a link: the link is moved,
 * not what it names; a link at `to` is refused rather than replaced.
 */
export function renameNoFollow(from: string, to: string): void {
  refuseLinks(path.dirname(from));
  refuseLinks(to);
  fs.mkdirSync(path.dirname(to), { recursive: true });
  fs.renameSync(from, to);
}

/**
 * Removes `file` (a folder with `recursive`), never inside a folder a link names: a linked
 * `.undo/` would otherwise have the person's files in the folder it names deleted. A link at
 * `file` itself is removed, not what it names.
 */
export function removeNoFollow(file: string, options?: fs.RmOptions): void {
  refuseLinks(path.dirname(file));
  fs.rmSync(file, options);
}

/** A store file that is a folder, or a store folder that is a file. */
export class StoreEntryError extends Error {
  constructor(
    readonly file: string,
    readonly expected: 'file' | 'folder',
  ) {
    super(
      expected === 'file'
        ? `${file} is a folder, not a file: move it away and run again`
        : `${file} is a file, not a folder: move it away and run again`,
    );
    this.name = 'StoreEntryError';
  }
}

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

/**
 * Whether paths compare without case (Windows' path.relative does). Elsewhere a prefix test says
 * the same as path.relative at a fraction of its cost, which showed in reads of many notes.
 */
const CASE_FOLDS = process.platform === 'win32';

/** The innermost store that holds `file`, if any. */
function storeOf(file: string): string | undefined {
  let found: string | undefined;
  for (const root of storeRoots) {
    if (found && root.length <= found.length) continue;
    if (CASE_FOLDS) {
      const rel = path.relative(root, file);
      if (rel && !rel.startsWith('..') && !path.isAbsolute(rel)) found = root;
    } else if (file.length > root.length + 1 && file.startsWith(root.endsWith(path.sep) ? root : root + path.sep)) found = root;
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

/**
 * A store file Lore did not read: it is, or lies under, a symbolic link that leads out of the
 * store. Its code is ENOENT on purpose: every reader already takes a missing file as "nothing
 * there", which is what such a file must be, so no reader can hand what the link names to the
 * index, the digest or an agent by forgetting a case.
 */
export class LinkOutOfStoreError extends Error {
  readonly code = 'ENOENT';
  constructor(
    readonly file: string,
    readonly link: string,
    root: string,
  ) {
    super(outOfStoreMessage(link, root));
    this.name = 'LinkOutOfStoreError';
  }
}

/** What to tell about `link`, which leads out of the store: where it points and what to do. */
function outOfStoreMessage(link: string, root: string): string {
  const folder = fs.statSync(link, { throwIfNoEntry: false })?.isDirectory() ?? false;
  return `${shownInStore(root, link)} is a symbolic link${linkTarget(link, root)}; Lore does not read ${folder ? 'what lies under it' : 'it'}, since a link can point anywhere (a cloned repository can bring one). Replace it with a regular ${folder ? 'folder' : 'file'} to have Lore read it.`;
}

/** Links already told about, and the notices not yet shown (takeLinkNotices). */
const toldLinks = new Set<string>();
const linkNotices: string[] = [];

/**
 * The link below `file`'s store folder through which `file` leads out of the store, or undefined
 * when it stays inside (no link, or links between places in the store) or lies in no store. The
 * common case costs one lstat per folder level below the store's folder; real paths are asked
 * only when a link is met.
 */
export function linkOutOfStore(file: string): string | undefined {
  const target = path.resolve(file);
  const root = storeOf(target);
  if (!root) return undefined;
  let link: string | undefined;
  for (let entry = target; entry !== root && !link; entry = path.dirname(entry)) {
    if (fs.lstatSync(entry, { throwIfNoEntry: false })?.isSymbolicLink()) link = entry;
  }
  if (!link) return undefined;
  let real: string;
  let realRoot: string;
  try {
    real = fs.realpathSync(target);
    realRoot = fs.realpathSync(root);
  } catch {
    return undefined; // A dangling link or a loop: the read itself fails, reading nothing.
  }
  const rel = path.relative(realRoot, real);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel)) ? undefined : link;
}

/**
 * Throws LinkOutOfStoreError when reading `file` would read through a link out of its store; the
 * first time for each link, also leaves a notice for the person (takeLinkNotices). Every read of a
 * store file goes through here (readText.ts; eslint.config.mjs forbids raw reads above base).
 */
export function refuseReadingOutOfStore(file: string): void {
  const link = linkOutOfStore(file);
  if (link === undefined) return;
  const root = storeOf(path.resolve(file))!;
  const error = new LinkOutOfStoreError(path.resolve(file), link, root);
  if (!toldLinks.has(link)) {
    toldLinks.add(link);
    linkNotices.push(error.message);
  }
  throw error;
}

/**
 * Opens `file` for reading when it lies in a store, refusing (refuseReadingOutOfStore) a link on
 * the way that leads out of it; undefined for a file in no store, which the caller reads as it
 * is. Costs one lstat per folder level below the store's folder: the file itself is opened with
 * O_NOFOLLOW, and only a link met there or on the way asks for real paths.
 */
export function openInStore(file: string): number | undefined {
  const target = path.resolve(file);
  const root = storeOf(target);
  if (!root) return undefined;
  let linked = NO_FOLLOW === 0 && (fs.lstatSync(target, { throwIfNoEntry: false })?.isSymbolicLink() ?? false);
  for (let dir = path.dirname(target); dir !== root && !linked; dir = path.dirname(dir)) {
    linked = fs.lstatSync(dir, { throwIfNoEntry: false })?.isSymbolicLink() ?? false;
  }
  if (!linked) {
    try {
      return fs.openSync(target, fs.constants.O_RDONLY | NO_FOLLOW);
    } catch (error) {
      // ELOOP: the file itself is a link (EMLINK on FreeBSD); it may still stay inside the store.
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ELOOP' && code !== 'EMLINK') throw error;
    }
  }
  refuseReadingOutOfStore(target);
  return fs.openSync(target, 'r');
}

/** The "did not read this link" notices not yet shown (each link once per process), emptied. */
export function takeLinkNotices(): string[] {
  return linkNotices.splice(0);
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

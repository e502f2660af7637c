/**
 * A conversation names the folders it ran in (`cwd: /home/ada/shop`, `Read /home/ada/shop/src/cart.ts`),
 * and so the person's user name and the layout of their machine. None of that helps a model
 * find what is worth keeping, so before a conversation goes to a model provider its workspace
 * becomes a relative path (`src/cart.ts`, `.` for the folder itself) and the home folder `~`.
 * File paths the model names back are read relative to the workspace (fileNotes.ts), so notes
 * land on the same files.
 */

/** The folders to hide from a model provider. */
export interface LocalPaths {
  /** The person's home folder: written `~`. */
  home: string;
  /** The store's workspace: its paths written relative to it. */
  workspace: string;
  /**
   * The folder the conversation ran in, when it is neither the workspace nor inside it (a session
   * copied from another machine or folder): its paths are written relative to it, as notes read them.
   */
  cwd?: string;
}

const WINDOWS_PATH = /^[A-Za-z]:[\\/]|^\\\\/;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A folder without its trailing separators (a root stays a root). */
function trimmed(folder: string): string {
  const cut = folder.replace(/[\\/]+$/, '');
  return cut === '' || /^[A-Za-z]:$/.test(cut) ? folder : cut;
}

/** Whether `inner` is `outer` or lies inside it, compared as written (both in the same syntax). */
function within(inner: string, outer: string, windows: boolean): boolean {
  const key = (p: string) => (windows ? p.toLowerCase().replace(/\//g, '\\') : p);
  const [a, b] = [key(inner), key(outer)];
  return a === b || a.startsWith(b.endsWith('/') || b.endsWith('\\') ? b : `${b}${windows ? '\\' : '/'}`);
}

/** One folder replaced: as written, and for a Windows path also with `/` and with JSON's doubled `\\`. */
function folderPattern(folder: string, windows: boolean): RegExp {
  const spellings = windows ? [folder, folder.replace(/\\/g, '/'), folder.replace(/\\/g, '\\\\')] : [folder];
  const alternatives = [...new Set(spellings)]
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp)
    .join('|');
  // Not the end of a longer path (`/mnt/home/ada`) nor the start of a longer name (`/home/adam`, `/home/ada.old`); a full stop after it ends a sentence.
  const before = String.raw`(?<![\w.\-\\]|[\w.\-]/)`;
  const after = String.raw`(?![\w\-]|\.[\w\-])`;
  // What follows the folder: a separator (or JSON's `\\`), kept out of the relative path.
  return new RegExp(`${before}(?:${alternatives})${after}(\\\\\\\\|[\\\\/])?`, windows ? 'gi' : 'g');
}

/**
 * `text` with the workspace's paths relative (`.` for the workspace itself), the other folder the
 * conversation ran in likewise, and the rest of the home folder as `~`. Undefined `paths`: unchanged.
 */
export function maskLocalPaths(text: string, paths: LocalPaths | undefined): string {
  if (!paths || !paths.home) return text;
  const windows = WINDOWS_PATH.test(paths.home) || WINDOWS_PATH.test(paths.workspace);
  const home = trimmed(paths.home);
  const relative: string[] = [];
  // A workspace that is the home folder (or above it) would hide every path under home: `~` says more.
  for (const folder of [paths.workspace, paths.cwd]) {
    if (!folder) continue;
    const own = trimmed(folder);
    if (within(home, own, windows)) continue;
    if (relative.some((kept) => within(own, kept, windows))) continue;
    relative.push(own);
  }
  let out = text;
  for (const folder of relative.sort((a, b) => b.length - a.length)) {
    out = out.replace(folderPattern(folder, windows), (_match, separator: string | undefined) => (separator ? '' : '.'));
  }
  return out.replace(folderPattern(home, windows), (_match, separator: string | undefined) => (separator ? `~${separator}` : '~'));
}

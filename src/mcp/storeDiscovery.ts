/**
 * Which store `lore mcp` serves. Agents start servers wherever they were started themselves (a
 * subfolder, the home folder), so the store is looked for, never assumed:
 *   1. `--root DIR`, then $LORE_ROOT: an absolute path as given; a relative one in the working
 *      folder or the nearest parent that has it (`--root .lore` from `src/` finds `../.lore`);
 *   2. the client's roots (roots/list, when the client has the capability): the nearest `.lore/`
 *      in or above each `file://` root, in the client's order;
 *   3. the working folder and its parents: the nearest `.lore/`, as git finds `.git`.
 * The global store (`~/.lore/`) is served only when named: `--global`, or `--root`/$LORE_ROOT
 * pointing at it; the walk up from a folder never finds it (storeLocation.ts), so an agent in a
 * project without a store never writes into it by accident.
 * A store that is not found is reported, with where it was looked for; nothing is created.
 */
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { globalStoreDir, isDirectory, nearestExisting, nearestStoreDir } from '../core/store/storeLocation';
import { storePaths, type StorePaths } from '../core/store/storePaths';

/** What the server was started with. */
export interface StoreRequest {
  /** `--root`, as typed. */
  root?: string;
  /** `--workspace`, as typed. */
  workspace?: string;
  /** $LORE_ROOT. */
  envRoot?: string;
  /** The server's working folder. */
  cwd: string;
  /** `--global`: serve the global store. */
  global?: boolean;
  /** The home folder (where the global store is; default: this process's). */
  home?: string;
}

export type StoreLookup =
  | { found: true; paths: StorePaths; /** How it was found, for the log and replies. */ how: string }
  | { found: false; /** The message every reply gives. */ message: string };

/** Whether the request names the store itself (then the client's roots are not asked for). */
export function namesStore(request: StoreRequest): boolean {
  return !!(request.global || request.root?.trim() || request.envRoot?.trim());
}

/** The folder a `file://` root URI names, if it is one. */
export function rootFolder(uri: string): string | undefined {
  try {
    return uri.startsWith('file:') ? fileURLToPath(uri) : undefined;
  } catch {
    return undefined;
  }
}

const HINT = 'run `lore init` in the project folder, or start the server with --root <path to .lore>';

/** Finds the store for `request`; `clientRoots` are the client's root URIs when it has them. */
export function locateStore(request: StoreRequest, clientRoots: readonly string[] = []): StoreLookup {
  const workspace = request.workspace ? path.resolve(request.cwd, request.workspace) : undefined;
  const found = (dir: string, how: string): StoreLookup => ({ found: true, paths: storePaths(dir, workspace), how });
  if (request.global) {
    const dir = globalStoreDir(request.home);
    return isDirectory(dir)
      ? found(dir, '--global')
      : { found: false, message: `no global Lore store at ${dir} (--global); run \`lore init --global\` first` };
  }
  for (const [value, how] of [
    [request.root, '--root'],
    [request.envRoot, '$LORE_ROOT'],
  ] as const) {
    const chosen = value?.trim();
    if (!chosen) continue;
    const dir = path.isAbsolute(chosen) ? (isDirectory(chosen) ? chosen : undefined) : nearestExisting(request.cwd, chosen);
    if (dir) return found(dir, `${how} ${chosen}`);
    const where = path.isAbsolute(chosen) ? chosen : `${path.resolve(request.cwd, chosen)} (nor in a parent folder of ${request.cwd})`;
    return { found: false, message: `no Lore store found at ${where}, given by ${how}; ${HINT}` };
  }
  for (const uri of clientRoots) {
    const folder = rootFolder(uri);
    const dir = folder && nearestStoreDir(folder, request.home);
    if (dir) return found(dir, `the client's root ${uri}`);
  }
  const dir = nearestStoreDir(request.cwd, request.home);
  if (dir) return found(dir, `the nearest .lore/ above ${request.cwd}`);
  const roots = clientRoots.length ? ` or in the client's roots (${clientRoots.join(', ')})` : '';
  return { found: false, message: `no Lore store found: no .lore/ folder in ${request.cwd} or its parents${roots}; ${HINT}` };
}

/**
 * Keeps a long-lived index (the MCP server) fresh from file-system events instead of a stat of
 * every source before queries: on a 10,000-file store that scan costs ~60 ms, a targeted update
 * of the file that changed ~3 ms. Events can be lost (inotify overflow, network file systems),
 * so callers keep a slow periodic full refresh as a safety net.
 *
 * Only the folders sources live in are watched (see sourceFiles.ts): the store folder itself and
 * files/ each without their subfolders, inbox/ and archive/ with theirs. A recursive watch of the
 * whole store also watched `.index/`, whose files a build rewrites constantly: on Linux, where
 * Node implements a recursive watch by walking the tree, every one of those events cost a
 * readdir and stats of the folder, and setting the watch up stat'ed each of files/' 10,000 note
 * files (~220 ms) — together a good part of the pauses of a server building its first index.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { StorePaths } from '../../store/storePaths';
import { listNames } from '../../base/walkTree';
import { classifySource } from './sourceFiles';

/** Changes arriving within this window are indexed together (an atomic save is several events). */
const DEBOUNCE_MS = 50;

export interface StoreWatcher {
  /** File-system events received so far, sources or not (diagnostics: what watching costs). */
  readonly events: number;
  close(): void;
}

export interface WatchStoreOptions {
  /** Watch inbox/ and archive/ for conversations (default true; false when they are not indexed). */
  transcripts?: boolean;
}

/** A folder watched for sources, and whether its subfolders are. */
interface SourceFolder {
  dir: string;
  recursive: boolean;
}

/**
 * Watches the store's source folders and calls `onChange` with the absolute paths of changed
 * source files. A source folder created later (files/ on the first note) is watched from the
 * event of its creation. Undefined when the store folder cannot be watched (the caller then
 * relies on its periodic refresh).
 */
export function watchStore(
  paths: StorePaths,
  onChange: (files: string[]) => void,
  onError?: (error: Error) => void,
  options: WatchStoreOptions = {},
): StoreWatcher | undefined {
  let pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let events = 0;
  let closed = false;
  const flush = () => {
    timer = undefined;
    const files = [...pending];
    pending = new Set();
    if (files.length > 0) onChange(files);
  };
  const changed = (abs: string) => {
    // Temporary files of atomic writes and the lock are not sources.
    if (!classifySource(paths, abs)) return;
    pending.add(abs);
    timer ??= setTimeout(flush, DEBOUNCE_MS);
  };
  const folders: SourceFolder[] = [{ dir: paths.files, recursive: false }];
  if (options.transcripts ?? true) folders.push({ dir: paths.inbox, recursive: true }, { dir: paths.archive, recursive: true });
  const watchers = new Map<string, fs.FSWatcher>();
  /** Watches a source folder (again: a watch ends with the folder it was set on). */
  const watchFolder = (folder: SourceFolder, appeared: boolean): void => {
    watchers.get(folder.dir)?.close();
    watchers.delete(folder.dir);
    if (closed) return;
    let watcher: fs.FSWatcher;
    try {
      watcher = fs.watch(folder.dir, { recursive: folder.recursive, persistent: false }, (_event, name) => {
        events++;
        if (name) changed(path.resolve(folder.dir, name.toString()));
      });
    } catch {
      return; // Not there (yet): the store folder's watcher sees it appear.
    }
    watcher.on('error', (error) => onError?.(error));
    watchers.set(folder.dir, watcher);
    // Files written into a new folder before its watch began (a first note file) had no event.
    if (appeared && !folder.recursive) for (const name of listNames(folder.dir)) changed(path.join(folder.dir, name));
  };
  let root: fs.FSWatcher;
  try {
    root = fs.watch(paths.root, { persistent: false }, (event, name) => {
      events++;
      if (!name) return;
      const abs = path.resolve(paths.root, name.toString());
      const folder = folders.find((f) => f.dir === abs);
      // A source folder created, deleted or renamed ('rename'); a 'change' of one is its metadata.
      if (folder) {
        if (event === 'rename') watchFolder(folder, true);
      } else changed(abs);
    });
  } catch {
    return undefined;
  }
  root.on('error', (error) => onError?.(error));
  for (const folder of folders) watchFolder(folder, false);
  return {
    get events() {
      return events;
    },
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      root.close();
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}

/**
 * The files a search index is derived from: the category files, the per-file note files and the
 * conversations in inbox/ and archive/. Listing stats each file so an update can skip the ones
 * whose mtime and size did not change.
 *
 * Archived knowledge (archive/knowledge/, lifecycle/knowledgeArchive.ts) is not indexed either:
 * an archived item is one agents stopped needing, and search hands its hits to agents.
 *
 * The stored transcripts in transcripts/ are deliberately not indexed. They are neither knowledge
 * (the items harvested from them are, with provenance leading back to them) nor waiting to be
 * harvested, and search and recall hand conversation excerpts to agents unfiltered: indexing them
 * would bring back, for good, the planted instructions the review queue holds out of every agent
 * reply (and, with reclaim `keep` or `archive`, find each conversation twice). A person opens them
 * through provenance links; an agent asks for one by id (MCP open_conversation), with such lines
 * withheld.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CATEGORY_FILES, type CategoryFileKey } from '../../model/categories';
import { isClaudeCodeSessionSideFolder } from '../../model/claudeCodeLayout';
import { isConversationFileName } from '../../model/conversation';
import { knowledgeArchiveDir } from '../../store/lifecycle/archivePaths';
import { personalFileName, isInside, storeRelative, type StorePaths } from '../../store/storePaths';
import { listNames, walkTree } from '../../base/walkTree';
import { sha256Hash } from '../../base/lazyCrypto';
import { isNoteFileName } from '../../model/noteFile';
import { lazy } from '../../base/lazy';

// Only listing the sources needs the secret rules (for names); the stamps of a current index do not.
const redact = lazy(() => require('../../model/safety/redact') as typeof import('../../model/safety/redact'));

/** How a source file is read into documents. */
export type SourceKind = 'category' | 'notes' | 'transcript';

/** A source file with what an incremental update compares. */
export interface SourceFileInfo {
  /**
   * Store-relative path with forward slashes: the key of the file in the index, and what hits
   * show. A conversation whose file name holds a secret gets it redacted (see indexedPath).
   */
  rel: string;
  abs: string;
  kind: SourceKind;
  /** For category files: which one. */
  category?: CategoryFileKey;
  mtimeMs: number;
  size: number;
}

/** Paths already redacted: every scan visits every conversation, most of them unchanged. */
const indexedPaths = new Map<string, string>();
const MAX_REMEMBERED_PATHS = 100_000;

/**
 * How the index stores and shows the store-relative path of a conversation: a file name (or
 * folder) that holds a secret is redacted, with a short hash of the real path appended so two
 * such files keep apart. Such a hit cannot be opened by its path; the secret stays out of the
 * index and of every search result.
 */
function indexedPath(rel: string): string {
  let key = indexedPaths.get(rel);
  if (key === undefined) {
    const clean = redact().redactSecrets(rel);
    key = clean === rel ? rel : `${clean}#${sha256Hash().update(rel).digest('hex').slice(0, 8)}`;
    if (indexedPaths.size >= MAX_REMEMBERED_PATHS) indexedPaths.clear();
    indexedPaths.set(rel, key);
  }
  return key;
}

/** Folders of conversations nested deeper than this are not walked (a loop guard besides symlinks). */
const MAX_DEPTH = 8;

function statFile(abs: string): fs.Stats | undefined {
  try {
    const stat = fs.statSync(abs, { throwIfNoEntry: false });
    return stat?.isFile() ? stat : undefined;
  } catch {
    return undefined;
  }
}

/** Classifies a store-relative or absolute path as a source, or undefined when it is none. */
export function classifySource(paths: StorePaths, file: string): Omit<SourceFileInfo, 'mtimeMs' | 'size'> | undefined {
  const abs = path.resolve(paths.root, file);
  if (!isInside(paths.root, abs) || abs === paths.root) return undefined;
  const rel = storeRelative(paths, abs);
  for (const key of Object.keys(CATEGORY_FILES) as CategoryFileKey[]) {
    // The personal layer's category files are indexed with the shared ones: agents search both.
    if (rel === CATEGORY_FILES[key].file || rel === personalFileName(CATEGORY_FILES[key].file))
      return { rel, abs, kind: 'category', category: key };
  }
  const name = path.basename(abs);
  if (path.dirname(abs) === paths.files && isNoteFileName(name)) return { rel, abs, kind: 'notes' };
  if (
    (isInside(paths.inbox, abs) || isInside(paths.archive, abs)) &&
    !isInside(knowledgeArchiveDir(paths), abs) &&
    isConversationFileName(name) &&
    !isClaudeCodeSessionSideFolder(path.dirname(abs))
  ) {
    return { rel: indexedPath(rel), abs, kind: 'transcript' };
  }
  return undefined;
}

/** Stats one classified path; undefined when the file does not exist (any more). */
export function statSource(paths: StorePaths, file: string): SourceFileInfo | undefined {
  const info = classifySource(paths, file);
  if (!info) return undefined;
  const stat = statFile(info.abs);
  return stat ? { ...info, mtimeMs: stat.mtimeMs, size: stat.size } : undefined;
}

/** Receives each source file; nothing is allocated for a file the visitor does not keep. */
export type SourceVisitor = (
  rel: string,
  abs: string,
  kind: SourceKind,
  category: CategoryFileKey | undefined,
  mtimeMs: number,
  size: number,
) => void;

/**
 * Stats every source file of the store (in directory order). A full update runs this over
 * thousands of files, so it builds no object per file: the visitor keeps what it needs.
 */
export function visitSourceFiles(paths: StorePaths, options: { transcripts?: boolean }, visit: SourceVisitor): void {
  for (const _ of sourceFileSteps(paths, options, visit));
}

/**
 * The same visit with a pause (a yield to the event loop) every `sliceMs`: a stat of 10,000
 * files is a few hundred ms on a loaded machine, which a server must not spend in one stretch.
 */
export async function visitSourceFilesInSlices(
  paths: StorePaths,
  options: { transcripts?: boolean },
  visit: SourceVisitor,
  pause: () => Promise<void>,
  sliceMs: number,
): Promise<void> {
  let deadline = performance.now() + sliceMs;
  for (const _ of sourceFileSteps(paths, options, visit)) {
    if (performance.now() < deadline) continue;
    await pause();
    deadline = performance.now() + sliceMs;
  }
}

/** Visits the source files one at a time, a step per file, so a caller can pause between steps. */
function* sourceFileSteps(paths: StorePaths, options: { transcripts?: boolean }, visit: SourceVisitor): Generator<void> {
  // Relative paths are built by concatenation: path.relative per file was a third of a scan.
  const push = (abs: string, rel: string, kind: SourceKind, category?: CategoryFileKey) => {
    const stat = statFile(abs);
    if (stat) visit(rel, abs, kind, category, stat.mtimeMs, stat.size);
  };
  for (const [rel, key] of categorySources()) push(path.join(paths.root, rel), rel, 'category', key);
  const filesRel = storeRelative(paths, paths.files);
  const filesDir = paths.files + path.sep;
  for (const name of listNames(paths.files)) {
    if (!isNoteFileName(name)) continue;
    push(filesDir + name, `${filesRel}/${name}`, 'notes');
    yield;
  }
  if (options.transcripts ?? true) {
    // Archived knowledge is not a conversation, and is kept out of what agents are handed (archiveSearch.ts reads it).
    const archivedKnowledge = knowledgeArchiveDir(paths);
    for (const dir of [paths.inbox, paths.archive]) {
      const rel = storeRelative(paths, dir);
      // What the harvest would read is what is indexed: hidden folders and Claude Code's session side
      // folders (subagents/, tool-results/) are skipped; folder symlinks are not followed, file
      // symlinks are stat'ed through. The walk lists; the stats come a step at a time.
      const found: Array<[string, string]> = [];
      walkTree(dir, {
        maxDepth: MAX_DEPTH,
        enter: (entry, full) => walksInto(entry, full, archivedKnowledge),
        file: (entry, full) => {
          if ((entry.isFile() || entry.isSymbolicLink()) && isConversationFileName(entry.name))
            found.push([full, rel + slashed(full.slice(dir.length))]);
        },
      });
      for (const [full, relPath] of found) {
        push(full, indexedPath(relPath), 'transcript');
        yield;
      }
    }
  }
}

/**
 * The category files, shared and personal, store-relative, with their category. The personal
 * layer (personalLayer.ts) is searched with the shared store, never committed.
 */
export function categorySources(): Array<[string, CategoryFileKey]> {
  return (Object.keys(CATEGORY_FILES) as CategoryFileKey[]).flatMap((key): Array<[string, CategoryFileKey]> => [
    [CATEGORY_FILES[key].file, key],
    [personalFileName(CATEGORY_FILES[key].file), key],
  ]);
}

/** Whether a listing of conversations goes into a subfolder (the same rule for files and folders). */
function walksInto(entry: fs.Dirent, full: string, archivedKnowledge: string): boolean {
  return !entry.name.startsWith('.') && !isClaudeCodeSessionSideFolder(full) && full !== archivedKnowledge;
}

/**
 * Every folder sources are listed from, absolute: the store folder, files/, and inbox/, archive/
 * with the subfolders a listing walks into (when conversations are indexed). A source added,
 * removed or replaced by a rename changes the modification time of one of these.
 */
export function sourceFolders(paths: StorePaths, options: { transcripts?: boolean }): string[] {
  const folders = [paths.root, paths.files];
  for (const rel of new Set(categorySources().map(([rel]) => path.dirname(rel)))) if (rel !== '.') folders.push(path.join(paths.root, rel));
  if (options.transcripts ?? true) {
    const archivedKnowledge = knowledgeArchiveDir(paths);
    for (const dir of [paths.inbox, paths.archive]) {
      folders.push(dir);
      walkTree(dir, {
        maxDepth: MAX_DEPTH,
        enter: (entry, full) => {
          const walked = walksInto(entry, full, archivedKnowledge);
          if (walked) folders.push(full);
          return walked;
        },
        file: () => undefined,
      });
    }
  }
  return folders;
}

/** A path tail with forward slashes, as index keys are written on every platform. */
function slashed(tail: string): string {
  return path.sep === '/' ? tail : tail.replaceAll(path.sep, '/');
}

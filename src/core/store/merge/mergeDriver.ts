/**
 * Lore's git merge driver, registered in a clone (design.md, "A team shares the store through
 * git"). git runs only drivers a clone's own configuration defines, never one a repository names,
 * so each clone registers it: `lore init` in a clone whose store exists, and the language server
 * when VS Code opens such a workspace. Registration is idempotent and writes two things:
 *
 * - `merge.lore.name` and `merge.lore.driver` in the clone's own config (`git config --local`):
 *   an absolute, quoted invocation of this Lore's CLI with the Node that runs it;
 * - a marked block in `$GIT_DIR/info/attributes` (the common git dir in a linked worktree) routing
 *   the store's files to `merge=lore`; info/attributes has the highest precedence, so it wins over
 *   the committed `.gitattributes`; a person's own lines there are kept, and each store of the
 *   repository has its own block (paths relative to the repository's top);
 * Registration writes nothing in the work tree (opening a workspace must not change `git status`);
 * the store's committed `.gitattributes` (the union fallback for people without Lore) is written
 * by `lore init` (initStore.ts).
 *
 * The driver (`lore merge-driver`) leaves a mark in the store's `.cache/` for the reconcile that
 * follows the merge (reconcileMerge.ts).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../../base/atomicWrite';
import { readTextIfExists } from '../../base/readText';
import type { StorePaths } from '../storePaths';
import { git, runGit } from '../history/git';
import { findStoreRepo, type StoreRepo } from '../history/storeRepo';
import { mkdirNoFollow } from '../../base/storeLinks';
import { pushAll, spliceAll } from '../../base/bulkArrays';

/** The driver's name in git's config and in the attributes. */
export const MERGE_DRIVER = 'lore';

/** The store's files the driver merges, relative to the store (gitattributes patterns). */
const DRIVER_PATTERNS = ['*.md', 'ledger.json', 'files/*.md', 'journal/*.md', 'archive/knowledge/**/*.md'];

/** A word for sh (git runs a driver's command line with the shell, on every platform). */
function shellWord(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The driver's command line: `node cli.js merge-driver %O %A %B %P` (git quotes the placeholders
 * itself). `env` is what the Node needs (ELECTRON_RUN_AS_NODE for VS Code's own). When this Lore
 * is no longer where it was registered (uninstalled, moved, an updated extension before VS Code
 * restarts), git's own merges run instead, as for a person without Lore: a union of lines for
 * markdown, the text merge (whose conflict markers Lore reads back) for ledger.json.
 */
export function mergeDriverCommand(node: string, cli: string, env: Record<string, string> = {}): string {
  const vars = Object.entries(env).map(([k, v]) => `${k}=${shellWord(v)} `);
  const lore = `${vars.join('')}${shellWord(node)} ${shellWord(cli)} merge-driver %O %A %B %P`;
  const git = 'case %P in *.json) git merge-file -q %A %O %B ;; *) git merge-file -q --union %A %O %B ;; esac';
  return `if [ -f ${shellWord(node)} ] && [ -f ${shellWord(cli)} ]; then ${lore}; else ${git}; fi`;
}

/** A gitattributes pattern for a repository-relative path (quoted C-style when it holds a space or a quote). */
function attributePattern(rel: string): string {
  const pattern = `/${rel}`;
  return /[\s"\\]/.test(pattern) ? `"${pattern.replace(/["\\]/g, (c) => `\\${c}`)}"` : pattern;
}

const blockStart = (storeRel: string) => `# >>> lore merge driver: ${storeRel} (written by lore init; edits inside are replaced)`;
const BLOCK_END = '# <<< lore merge driver';

/** info/attributes' text with this store's block in place (added, or replaced when it differs). */
export function withDriverBlock(text: string, storeRel: string): string {
  const prefix = storeRel === '.' ? '' : `${storeRel}/`;
  const block = [blockStart(storeRel), ...DRIVER_PATTERNS.map((p) => `${attributePattern(prefix + p)} merge=${MERGE_DRIVER}`), BLOCK_END];
  const lines = text === '' ? [] : text.replace(/\r?\n$/, '').split(/\r?\n/);
  const start = lines.indexOf(block[0]);
  const end = start < 0 ? -1 : lines.indexOf(BLOCK_END, start);
  if (start >= 0 && end > start) spliceAll(lines, start, end - start + 1, block);
  else pushAll(lines, block);
  return lines.join('\n') + '\n';
}

export interface DriverRegistration {
  /** The repository the store is in. */
  repo: StoreRepo;
  /** What this registration changed (empty: it was registered already). */
  changed: Array<'config' | 'attributes'>;
}

/** The file git reads the clone's own attributes from (the common git dir's in a linked worktree). */
async function infoAttributesFile(repo: StoreRepo): Promise<string> {
  const out = (await git(['rev-parse', '--git-path', 'info/attributes'], { cwd: repo.top })).trim();
  return path.resolve(repo.top, out);
}

/**
 * Registers the driver for the store's repository (see the module comment); undefined when the
 * store is in no repository (or git is missing), or when that repository ignores the store: git
 * never merges an ignored store, and a store kept inside another project's folder (a scratch or
 * demo workspace) must not point that project's git config at this Lore. Changes nothing that is
 * already as it should be.
 */
export async function registerMergeDriver(paths: StorePaths, command: string): Promise<DriverRegistration | undefined> {
  const repo = await findStoreRepo(paths);
  if (!repo) return undefined;
  const ignored = await runGit(['check-ignore', '-q', '--', repo.storeRel || '.'], { cwd: repo.top });
  if (ignored.code === 0) return undefined;
  const changed: DriverRegistration['changed'] = [];
  const settings: Array<[string, string]> = [
    [`merge.${MERGE_DRIVER}.name`, 'Lore: store files merged by meaning'],
    [`merge.${MERGE_DRIVER}.driver`, command],
  ];
  for (const [key, value] of settings) {
    const current = await runGit(['config', '--local', '--get', key], { cwd: repo.top });
    if (current.code === 0 && current.stdout.replace(/\n$/, '') === value) continue;
    await git(['config', '--local', key, value], { cwd: repo.top });
    if (!changed.includes('config')) changed.push('config');
  }
  const attributes = await infoAttributesFile(repo);
  const before = readTextIfExists(attributes) ?? '';
  const after = withDriverBlock(before, repo.storeRel);
  if (after !== before) {
    mkdirNoFollow(path.dirname(attributes));
    writeFileAtomic(attributes, after);
    changed.push('attributes');
  }
  return { repo, changed };
}

/** The mark `lore merge-driver` leaves in a store's .cache/ for the reconcile after the merge. */
export function mergedMarkFile(paths: Pick<StorePaths, 'cache'>): string {
  return path.join(paths.cache, 'merged');
}

/**
 * The store folder of a store file git named to the driver (`%P`, relative to the repository's
 * top, which is the driver's working folder): the folder above `files/`, `journal/` or
 * `archive/knowledge/` for files in those, else the file's own folder.
 */
export function storeRootOfMergedFile(top: string, file: string): string {
  const parts = file.split(/[\\/]/).slice(0, -1);
  if (parts.at(-1) === 'files' || parts.at(-1) === 'journal') parts.pop();
  else {
    const at = parts.lastIndexOf('archive');
    if (at >= 0 && parts[at + 1] === 'knowledge') parts.splice(at);
  }
  return path.resolve(top, ...parts);
}

/** Leaves the mark in the store at `root` (nothing when it is no folder: the path named no store). */
export function markStoreMerged(root: string): void {
  if (!fs.existsSync(root) || !fs.statSync(root).isDirectory()) return;
  const mark = mergedMarkFile({ cache: path.join(root, '.cache') });
  mkdirNoFollow(path.dirname(mark));
  writeFileAtomic(mark, '');
}

/** Whether a merge left its mark for the reconcile (a cheap check every writer makes). */
export function mergePending(paths: Pick<StorePaths, 'cache'>): boolean {
  return fs.existsSync(mergedMarkFile(paths));
}

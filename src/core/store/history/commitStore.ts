/**
 * One commit of the store's own files, and nothing else. The commit is built in a temporary
 * index (GIT_INDEX_FILE) that starts as a copy of the person's index with every path outside
 * the committed ones put back to HEAD, so their staged and unstaged changes elsewhere are neither
 * committed nor unstaged; `git add -A` on the store's paths respects .gitignore (.index/,
 * .cache/, .logs/, inbox/ …). The branch moves with a compare-and-swap (`update-ref NEW OLD`), so
 * a commit the person makes at the same moment is never overwritten: Lore builds again on top of it.
 * The person's index gets the committed paths' new entries before the branch moves (as git
 * commit orders it), so `git status` shows the store clean instead of Lore's commit reversed as a
 * staged change, and a kill in between never leaves the index behind HEAD.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import { removeNoFollow } from '../../base/storeLinks';
import * as path from 'node:path';
import { crashPoint } from '../../base/crashPoints';
import { git, runGit } from './git';
import { repoBusy, storePathspec, type StoreRepo } from './storeRepo';

export interface CommitRequest {
  /** First line: `<type>: <summary>`. */
  subject: string;
  /** What changed and where it came from. */
  body?: string;
  /** Store-relative paths to commit (folders included); default: the whole store. */
  paths?: string[];
  /** Moves the tag `memory/daily/YYYY-MM-DD` (of this date, UTC) to the commit. */
  dailyTag?: Date;
}

export type CommitOutcome =
  | { status: 'committed'; commit: string; files: string[]; tag?: string; warning?: string }
  | { status: 'unchanged' }
  | { status: 'deferred'; reason: string };

/** Attempts when the branch moved between reading HEAD and moving it (a person committing). */
const ATTEMPTS = 3;
/** Tries and pause when the person's index is locked by a git command of theirs. */
const INDEX_TRIES = 5;
const INDEX_PAUSE_MS = 100;

/** Name of Lore's temporary index files in the git directory: `lore-index-<pid>-<random>`. */
const INDEX_PREFIX = 'lore-index-';

/** The identity Lore commits as when the repository has none configured (teammateArrivals knows it as the person's own). */
export const FALLBACK_IDENTITY = {
  GIT_AUTHOR_NAME: 'Lore',
  GIT_AUTHOR_EMAIL: 'lore@localhost',
  GIT_COMMITTER_NAME: 'Lore',
  GIT_COMMITTER_EMAIL: 'lore@localhost',
};

/**
 * Parts of a store that are never Lore's to commit, whatever .gitignore says (a store made by
 * hand, a .gitignore someone deleted): derived data, the lock, the undo area, temporary files,
 * and raw conversations (inbox/, queue/, and the reclaimed ones in archive/YYYY-MM/), which may
 * hold secrets that redaction removes only from what Lore writes. archive/knowledge/ (items
 * lore prune archived) is knowledge and is committed.
 */
const PRIVATE = ['.cache', '.index', '.logs', '.lock', '.undo', 'inbox', 'queue'];

function privatePaths(repo: StoreRepo): string[] {
  const base = repo.storeRel === '.' ? '' : `${repo.storeRel}/`;
  return [
    ...PRIVATE.map((p) => `:(top,literal)${base}${p}`),
    `:(top,glob)${base}**/*.tmp`,
    `:(top,glob)${base}archive/[0-9][0-9][0-9][0-9]-[0-9][0-9]/**`,
  ];
}

/** The daily tag's name for a date (UTC, like provenance dates). */
export function dailyTagName(date: Date): string {
  return `memory/daily/${date.toISOString().slice(0, 10)}`;
}

/** HEAD's commit and tree in one process; undefined on an unborn branch. */
async function headCommit(repo: StoreRepo): Promise<{ commit: string; tree: string } | undefined> {
  const result = await runGit(['log', '-1', '--format=%H %T', 'HEAD', '--'], { cwd: repo.top });
  const [commit, tree] = result.code === 0 ? result.stdout.trim().split(' ') : [];
  return commit && tree ? { commit, tree } : undefined;
}

/** Whether git knows who commits, per repository, asked once per process. */
const identityKnown = new Map<string, Promise<boolean>>();

async function identityEnv(repo: StoreRepo): Promise<Record<string, string>> {
  let known = identityKnown.get(repo.top);
  if (!known) {
    known = runGit(['var', 'GIT_COMMITTER_IDENT'], { cwd: repo.top }).then((r) => r.code === 0);
    identityKnown.set(repo.top, known);
  }
  return (await known) ? {} : FALLBACK_IDENTITY;
}

/** Commits the store's paths; never touches anything else of the work tree or the index. */
export async function commitStore(repo: StoreRepo, request: CommitRequest): Promise<CommitOutcome> {
  const busy = repoBusy(repo);
  if (busy) return { status: 'deferred', reason: `the repository is in the middle of ${busy}` };
  if (request.paths?.length === 0) return { status: 'unchanged' }; // No pathspec would mean the whole repository.
  const specs = (request.paths ?? ['']).map((p) => storePathspec(repo, p));
  for (let attempt = 1; ; attempt++) {
    const outcome = await commitOnce(repo, request, specs);
    if (outcome !== 'moved') return outcome;
    if (attempt >= ATTEMPTS) return { status: 'deferred', reason: 'the branch kept moving while Lore committed' };
  }
}

/** Temporary indexes of Lore processes that were killed mid-commit (their pid is gone). */
function removeStaleIndexes(repo: StoreRepo): void {
  let names: string[];
  try {
    names = fs.readdirSync(repo.gitDir).filter((n) => n.startsWith(INDEX_PREFIX));
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(name.slice(INDEX_PREFIX.length).split('-')[0]);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      process.kill(pid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ESRCH') removeNoFollow(path.join(repo.gitDir, name), { force: true });
    }
  }
}

async function commitOnce(repo: StoreRepo, request: CommitRequest, specs: string[]): Promise<CommitOutcome | 'moved'> {
  removeStaleIndexes(repo);
  const current = await headCommit(repo);
  const head = current?.commit;
  const index = path.join(repo.gitDir, `${INDEX_PREFIX}${process.pid}-${randomBytes(4).toString('hex')}`);
  const env = { GIT_INDEX_FILE: index };
  const opts = { cwd: repo.top, env };
  try {
    // The person's index as a start keeps git's stat cache (only changed files are hashed again).
    const real = path.join(repo.gitDir, 'index');
    if (head && fs.existsSync(real)) {
      // eslint-disable-next-line no-restricted-properties -- a file of a new random name in git's own folder, not a store file
      fs.copyFileSync(real, index);
      await git(['reset', '-q', '--', ':(top)', ...specs.map((s) => s.replace(/^:\(/, ':(exclude,'))], opts);
    }
    const added = await runGit(['add', '-A', '--', ...specs], opts);
    if (added.code !== 0) {
      if (/ignored by one of your \.gitignore files/.test(added.stderr))
        return { status: 'deferred', reason: 'the store is ignored by .gitignore' };
      if (/did not match any files/.test(added.stderr)) return { status: 'unchanged' };
      throw new Error(`git add failed: ${added.stderr.trim()}`);
    }
    // Back to HEAD (an exclude pathspec would make git add refuse paths .gitignore already keeps out).
    await git(['reset', '-q', '--', ...privatePaths(repo)], opts);
    const tree = (await git(['write-tree'], opts)).trim();
    if (tree === current?.tree) return { status: 'unchanged' };
    const files = (await git(['diff', '--cached', '--name-only', '--no-renames', ...(head ? [head] : []), '--'], opts))
      .split('\n')
      .filter(Boolean);
    if (!head && files.length === 0) return { status: 'unchanged' };
    const message = ['-m', request.subject, ...(request.body ? ['-m', request.body] : [])];
    // Unsigned: a signing key's passphrase prompt would hang a background commit (commit.gpgSign).
    const commit = (
      await git(['commit-tree', '--no-gpg-sign', tree, ...(head ? ['-p', head] : []), ...message], {
        cwd: repo.top,
        env: await identityEnv(repo),
      })
    ).trim();
    // The person's index takes the commit's entries of the store's paths BEFORE the branch moves,
    // as git commit itself writes its index first: a kill in between leaves the index one commit
    // ahead (the store's changes staged, which a plain `git commit` of theirs would commit), never
    // behind HEAD (which that `git commit` would turn into a revert of Lore's commit).
    const staged = (await stageCommitted(repo, commit, specs, privatePaths(repo), 1)) === undefined;
    crashPoint('staged the commit in the index');
    const moved = await runGit(['update-ref', '-m', `lore: ${request.subject}`, 'HEAD', commit, head ?? ''], { cwd: repo.top });
    if (moved.code !== 0) {
      // Someone else moved the branch: the store's entries go back to the new HEAD's (the next attempt stages its own).
      if (staged) await runGit(['reset', '-q', '--', ...committedPaths(specs, privatePaths(repo))], { cwd: repo.top });
      return 'moved';
    }
    crashPoint('moved the branch');
    const warning = staged ? undefined : await stageCommitted(repo, commit, specs, privatePaths(repo), INDEX_TRIES);
    let tag: string | undefined;
    if (request.dailyTag) {
      tag = dailyTagName(request.dailyTag);
      await git(['update-ref', `refs/tags/${tag}`, commit], { cwd: repo.top });
    }
    return { status: 'committed', commit, files, ...(tag ? { tag } : {}), ...(warning ? { warning } : {}) };
  } finally {
    removeNoFollow(index, { force: true });
  }
}

/** The pathspecs of a commit's paths, the private parts excluded. */
function committedPaths(specs: string[], privates: string[]): string[] {
  return [...specs, ...privates.map((s) => s.replace(/^:\(/, ':(exclude,'))];
}

/**
 * The person's index takes `commit`'s entries of the store's paths (only those; the private parts
 * stay as the person's index has them: git add -f is theirs to run). Tries `tries` times while
 * their own git command holds the index; returns a warning when it stayed busy.
 */
async function stageCommitted(
  repo: StoreRepo,
  commit: string,
  specs: string[],
  privates: string[],
  tries: number,
): Promise<string | undefined> {
  let last = '';
  const committed = committedPaths(specs, privates);
  for (let i = 0; i < tries; i++) {
    if (i > 0) await new Promise((resolve) => setTimeout(resolve, INDEX_PAUSE_MS));
    const result = await runGit(['reset', '-q', commit, '--', ...committed], { cwd: repo.top });
    if (result.code === 0) return undefined;
    last = result.stderr.trim();
  }
  return `committed, but git's index was busy (${last}); \`git status\` may list the store as changed until \`git reset -- ${repo.storeRel}\``;
}

/**
 * Who wrote each line of a store file, from one `git blame` of the whole file: the author of the
 * commit that last wrote the line as it stands (`-M`: a line moved inside the file keeps its
 * author). The hover on a file's notes and the arrivals after a pull (items/teammateArrivals.ts)
 * ask it; names are never written into item lines, they are read from git when shown.
 *
 * One blame per file per HEAD and file version (`LineAuthorsMemo`), and HEAD asked of git at most
 * once a second, so hovers repeated on an unchanged store cost a `git rev-parse` a second (a hover
 * follows the mouse: a process per hover made it 20× a request's round trip). A line not committed
 * yet (or a file git does not track) has no author.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runGit } from './git';
import { findStoreRepo, repoPath, type StoreRepo } from './storeRepo';
import type { StorePaths } from '../storePaths';

/** The author of one line: of the commit that last wrote it. */
export interface LineAuthor {
  commit: string;
  author: string;
  /** The author's email, without the angle brackets ('' when git recorded none). */
  email: string;
  /** Author date, ISO 8601 with the author's offset. */
  date: string;
}

/** The commit id git blame gives a line that is not committed. */
export const NOT_COMMITTED = /^0+$/;

/** `+0130` → `+01:30`. */
function isoOffset(tz: string): { text: string; minutes: number } {
  const match = /^([+-])(\d{2})(\d{2})$/.exec(tz);
  if (!match) return { text: '+00:00', minutes: 0 };
  const minutes = (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3]));
  return { text: `${match[1]}${match[2]}:${match[3]}`, minutes };
}

/** The author date as git's `%aI` writes it: the author's local time and offset. */
function authorDate(seconds: number, tz: string): string {
  const offset = isoOffset(tz);
  const local = new Date((seconds + offset.minutes * 60) * 1000).toISOString().slice(0, 19);
  return `${local}${offset.text}`;
}

/**
 * Parses `git blame --porcelain`: per line (0-based index of the result) its author, undefined for
 * a line not committed. Porcelain gives a commit's details once, at its first line.
 */
export function parseBlamePorcelain(stdout: string): Array<LineAuthor | undefined> {
  const commits = new Map<string, { author: string; email: string; time: number; tz: string }>();
  const out: Array<LineAuthor | undefined> = [];
  let current: { commit: string; line: number } | undefined;
  for (const row of stdout.split('\n')) {
    if (row.startsWith('\t')) {
      if (!current) continue;
      const info = commits.get(current.commit);
      out[current.line - 1] =
        info && !NOT_COMMITTED.test(current.commit)
          ? { commit: current.commit, author: info.author, email: info.email, date: authorDate(info.time, info.tz) }
          : undefined;
      current = undefined;
      continue;
    }
    const header = /^([0-9a-f]{40,64}) \d+ (\d+)/.exec(row);
    if (header) {
      current = { commit: header[1], line: Number(header[2]) };
      if (!commits.has(header[1])) commits.set(header[1], { author: '', email: '', time: 0, tz: '+0000' });
      continue;
    }
    if (!current) continue;
    const info = commits.get(current.commit)!;
    const space = row.indexOf(' ');
    const key = space < 0 ? row : row.slice(0, space);
    const value = space < 0 ? '' : row.slice(space + 1);
    if (key === 'author') info.author = value;
    else if (key === 'author-mail') info.email = value.replace(/^<|>$/g, '');
    else if (key === 'author-time') info.time = Number(value);
    else if (key === 'author-tz') info.tz = value;
  }
  return out;
}

/**
 * The authors of the lines of `file` (repository-relative) as it is at `revision`, or as it is on
 * disk when no revision is given. Undefined when git cannot blame it (not tracked, not there).
 */
export async function blameFile(repo: StoreRepo, file: string, revision?: string): Promise<Array<LineAuthor | undefined> | undefined> {
  const args = ['blame', '--porcelain', '-M', ...(revision ? [revision] : []), '--', file];
  const result = await runGit(args, { cwd: repo.top }).catch(() => undefined);
  if (!result || result.code !== 0) return undefined;
  return parseBlamePorcelain(result.stdout);
}

/** Files whose blame is remembered at most (one per note file or category file hovered). */
const MAX_REMEMBERED = 200;

/**
 * How long a HEAD read from git is used again. A commit, pull or checkout is seen this much later
 * at most, and only when it left the file as it was: a changed file is another version, blamed again.
 */
export const HEAD_REUSE_MS = 1000;

/** Blames remembered per file, HEAD and file version; bounded (cleared past `max`). */
export class LineAuthorsMemo {
  private readonly remembered = new Map<string, Promise<Array<LineAuthor | undefined> | undefined>>();
  private head: { root: string; at: number; value: Promise<string | undefined> } | undefined;

  /** `clock`: milliseconds, monotonic (a test moves it). */
  constructor(
    private readonly max = MAX_REMEMBERED,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  /** The store's HEAD commit, or undefined when it has none (no repository, no commit, no git). */
  private currentHead(paths: StorePaths): Promise<string | undefined> {
    const now = this.clock();
    if (this.head?.root === paths.root && now - this.head.at < HEAD_REUSE_MS) return this.head.value;
    const value = runGit(['rev-parse', '-q', '--verify', 'HEAD'], { cwd: paths.root }).then(
      (result) => (result.code === 0 ? result.stdout.trim() : undefined),
      () => undefined,
    );
    this.head = { root: paths.root, at: now, value };
    return value;
  }

  /**
   * The authors of the lines of store file `absolute` as it is on disk (0-based), or undefined when
   * the store is in no repository with a commit, or git does not track the file.
   */
  async get(paths: StorePaths, absolute: string): Promise<Array<LineAuthor | undefined> | undefined> {
    const head = await this.currentHead(paths);
    if (!head) return undefined;
    let version: string;
    try {
      const stat = fs.statSync(absolute);
      version = `${stat.size}:${stat.mtimeMs}`;
    } catch {
      return undefined;
    }
    const key = `${absolute}\0${head}\0${version}`;
    let blamed = this.remembered.get(key);
    if (!blamed) {
      blamed = findStoreRepo(paths)
        .then((repo) => (repo ? blameFile(repo, repoPath(repo, path.relative(paths.root, absolute).split(path.sep).join('/'))) : undefined))
        .catch(() => undefined);
      if (this.remembered.size >= this.max) this.remembered.clear();
      this.remembered.set(key, blamed);
    }
    return blamed;
  }
}

/**
 * "added by Ana, 2026-12-01": how a line's author is shown. `escape` (markdown's, in a hover) is
 * applied to the name and the date, the parts that came from git.
 */
export function addedByText(author: { author: string; date: string }, escape: (text: string) => string = (t) => t): string {
  return `added by ${author.author ? escape(author.author) : 'an unnamed author'}, ${escape(author.date.slice(0, 10))}`;
}

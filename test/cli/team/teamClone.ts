/**
 * One teammate's clone of the team repository, driven the way a person drives it: the real `git`
 * and Lore's real CLI (dist/cli.js) in child processes, in the clone's workspace. Every git and
 * Lore command of the team test goes through here; the Lore command lines are in LORE, so a
 * renamed command or option is changed in one place.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CLI } from '../../helpers/paths';
import type { Person } from './teamFixtures';

/** Lore's command lines as the team test runs them. */
export const LORE = {
  /** The one command the README gives a teammate: in a clone whose store exists, it registers the merge driver. */
  init: () => ['init'],
  harvest: () => ['harvest', '--apply'],
  /** A dry run: reads and checks the ledger, writes nothing. */
  harvestDryRun: () => ['harvest'],
  note: (file: string, text: string) => ['note', file, text],
  notes: (file: string) => ['notes', file, '--json'],
  tidy: () => ['tidy', '--apply'],
  forgetConversation: (id: string) => ['forget', id, '--conversation', '--apply'],
  supersede: (oldId: string, newId: string) => ['supersede', oldId, newId],
  review: () => ['review', '--json'],
  reviewDecide: (decision: 'accept' | 'reject', n: number) => ['review', decision, String(n)],
  digest: () => ['digest', '--json'],
  /** What a person (or the next command that writes) runs after a pull that merged: tombstones, folds, derived files. */
  reconcile: () => ['reconcile'],
  search: (query: string) => ['search', query],
  context: (file: string, message: string) => ['context', '--files', file, '--message', message],
  history: (id: string) => ['history', id],
  item: (id: string) => ['item', id],
  journal: () => ['journal'],
};

/**
 * What brings the store in step after a merge (tombstones applied, duplicates folded, derived files
 * regenerated). The next Lore command that writes does it too; the test calls it after every pull
 * that merged.
 */
export function reconcileAfterMerge(clone: Clone): RunResult {
  return clone.lore(LORE.reconcile());
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Variables every git and Lore process of the test gets: no system or personal git configuration
 * (a developer's `pull.rebase`, hooks path or merge drivers must not decide the outcome), no
 * provider chosen in the developer's shell (the offline rules extractor is the CLI's default).
 */
export function teamEnv(emptyGitConfig: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: emptyGitConfig,
    GIT_TERMINAL_PROMPT: '0',
    LORE_PROVIDER: '',
    LORE_TEST_CRASH_AFTER: '',
    // The person commits (the harness's commit step), as a store inside a workspace's repository does by default.
    LORE_GIT_COMMIT: 'off',
  };
}

export class Clone {
  constructor(
    readonly person: Person | 'dave',
    /** The clone's working folder (the workspace; the store is `.lore` in it). */
    readonly ws: string,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  get store(): string {
    return path.join(this.ws, '.lore');
  }

  git(...args: string[]): RunResult {
    return run('git', args, this.ws, this.env);
  }

  /** git that must succeed (setup and plumbing), with its output. */
  gitOk(...args: string[]): string {
    const r = this.git(...args);
    if (r.code !== 0) throw new Error(`${this.person}: git ${args.join(' ')} failed (${r.code}): ${r.stderr}`);
    return r.stdout;
  }

  lore(args: string[]): RunResult {
    return run(process.execPath, [CLI, ...args], this.ws, this.env);
  }

  head(): string {
    return this.gitOk('rev-parse', 'HEAD').trim();
  }

  status(): string {
    return this.gitOk('status', '--porcelain', '--untracked-files=all');
  }

  /** Commits everything the clone changed (store and workspace), as a person does before a pull; false when there was nothing. */
  commitAll(message: string): boolean {
    this.gitOk('add', '-A');
    if (this.git('diff', '--cached', '--quiet').code === 0) return false;
    this.gitOk('commit', '-q', '-m', message);
    return true;
  }

  /** The text of a store file, or '' when it does not exist. */
  read(storeRelative: string): string {
    const file = path.join(this.store, storeRelative);
    return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  }

  /** Files git tracks under the store, relative to it. */
  trackedStoreFiles(): string[] {
    return this.gitOk('ls-files', '-z', '--', '.lore')
      .split('\0')
      .filter(Boolean)
      .map((f) => path.posix.relative('.lore', f));
  }
}

/** git in a folder that is not a clone (the bare remote, the folder a clone is made in); throws on failure. */
export function gitAt(cwd: string, env: NodeJS.ProcessEnv, ...args: string[]): string {
  const r = run('git', args, cwd, env);
  if (r.code !== 0) throw new Error(`git ${args.join(' ')} in ${cwd} failed (${r.code}): ${r.stderr}`);
  return r.stdout;
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): RunResult {
  const r = spawnSync(command, args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  if (r.error) throw r.error;
  return { code: r.status ?? 1, stdout: r.stdout, stderr: r.stderr };
}

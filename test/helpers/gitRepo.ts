import { execFileSync } from 'node:child_process';

/** Runs the real git in `cwd` and returns its stdout (throws with git's message on failure). */
export function gitIn(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_TERMINAL_PROMPT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** A repository in `dir` with a local identity, everything in it committed once. */
export function initRepo(dir: string): void {
  gitIn(dir, 'init', '-q', '-b', 'main');
  gitIn(dir, 'config', 'user.name', 'Test Person');
  gitIn(dir, 'config', 'user.email', 'person@example.com');
  gitIn(dir, 'add', '-A');
  gitIn(dir, 'commit', '-q', '-m', "the person's first commit");
}

/** Subjects of the commits on HEAD, newest first. */
export function subjects(dir: string): string[] {
  return gitIn(dir, 'log', '--format=%s').split('\n').filter(Boolean);
}

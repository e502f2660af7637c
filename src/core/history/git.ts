/**
 * Running the real `git` binary: execFile with an argument list (never a shell, so no path or
 * message is ever interpreted), a timeout, and the environment a caller adds (a temporary
 * index). Lore uses git only to keep the store's history; when the binary is missing every
 * caller treats it as "no git" and changes nothing.
 */
import { execFile } from 'node:child_process';

/** How long one git command may take before it is given up (a commit of a large store included). */
const GIT_TIMEOUT_MS = 60_000;
/** Output kept from one command (a long `git log` of a busy item stays well below). */
const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface GitOptions {
  cwd: string;
  /** Variables on top of the process's (GIT_INDEX_FILE, an author). */
  env?: Record<string, string>;
}

/** The git binary is not installed (or not on PATH). */
export class GitMissingError extends Error {
  constructor() {
    super('git is not installed or not on PATH');
    this.name = 'GitMissingError';
  }
}

/**
 * Runs `git args…` and resolves with its exit code and output; rejects only when git could not
 * be started (GitMissingError) or timed out. Prompts and pagers are off: nothing may wait for a
 * person.
 */
export function runGit(args: readonly string[], options: GitOptions): Promise<GitResult> {
  const env = { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C', ...options.env };
  return new Promise((resolve, reject) => {
    execFile('git', [...args], { cwd: options.cwd, env, timeout: GIT_TIMEOUT_MS, maxBuffer: MAX_OUTPUT_BYTES, windowsHide: true }, (error, stdout, stderr) => {
      if (error && (error as NodeJS.ErrnoException).code === 'ENOENT') return reject(new GitMissingError());
      if (error && (error as { killed?: boolean }).killed) return reject(new Error(`git ${args[0]} timed out after ${GIT_TIMEOUT_MS / 1000} s`));
      const code = error ? (typeof (error as { code?: unknown }).code === 'number' ? ((error as { code: number }).code) : 1) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

/** Runs git and returns its stdout, or throws with git's own message when it fails. */
export async function git(args: readonly string[], options: GitOptions): Promise<string> {
  const result = await runGit(args, options);
  if (result.code !== 0) throw new Error(`git ${args[0]} failed: ${result.stderr.trim() || `exit ${result.code}`}`);
  return result.stdout;
}

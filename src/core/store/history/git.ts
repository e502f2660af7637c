/**
 * Running the real `git` binary: execFile with an argument list (never a shell, so no path or
 * message is ever interpreted), a timeout, and the environment a caller adds (a temporary
 * index). Lore uses git only to keep the store's history; when the binary is missing every
 * caller treats it as "no git" and changes nothing.
 *
 * A repository is content, and content never runs: a store may arrive with its own `.git` (a
 * clone, a zip) whose config or `.gitattributes` name commands. Every command is therefore run
 * with each way configuration could execute something switched off (see `SAFE_CONFIG`,
 * `neutralFilters`, `NO_CONVERSION`), whatever the repository, the caller or the arguments.
 */
import { execFile } from 'node:child_process';
import * as os from 'node:os';

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
 * `-c` overrides (the highest-priority config) that switch off every setting that runs a
 * command in the commands Lore uses: hooks (`.git/hooks` and `core.hooksPath`: a folder that
 * cannot exist, so reference-transaction, post-index-change, pre-commit… are never found),
 * fsmonitor, pagers, editors, credential helpers and askpass, signing programs, and any
 * transport (a partial clone's lazy fetch could otherwise run `core.sshCommand`).
 */
const SAFE_CONFIG: readonly string[] = [
  `core.hooksPath=${os.devNull}/lore-runs-no-hooks`,
  'core.fsmonitor=false',
  'core.pager=cat',
  'core.editor=:',
  'sequence.editor=:',
  'core.askPass=',
  'credential.helper=',
  'core.sshCommand=false',
  'protocol.allow=never',
  'log.showSignature=false',
  'commit.gpgSign=false',
  'tag.gpgSign=false',
  'gpg.program=false',
].flatMap((pair) => ['-c', pair]);

/** Variables of the person's environment that would name a program for git to run. */
const PROGRAM_VARIABLES = [
  'GIT_EXTERNAL_DIFF',
  'GIT_SSH',
  'GIT_SSH_COMMAND',
  'GIT_ASKPASS',
  'SSH_ASKPASS',
  'GIT_EDITOR',
  'GIT_SEQUENCE_EDITOR',
  'GIT_PROXY_COMMAND',
];

/**
 * Subcommands that can show a file's content through a `.gitattributes` diff driver (textconv)
 * or an external diff program: they get `--no-textconv --no-ext-diff` right after their name.
 */
const NO_CONVERSION: ReadonlySet<string> = new Set(['log', 'show', 'diff', 'blame']);

/**
 * Subcommands that read only objects and refs, never a working-tree file, so no clean or
 * smudge filter can run in them: they skip the look-up of filter drivers (one git process
 * fewer each). Not `write-tree`: it refreshes a temporary index and so runs clean filters.
 */
const NO_WORKTREE_CONTENT: ReadonlySet<string> = new Set([
  'rev-parse',
  'rev-list',
  'var',
  'log',
  'commit-tree',
  'update-ref',
  'init',
  'config',
]);

/**
 * `-c` overrides that empty every filter driver the config defines. A `.gitattributes` line
 * `filter=x` runs `filter.x.clean` on `git add` (and on an index refresh by reset or blame);
 * git has no switch to ignore attributes in this version, but a driver is only ever named in
 * config, so emptying each one that is defined leaves none to run. (`required=false`: a
 * required driver with no command would stop the command instead.) Found by `git config`,
 * which runs nothing itself.
 */
async function neutralFilters(options: GitOptions, env: NodeJS.ProcessEnv): Promise<string[]> {
  const listed = await execGit(
    [...SAFE_CONFIG, 'config', '--null', '--name-only', '--get-regexp', '^filter\\.'],
    options.cwd,
    env,
    'config',
  ).catch(() => undefined);
  if (!listed || listed.code !== 0) return []; // None defined (exit 1), or no repository here.
  const names = new Set<string>();
  for (const key of listed.stdout.split('\0')) {
    const match = /^filter\.(.+)\.[^.]+$/s.exec(key);
    if (match) names.add(match[1]);
  }
  return [...names].flatMap((name) =>
    ['clean', 'smudge', 'process'].flatMap((key) => ['-c', `filter.${name}.${key}=`]).concat('-c', `filter.${name}.required=false`),
  );
}

/** The environment every git command gets: no prompt, no pager, no program from variables. */
function safeEnv(extra: Record<string, string> | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    GIT_TERMINAL_PROMPT: '0',
    GIT_PAGER: 'cat',
    PAGER: 'cat',
    GIT_OPTIONAL_LOCKS: '0',
    LC_ALL: 'C',
    ...extra,
  };
  for (const name of PROGRAM_VARIABLES) delete env[name];
  return env;
}

/**
 * Runs `git args…` and resolves with its exit code and output; rejects only when git could not
 * be started (GitMissingError) or timed out. Prompts and pagers are off: nothing may wait for a
 * person. Nothing the repository configures runs (see the file comment).
 */
export async function runGit(args: readonly string[], options: GitOptions): Promise<GitResult> {
  const env = safeEnv(options.env);
  const [command, ...rest] = args;
  const conversion = NO_CONVERSION.has(command) ? ['--no-textconv', '--no-ext-diff'] : [];
  const filters = NO_WORKTREE_CONTENT.has(command) ? [] : await neutralFilters(options, env);
  return execGit([...SAFE_CONFIG, ...filters, command, ...conversion, ...rest], options.cwd, env, command);
}

function execGit(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv, command: string): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      [...args],
      { cwd, env, timeout: GIT_TIMEOUT_MS, maxBuffer: MAX_OUTPUT_BYTES, windowsHide: true },
      (error, stdout, stderr) => {
        if (error && (error as NodeJS.ErrnoException).code === 'ENOENT') return reject(new GitMissingError());
        if (error && (error as { killed?: boolean }).killed)
          return reject(new Error(`git ${command} timed out after ${GIT_TIMEOUT_MS / 1000} s`));
        const code = error ? (typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : 1) : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

/** Runs git and returns its stdout, or throws with git's own message when it fails. */
export async function git(args: readonly string[], options: GitOptions): Promise<string> {
  const result = await runGit(args, options);
  if (result.code !== 0) throw new Error(`git ${args[0]} failed: ${result.stderr.trim() || `exit ${result.code}`}`);
  return result.stdout;
}

/**
 * Shared CLI plumbing: usage errors (exit 2), store resolution for `--root`, output helpers.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as tty from 'node:tty';
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
export { formatBytes, formatTokens, printable } from '../core/model/format';
import * as os from 'node:os';
import { globalStoreDir, isStore, nearestStoreDir } from '../core/store/storeLocation';
import { STORE_DIR_NAME, storePaths, type StorePaths } from '../core/store/storePaths';

/** A mistake in how the command was called: printed with a hint, exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export { EXIT_FAILED, EXIT_OK, EXIT_USAGE } from './topLevel';

/** Options every command takes. */
export const COMMON_OPTIONS = {
  root: { type: 'string' },
  global: { type: 'boolean' },
  workspace: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export type ParsedCommand<O extends ParseArgsOptionsConfig> = ReturnType<
  typeof parseArgs<{ options: O; allowPositionals: true; strict: true }>
> & { paths: StorePaths };

/** What a command takes besides its options. */
export interface CommandTakes {
  /** Positional arguments (refused when false). */
  positionals: boolean;
  /** Only a store that exists (`isStore`): a plain folder is refused and nothing is created in it. */
  existingStore?: boolean;
}

/** A `--root` (or found folder) that is not a store, for a command that only keeps one. */
export class NotAStoreError extends Error {
  constructor(root: string) {
    super(
      `${root} is not a Lore store (nothing was written there); run lore init --root ${root} to make one, or name the store with --root`,
    );
    this.name = 'NotAStoreError';
  }
}

/**
 * What every command does first: parse its options (strictly: an unknown option is a usage
 * error), answer --help, and resolve the store. Undefined when help was printed.
 * Positional arguments are refused unless the command takes them.
 */
export function parseCommand<O extends typeof COMMON_OPTIONS & ParseArgsOptionsConfig>(
  argv: string[],
  options: O,
  help: string,
  io: Output,
  takes: CommandTakes = { positionals: true },
): ParsedCommand<O> | undefined {
  const parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  const values = parsed.values as { help?: boolean; root?: string; workspace?: string; global?: boolean };
  if (values.help) {
    io.out(help);
    return undefined;
  }
  if (!takes.positionals && parsed.positionals.length) throw new UsageError(`unexpected argument "${parsed.positionals[0]}"`);
  if (values.global && values.root !== undefined) throw new UsageError('--global and --root exclude each other');
  // Resolved when a command first asks (`lore mcp` looks for its store itself, and must start in
  // the home folder, where `./.lore` would be the global store and is refused).
  let paths: StorePaths | undefined;
  return {
    ...parsed,
    get paths() {
      if (paths) return paths;
      const found = resolveStore(values.root, values.workspace, io, values.global);
      if (takes.existingStore && !isStore(found.root)) throw new NotAStoreError(found.root);
      return (paths = found);
    },
  } as ParsedCommand<O>;
}

/**
 * The store: `--global` (`~/.lore`), else `--root DIR`, else $LORE_ROOT, else the nearest `.lore/`
 * in the current folder or its parents (like git finds `.git`; the global store is not found
 * that way, see storeLocation.ts), else `./.lore`. Remembered for this run (`io`) only, so error
 * messages name its files.
 */
function resolveStore(root: string | undefined, workspace: string | undefined, io?: Output, global = false): StorePaths {
  const found = findStore(root ?? envOf(io).LORE_ROOT, workspace, cwdOf(io), homeOf(io), global);
  if (io) storesInUse.set(io, found);
  return found;
}

// Keyed by the run's io object rather than one module variable: main may run more than once in a
// process (tests call it in process), and a run must not report another run's store.
const storesInUse = new WeakMap<Output, StorePaths>();

/** The store the run with this `io` resolved, if it got that far. */
export function storeInUse(io: Output): StorePaths | undefined {
  return storesInUse.get(io);
}

/**
 * The store of another folder than the run's cwd, by the same rules (`lore hook` is told the
 * agent's folder in its input): $LORE_ROOT, else the nearest `.lore/` upwards, else `<folder>/.lore`.
 */
export function storeForFolder(folder: string, io: Output): StorePaths {
  return findStore(envOf(io).LORE_ROOT, undefined, folder, homeOf(io), false);
}

/** The run's home folder ($HOME as the run sees it), where the global store lives. */
function homeOf(io: Output | undefined): string {
  return envOf(io).HOME || envOf(io).USERPROFILE || os.homedir();
}

function findStore(chosen: string | undefined, workspace: string | undefined, cwd: string, home: string, global: boolean): StorePaths {
  const ws = workspace && path.resolve(cwd, workspace);
  if (global) return storePaths(globalStoreDir(home), ws);
  if (chosen) return storePaths(path.resolve(cwd, chosen), ws);
  const found = nearestStoreDir(cwd, home);
  if (found) return storePaths(found, ws);
  const here = path.join(path.resolve(cwd), STORE_DIR_NAME);
  // In the home folder itself `./.lore` is the global store, which is used only when asked for.
  if (here === globalStoreDir(home))
    throw new UsageError(`${here} is the global store, used only when asked for: pass --global, or run Lore in a project folder`);
  return storePaths(here, ws);
}

/** Parses sizes like `500000`, `512K`, `10MB`. */
export function parseBytes(text: string, option: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*(b|k|kb|kib|m|mb|mib|g|gb|gib)?$/i.exec(text.trim());
  if (!match) throw new UsageError(`${option} expects a size such as 500000, 512K or 10MB, not "${text}"`);
  const unit = (match[2] ?? 'b').toLowerCase()[0];
  const factor = unit === 'k' ? 1024 : unit === 'm' ? 1024 ** 2 : unit === 'g' ? 1024 ** 3 : 1;
  return Math.floor(Number(match[1]) * factor);
}

export function parsePositiveNumber(text: string, option: string): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0) throw new UsageError(`${option} expects a number >= 0, not "${text}"`);
  return value;
}

/**
 * What one run of the CLI talks to: its output and its surroundings. The surroundings default to
 * this process's; a caller that runs `main` in process (the tests) passes its own instead of
 * changing the process's cwd or environment.
 */
export interface Output {
  out(text: string): void;
  err(text: string): void;
  /** Where relative paths on the command line start (default: process.cwd()). */
  cwd?: string;
  /** Set by main for the commands that write the store: run on the store before the command (main.ts). */
  beforeWrite?: (paths: StorePaths) => Promise<void>;
  /** Where LORE_* settings and provider keys come from (default: process.env). */
  env?: NodeJS.ProcessEnv;
  /** Whether stdout is a terminal (default: process.stdout.isTTY). */
  stdoutIsTTY?: boolean;
  /** What the command reads as its input (default: process.stdin); only `lore hook` reads one. */
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
}

/** The run's cwd: `io.cwd`, else the process's. */
export function cwdOf(io: Output | undefined): string {
  return io?.cwd ?? process.cwd();
}

/** The run's environment: `io.env`, else the process's. */
export function envOf(io: Output | undefined): NodeJS.ProcessEnv {
  return io?.env ?? process.env;
}

/** A path typed on the command line, resolved against the run's cwd. */
export function resolveArg(io: Output, file: string): string {
  return path.resolve(cwdOf(io), file);
}

export const stdio: Output = {
  out: (text) => process.stdout.write(text.endsWith('\n') ? text : text + '\n'),
  err: (text) => process.stderr.write(text.endsWith('\n') ? text : text + '\n'),
};

/**
 * stdout and stderr written straight to file descriptors 1 and 2, for a command that writes a few
 * lines and exits (dist/search.js): making Node's stream objects for them cost about 2.5 ms, a
 * tenth of a search on a current index. Same lines, same order as `stdio`.
 */
export function directStdio(): Output {
  return {
    out: directWriter(1, () => process.stdout),
    err: directWriter(2, () => process.stderr),
    stdoutIsTTY: tty.isatty(1),
  };
}

/**
 * Writes each line to `fd` with fs.writeSync. A descriptor that cannot take the bytes now (EAGAIN:
 * a non-blocking pipe that is full) hands the rest of that line, and every line after it, to the
 * stream, in order; a reader that went away (EPIPE: `lore search … | head -1`) ends the output
 * quietly.
 */
export function directWriter(fd: number, stream: () => NodeJS.WritableStream): (text: string) => void {
  let through: 'fd' | 'stream' | 'closed' = 'fd';
  return (text) => {
    const data = Buffer.from(text.endsWith('\n') ? text : text + '\n', 'utf8');
    let at = 0;
    while (through === 'fd' && at < data.length) {
      try {
        at += fs.writeSync(fd, data, at);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EAGAIN') through = 'stream';
        else if (code === 'EPIPE') through = 'closed';
        else throw error;
      }
    }
    if (through === 'stream' && at < data.length) stream().write(data.subarray(at));
  };
}

/**
 * Lore's CLI script, for commands other programs run (agent hooks, git's merge driver). Bundled,
 * this module is part of dist/cliMain.js and the executable is dist/cli.js beside it; compiled
 * without bundling (the tests run out/), it is dist/cli.js of the same checkout.
 */
export function loreCliScript(): string {
  return path.basename(__filename) === 'cliMain.js'
    ? path.join(__dirname, 'cli.js')
    : path.resolve(__dirname, '..', '..', '..', 'dist', 'cli.js');
}

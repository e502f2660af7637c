/**
 * What `lore` answers without running a command: its version and its usage. main.ts answers them
 * in process; dist/cli.js (launcher.ts) answers them before loading the CLI bundle, from the usage
 * esbuild.mjs renders at build time with main.ts's `usage()`, so neither costs a start of the
 * whole CLI. This module is bundled into dist/cli.js, so it must stay syntax Node 20 runs.
 */

/** Exit codes: success; something asked for failed (after finishing the rest); a usage error. */
export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

/** Lore's version (package.json's). */
export const LORE_VERSION = '0.1.0';

/** The first argument that asks for the usage (none at all asks too, and exits 2). */
export function asksForUsage(first: string | undefined): boolean {
  return !first || first === '--help' || first === '-h' || first === 'help';
}

/** The exit code of a usage request: 0 when asked for, 2 when `lore` got no command. */
export function usageExitCode(first: string | undefined): number {
  return first ? EXIT_OK : EXIT_USAGE;
}

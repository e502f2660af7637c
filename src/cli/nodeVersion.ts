/**
 * The Node.js version `lore` needs, checked by dist/cli.js before it loads anything else. Run by
 * an older Node (Debian 12's Node 20 is often first on PATH), the bundles load but the native
 * SQLite module does not: `lore search`, `lore context` and the first MCP search died with a
 * segmentation fault (exit 139, no message) while the MCP client showed Lore as connected. The
 * minimum is package.json's engines.node, which esbuild.mjs writes into dist/cli.js. This module
 * is bundled into dist/cli.js alone, so it must stay syntax and APIs that Node 20 runs.
 */

/** A version as [major, minor, patch]. */
export type NodeVersion = readonly [number, number, number];

/** The lowest version an engines range of the form `>=22.14` (or `>=22`, `>= 22.14.0`) allows; undefined for any other form. */
export function minimumOf(range: string): NodeVersion | undefined {
  const match = /^\s*>=\s*v?(\d+)(?:\.(\d+))?(?:\.(\d+))?\s*$/.exec(range);
  return match ? [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)] : undefined;
}

/** `process.versions.node` (e.g. `20.20.2`) as a version; undefined when it is not one. */
export function parseNodeVersion(version: string): NodeVersion | undefined {
  const match = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined;
}

/** Whether `version` is at least `minimum`. */
export function atLeast(version: NodeVersion, minimum: NodeVersion): boolean {
  for (let i = 0; i < 3; i++) if (version[i] !== minimum[i]) return version[i] > minimum[i];
  return true;
}

/**
 * What is wrong with running `lore` on Node `version` when it needs `range`, or undefined when
 * nothing is (a range or version this cannot read is not a reason to refuse).
 */
export function nodeVersionProblem(version: string, range: string, execPath: string): string | undefined {
  const minimum = minimumOf(range);
  const current = parseNodeVersion(version);
  if (!minimum || !current || atLeast(current, minimum)) return undefined;
  const needed = minimum[2] ? minimum.join('.') : `${minimum[0]}.${minimum[1]}`;
  return (
    `Lore needs Node.js ${needed} or newer (package.json engines.node "${range}"), but this is Node.js ${version} (${execPath}). ` +
    'Install a current Node.js LTS (https://nodejs.org/, or a version manager: `nvm install --lts`, `fnm install --lts`) ' +
    'and run lore with it, e.g. with that node first on PATH'
  );
}

/** What the refused command prints, and its exit code. */
export interface Refusal {
  stderr: string;
  exitCode: number;
}

/**
 * How `lore COMMAND` refuses to run on a Node that is too old: it says so on stderr before doing
 * any work and exits 1, `lore mcp` included (an MCP client then shows the server as failed with
 * this message, not as connected). `lore hook` exits 0: a hook never fails the agent, so it
 * only notes on stderr that it did nothing and how to install the hooks with a newer Node
 * (a hook runs the Node it was installed with).
 */
export function refusal(command: string | undefined, problem: string): Refusal {
  if (command === 'hook') {
    return { stderr: `lore hook: did nothing. ${problem}, then run \`lore hooks install\` again so the hooks use it.\n`, exitCode: 0 };
  }
  const who = command === 'mcp' ? 'lore mcp: the MCP server did not start. ' : 'lore: ';
  return { stderr: `${who}${problem}.\n`, exitCode: 1 };
}

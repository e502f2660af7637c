/**
 * How to run a Node script from the current process, e.g. the bundled CLI as an MCP server. In
 * desktop VS Code the extension host is Electron, whose binary behaves as plain Node only with
 * ELECTRON_RUN_AS_NODE set (a native module such as better-sqlite3 may not load under Electron's
 * ABI: Lore's SQLite then goes through node:sqlite by itself). In code-server, VS Code Server and
 * the CLI the process is plain Node, where the variable would mean nothing, so it is left out.
 */
export function nodeRunner(
  versions: NodeJS.ProcessVersions = process.versions,
  execPath = process.execPath,
): { command: string; env: Record<string, string> } {
  return { command: execPath, env: versions.electron ? { ELECTRON_RUN_AS_NODE: '1' } : {} };
}

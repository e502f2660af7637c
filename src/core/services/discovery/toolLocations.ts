/**
 * Where each agent tool keeps its sessions, per operating system: the one table discovery reads.
 * Only paths are computed here (nothing is read), so the Linux, macOS and Windows rows are tested
 * on any machine. Which of the sessions found there belong to a workspace is sessionOwners.ts.
 */
import { envValue, hostPath, type Host } from './host';

export type ToolId =
  | 'claude-code'
  | 'codex'
  | 'gemini-cli'
  | 'copilot-chat'
  | 'cline'
  | 'roo-code'
  | 'kilo-code'
  | 'continue'
  | 'copilot-cli'
  | 'aider'
  | 'cursor'
  | 'opencode';

/** The tools discovery knows, in the order they are listed. */
export const TOOL_IDS: readonly ToolId[] = [
  'claude-code',
  'codex',
  'gemini-cli',
  'copilot-chat',
  'cline',
  'roo-code',
  'kilo-code',
  'continue',
  'copilot-cli',
  'aider',
  'cursor',
  'opencode',
];

export const TOOL_LABELS: Record<ToolId, string> = {
  'claude-code': 'Claude Code',
  codex: 'Codex CLI',
  'gemini-cli': 'Gemini CLI',
  'copilot-chat': 'GitHub Copilot Chat',
  cline: 'Cline',
  'roo-code': 'Roo Code',
  'kilo-code': 'Kilo Code',
  continue: 'Continue',
  'copilot-cli': 'GitHub Copilot CLI',
  aider: 'Aider',
  cursor: 'Cursor',
  opencode: 'OpenCode',
};

/** The VS Code extensions that keep tasks in their globalStorage (one task folder per conversation). */
export const TASK_EXTENSIONS: Partial<Record<ToolId, string>> = {
  cline: 'saoudrizwan.claude-dev',
  'roo-code': 'rooveterinaryinc.roo-cline',
  'kilo-code': 'kilocode.kilo-code',
};

/** A folder (or file) where a tool keeps sessions. */
export interface ToolLocation {
  tool: ToolId;
  path: string;
  /** For the VS Code family: which editor's user data it lies in (`Code`, `VSCodium`, …). */
  editor?: string;
}

/** The editors whose user data folders hold Copilot Chat sessions and the task extensions' storage. */
const VSCODE_EDITORS = ['Code', 'Code - Insiders', 'VSCodium'];

/** The user data folders of VS Code, VS Code Insiders, VSCodium and code-server on the host. */
export function vscodeUserDataDirs(host: Host): Array<{ editor: string; dir: string }> {
  const p = hostPath(host);
  const base =
    host.platform === 'win32'
      ? (envValue(host, 'APPDATA') ?? p.join(host.home, 'AppData', 'Roaming'))
      : host.platform === 'darwin'
        ? p.join(host.home, 'Library', 'Application Support')
        : (envValue(host, 'XDG_CONFIG_HOME') ?? p.join(host.home, '.config'));
  const dirs = VSCODE_EDITORS.map((editor) => ({ editor, dir: p.join(base, editor) }));
  // code-server keeps its user data under XDG_DATA_HOME on Linux and macOS alike; it has no Windows build.
  if (host.platform !== 'win32') dirs.push({ editor: 'code-server', dir: p.join(xdgDataHome(host), 'code-server') });
  return dirs;
}

/** `$XDG_DATA_HOME`, else `~/.local/share` (also what OpenCode's xdg-basedir uses on macOS and Windows). */
function xdgDataHome(host: Host): string {
  return envValue(host, 'XDG_DATA_HOME') ?? hostPath(host).join(host.home, '.local', 'share');
}

/** Claude Code's config folder: `$CLAUDE_CONFIG_DIR`, else `~/.claude`. */
export function claudeHome(host: Host): string {
  return envValue(host, 'CLAUDE_CONFIG_DIR') ?? hostPath(host).join(host.home, '.claude');
}

/** Codex's home: `$CODEX_HOME`, else `~/.codex`. */
export function codexHome(host: Host): string {
  return envValue(host, 'CODEX_HOME') ?? hostPath(host).join(host.home, '.codex');
}

/** Gemini CLI's folder: `$GEMINI_CLI_HOME/.gemini`, else `~/.gemini`. */
export function geminiHome(host: Host): string {
  return hostPath(host).join(envValue(host, 'GEMINI_CLI_HOME') ?? host.home, '.gemini');
}

/**
 * Claude Code's name for a project's folder: the absolute path with every character that is not
 * a letter or digit turned into `-` (`/home/dev/my.app` → `-home-dev-my-app`, `C:\src\app` →
 * `C--src-app`).
 */
export function claudeCodeProjectName(host: Host, workspace: string): string {
  return hostPath(host)
    .resolve(workspace)
    .replace(/[^A-Za-z0-9]/g, '-');
}

/**
 * Cursor's name for a project's folder under `~/.cursor/projects`: the absolute path without its
 * leading separator (and a Windows drive's colon), other non-alphanumerics as `-`
 * (`/home/dev/app` → `home-dev-app`, `C:\Programm` → `c-Programm`, as seen on disk).
 */
export function cursorProjectName(host: Host, workspace: string): string {
  const resolved = hostPath(host).resolve(workspace);
  const withoutRoot =
    host.platform === 'win32'
      ? resolved.replace(/^([A-Za-z]):[\\/]*/, (_, drive: string) => `${drive.toLowerCase()}-`)
      : resolved.replace(/^\/+/, '');
  return withoutRoot.replace(/[^A-Za-z0-9]/g, '-');
}

/** Claude Code's folder for the workspace's sessions. */
export function claudeCodeProjectDir(host: Host, workspace: string): string {
  return hostPath(host).join(claudeHome(host), 'projects', claudeCodeProjectName(host, workspace));
}

/**
 * Every place a tool keeps sessions on the host, whether or not it exists. Some are per
 * workspace (Claude Code's project folder, Aider's history), the rest hold every workspace's
 * sessions and are sorted out by sessionOwners.ts.
 */
export function toolLocations(host: Host, workspace: string): ToolLocation[] {
  const p = hostPath(host);
  const at = (tool: ToolId, ...parts: string[]): ToolLocation => ({ tool, path: p.join(...parts) });
  const editors = vscodeUserDataDirs(host);
  const locations: ToolLocation[] = [
    at('claude-code', claudeHome(host), 'projects'),
    at('codex', codexHome(host), 'sessions'),
    at('codex', codexHome(host), 'archived_sessions'),
    at('gemini-cli', geminiHome(host), 'tmp'),
    ...editors.map(({ editor, dir }) => ({ tool: 'copilot-chat' as const, editor, path: p.join(dir, 'User', 'workspaceStorage') })),
  ];
  for (const [tool, extension] of Object.entries(TASK_EXTENSIONS) as Array<[ToolId, string]>) {
    locations.push(...editors.map(({ editor, dir }) => ({ tool, editor, path: p.join(dir, 'User', 'globalStorage', extension) })));
  }
  locations.push(
    at('continue', envValue(host, 'CONTINUE_GLOBAL_DIR') ?? p.join(host.home, '.continue'), 'sessions'),
    at('copilot-cli', host.home, '.copilot', 'session-state'),
    at('aider', p.resolve(workspace), '.aider.chat.history.md'),
    at('cursor', host.home, '.cursor', 'projects'),
    // Its data folder: the storage folder (up to 1.1) and opencode.db (since 1.2) are both in it.
    at('opencode', xdgDataHome(host), 'opencode'),
  );
  return locations;
}

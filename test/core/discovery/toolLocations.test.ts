import * as assert from 'node:assert/strict';
import { comparablePath, fileUriToPath, samePath, type Host } from '../../../src/core/services/discovery/host';
import { claudeCodeProjectDir, cursorProjectName, toolLocations, type ToolId } from '../../../src/core/services/discovery/toolLocations';

const linux: Host = { platform: 'linux', home: '/home/ada', env: {} };
const mac: Host = { platform: 'darwin', home: '/Users/ada', env: {} };
const windows: Host = { platform: 'win32', home: 'C:\\Users\\ada', env: { APPDATA: 'C:\\Users\\ada\\AppData\\Roaming' } };

function where(host: Host, tool: ToolId, workspace = host.platform === 'win32' ? 'C:\\src\\app' : '/src/app'): string[] {
  return toolLocations(host, workspace)
    .filter((l) => l.tool === tool)
    .map((l) => l.path);
}

describe('discovery: where each tool keeps sessions', () => {
  it('Linux: home folders, XDG_CONFIG_HOME for the VS Code family, code-server under ~/.local/share', () => {
    assert.deepEqual(where(linux, 'claude-code'), ['/home/ada/.claude/projects']);
    assert.deepEqual(where(linux, 'codex'), ['/home/ada/.codex/sessions', '/home/ada/.codex/archived_sessions']);
    assert.deepEqual(where(linux, 'gemini-cli'), ['/home/ada/.gemini/tmp']);
    assert.deepEqual(where(linux, 'copilot-chat'), [
      '/home/ada/.config/Code/User/workspaceStorage',
      '/home/ada/.config/Code - Insiders/User/workspaceStorage',
      '/home/ada/.config/VSCodium/User/workspaceStorage',
      '/home/ada/.local/share/code-server/User/workspaceStorage',
    ]);
    assert.deepEqual(where(linux, 'cline')[0], '/home/ada/.config/Code/User/globalStorage/saoudrizwan.claude-dev');
    assert.deepEqual(where(linux, 'roo-code')[2], '/home/ada/.config/VSCodium/User/globalStorage/rooveterinaryinc.roo-cline');
    assert.deepEqual(where(linux, 'kilo-code')[3], '/home/ada/.local/share/code-server/User/globalStorage/kilocode.kilo-code');
    assert.deepEqual(where(linux, 'continue'), ['/home/ada/.continue/sessions']);
    assert.deepEqual(where(linux, 'copilot-cli'), ['/home/ada/.copilot/session-state']);
    assert.deepEqual(where(linux, 'aider'), ['/src/app/.aider.chat.history.md']);
    assert.deepEqual(where(linux, 'cursor'), ['/home/ada/.cursor/projects']);
    assert.deepEqual(where(linux, 'opencode'), ['/home/ada/.local/share/opencode']);
  });

  it('Linux: the variables each tool honours move its folder', () => {
    const host: Host = {
      ...linux,
      env: {
        XDG_CONFIG_HOME: '/cfg',
        XDG_DATA_HOME: '/data',
        CODEX_HOME: '/codex',
        CLAUDE_CONFIG_DIR: '/claude',
        GEMINI_CLI_HOME: '/g',
        CONTINUE_GLOBAL_DIR: '/cont',
      },
    };
    assert.deepEqual(where(host, 'claude-code'), ['/claude/projects']);
    assert.deepEqual(where(host, 'codex'), ['/codex/sessions', '/codex/archived_sessions']);
    assert.deepEqual(where(host, 'gemini-cli'), ['/g/.gemini/tmp']);
    assert.deepEqual(where(host, 'continue'), ['/cont/sessions']);
    assert.equal(where(host, 'copilot-chat')[0], '/cfg/Code/User/workspaceStorage');
    assert.equal(where(host, 'copilot-chat')[3], '/data/code-server/User/workspaceStorage');
    assert.deepEqual(where(host, 'opencode'), ['/data/opencode']);
    // A blank variable is as good as unset.
    assert.deepEqual(where({ ...linux, env: { CODEX_HOME: ' ' } }, 'codex')[0], '/home/ada/.codex/sessions');
  });

  it('macOS: the VS Code family under ~/Library/Application Support, code-server still XDG', () => {
    assert.deepEqual(where(mac, 'copilot-chat'), [
      '/Users/ada/Library/Application Support/Code/User/workspaceStorage',
      '/Users/ada/Library/Application Support/Code - Insiders/User/workspaceStorage',
      '/Users/ada/Library/Application Support/VSCodium/User/workspaceStorage',
      '/Users/ada/.local/share/code-server/User/workspaceStorage',
    ]);
    assert.equal(where(mac, 'cline')[0], '/Users/ada/Library/Application Support/Code/User/globalStorage/saoudrizwan.claude-dev');
    assert.deepEqual(where(mac, 'claude-code'), ['/Users/ada/.claude/projects']);
    assert.deepEqual(where(mac, 'continue'), ['/Users/ada/.continue/sessions']);
  });

  it('Windows: %APPDATA% for the VS Code family (no code-server), backslash paths under the profile', () => {
    assert.deepEqual(where(windows, 'copilot-chat'), [
      'C:\\Users\\ada\\AppData\\Roaming\\Code\\User\\workspaceStorage',
      'C:\\Users\\ada\\AppData\\Roaming\\Code - Insiders\\User\\workspaceStorage',
      'C:\\Users\\ada\\AppData\\Roaming\\VSCodium\\User\\workspaceStorage',
    ]);
    assert.equal(where(windows, 'kilo-code')[0], 'C:\\Users\\ada\\AppData\\Roaming\\Code\\User\\globalStorage\\kilocode.kilo-code');
    assert.deepEqual(where(windows, 'codex'), ['C:\\Users\\ada\\.codex\\sessions', 'C:\\Users\\ada\\.codex\\archived_sessions']);
    assert.deepEqual(where(windows, 'gemini-cli'), ['C:\\Users\\ada\\.gemini\\tmp']);
    assert.deepEqual(where(windows, 'aider'), ['C:\\src\\app\\.aider.chat.history.md']);
    // Without APPDATA the roaming folder of the profile.
    assert.equal(where({ ...windows, env: {} }, 'copilot-chat')[0], 'C:\\Users\\ada\\AppData\\Roaming\\Code\\User\\workspaceStorage');
  });

  it("names Claude Code's and Cursor's project folders as the tools do", () => {
    assert.equal(claudeCodeProjectDir(linux, '/home/dev/my.project'), '/home/ada/.claude/projects/-home-dev-my-project');
    assert.equal(claudeCodeProjectDir(windows, 'C:\\src\\my_app'), 'C:\\Users\\ada\\.claude\\projects\\C--src-my-app');
    assert.equal(cursorProjectName(linux, '/home/dev/my.project'), 'home-dev-my-project');
    assert.equal(cursorProjectName(windows, 'C:\\Programm'), 'c-Programm');
  });

  it('compares workspace paths as the host does and reads file URIs', () => {
    assert.ok(samePath(linux, '/src/app/', '/src/app'));
    assert.ok(!samePath(linux, '/src/App', '/src/app'));
    assert.ok(samePath(windows, 'c:/SRC/app', 'C:\\src\\app\\'));
    assert.equal(comparablePath(linux, '/'), '/');
    assert.equal(fileUriToPath(linux, 'file:///home/dev/my%20app'), '/home/dev/my app');
    assert.equal(fileUriToPath(windows, 'file:///c%3A/Users/ada/app'), 'c:\\Users\\ada\\app');
    assert.equal(fileUriToPath(windows, 'file://server/share/app'), '\\\\server\\share\\app');
    assert.equal(fileUriToPath(linux, 'vscode-remote://ssh-remote%2Bbox/home/dev/app'), undefined);
    assert.equal(fileUriToPath(linux, '/plain/path'), '/plain/path');
    assert.equal(fileUriToPath(windows, 'C:\\plain'), 'C:\\plain');
  });
});

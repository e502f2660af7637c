import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeWorkspace, runCli } from '../helpers/cli';
import { FIXTURES, makeTempDir } from '../helpers/paths';

/** A settings file as a person keeps it: other keys, other hooks, 4-space indentation. */
const THEIRS = {
  permissions: { allow: ['Bash(npm test:*)'], deny: [] },
  hooks: {
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './scripts/guard.sh', timeout: 5 }] }],
    Stop: [{ hooks: [{ type: 'command', command: 'notify-send done' }] }],
  },
  env: { FOO: '1' },
};
const THEIRS_TEXT = JSON.stringify(THEIRS, null, 4) + '\n';

async function setup() {
  const { ws, root, inbox } = await makeWorkspace();
  const home = makeTempDir('lore-home-');
  const env = { HOME: home, CLAUDE_CONFIG_DIR: '', XDG_CONFIG_HOME: '', XDG_DATA_HOME: '', LORE_ROOT: '' };
  const hooks = (...args: string[]) => runCli(['hooks', ...args, '--root', root], { cwd: ws, env });
  return { ws, root, inbox, home, env, hooks };
}

const loreCommands = (settings: { hooks?: Record<string, Array<{ hooks: Array<{ command?: string }> }>> }, event: string) =>
  (settings.hooks?.[event] ?? [])
    .flatMap((group) => group.hooks)
    .map((h) => h.command)
    .filter((c) => c && /cli\.js'? hook$/.test(c));

describe('lore hooks install / uninstall', function () {
  this.timeout(60_000);

  it('merges into an existing settings file, is idempotent, and uninstall restores it exactly', async () => {
    const { ws, hooks } = await setup();
    const file = path.join(ws, '.claude', 'settings.local.json');
    fs.mkdirSync(path.dirname(file));
    fs.writeFileSync(file, THEIRS_TEXT);

    const install = await hooks('install');
    assert.equal(install.code, 0, install.stderr);
    const text = fs.readFileSync(file, 'utf8');
    const installed = JSON.parse(text);
    // Every other key and hook is kept, in the file's own indentation.
    assert.deepEqual(installed.permissions, THEIRS.permissions);
    assert.deepEqual(installed.env, THEIRS.env);
    assert.deepEqual(installed.hooks.PreToolUse, THEIRS.hooks.PreToolUse);
    assert.deepEqual(installed.hooks.Stop[0], THEIRS.hooks.Stop[0]);
    assert.match(text, /^ {4}"permissions"/m);
    for (const event of ['SessionEnd', 'PreCompact', 'Stop', 'SessionStart', 'UserPromptSubmit', 'PostToolUse'])
      assert.equal(loreCommands(installed, event).length, 1, event);
    // The tool hook runs only for the tools whose input names files, in a group of its own.
    assert.deepEqual(
      installed.hooks.PostToolUse.map((g: { matcher?: string }) => g.matcher),
      ['Read|Write|Edit|MultiEdit|NotebookEdit|Glob|Grep'],
    );

    const again = await hooks('install');
    assert.equal(again.code, 0);
    assert.match(again.stdout, /nothing changed/);
    assert.equal(fs.readFileSync(file, 'utf8'), text);

    const uninstall = await hooks('uninstall');
    assert.equal(uninstall.code, 0, uninstall.stderr);
    assert.match(uninstall.stdout, /removed Lore's hooks from .*settings\.local\.json/);
    assert.equal(fs.readFileSync(file, 'utf8'), THEIRS_TEXT);
    const twice = await hooks('uninstall');
    assert.match(twice.stdout, /nothing changed/);
  });

  it('the command it writes runs lore hook on this machine (the inbox gets the session)', async () => {
    const { ws, inbox, home, env, hooks } = await setup();
    await hooks('install');
    const settings = JSON.parse(fs.readFileSync(path.join(ws, '.claude', 'settings.local.json'), 'utf8'));
    const [command] = loreCommands(settings, 'SessionEnd');
    const transcript = path.join(home, '.claude', 'projects', ws.replace(/[^A-Za-z0-9]/g, '-'), 's1.jsonl');
    fs.mkdirSync(path.dirname(transcript), { recursive: true });
    fs.copyFileSync(path.join(FIXTURES, 'conversations', 'claude-session.jsonl'), transcript);
    const input = JSON.stringify({
      session_id: 's1',
      transcript_path: transcript,
      cwd: ws,
      hook_event_name: 'SessionEnd',
      reason: 'other',
    });
    // As Claude Code runs it: through a shell, in the project folder, the input on stdin.
    execFileSync('sh', ['-c', command!], { cwd: ws, input, env: { ...process.env, ...env } });
    assert.equal(fs.readdirSync(inbox).filter((n) => n.startsWith('claude-s1-')).length, 1);
  });

  it("--user writes ~/.claude/settings.json; --vscode writes .github/hooks/lore.json in VS Code's format", async () => {
    const { ws, home, hooks } = await setup();
    assert.equal((await hooks('install', '--user')).code, 0);
    const user = JSON.parse(fs.readFileSync(path.join(home, '.claude', 'settings.json'), 'utf8'));
    assert.equal(loreCommands(user, 'SessionEnd').length, 1);

    assert.equal((await hooks('install', '--vscode')).code, 0);
    const vscode = JSON.parse(fs.readFileSync(path.join(ws, '.github', 'hooks', 'lore.json'), 'utf8'));
    // VS Code takes context at SessionStart only (its UserPromptSubmit has no additionalContext).
    assert.deepEqual(Object.keys(vscode.hooks).sort(), ['PreCompact', 'SessionStart', 'Stop']);
    for (const list of Object.values(vscode.hooks) as Array<Array<{ type: string; command: string }>>) {
      assert.equal(list.length, 1);
      assert.equal(list[0].type, 'command');
      assert.match(list[0].command, /cli\.js'? hook$/);
    }
    const refused = await hooks('install', '--vscode', '--user');
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /--claude --user/);

    // Uninstall without flags looks everywhere.
    const uninstall = await hooks('uninstall');
    assert.equal(uninstall.code, 0, uninstall.stderr);
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(home, '.claude', 'settings.json'), 'utf8')), { hooks: {} });
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(ws, '.github', 'hooks', 'lore.json'), 'utf8')), { hooks: {} });
  });

  for (const [what, text, why] of [
    ['not valid JSON', '{\n  "hooks": {},\n}\n', /not valid JSON/],
    ['not an object', '[]\n', /not a JSON object/],
    ['a hooks entry of the wrong shape', JSON.stringify({ hooks: { Stop: { command: 'x' } } }), /hooks\.Stop/],
  ] as const) {
    it(`a settings file that is ${what} is left untouched, and the error says what is wrong`, async () => {
      const { ws, hooks } = await setup();
      const file = path.join(ws, '.claude', 'settings.local.json');
      fs.mkdirSync(path.dirname(file));
      fs.writeFileSync(file, text);
      for (const verb of ['install', 'uninstall']) {
        const result = await hooks(verb);
        assert.equal(result.code, 1, verb);
        assert.match(result.stderr, why);
        assert.match(result.stderr, /settings\.local\.json/);
        assert.equal(fs.readFileSync(file, 'utf8'), text);
      }
    });
  }

  it("--capture-only and --context-only install one kind and take Lore's other kind out of the file; uninstall still restores it", async () => {
    const { ws, hooks } = await setup();
    const file = path.join(ws, '.claude', 'settings.local.json');
    fs.mkdirSync(path.dirname(file));
    fs.writeFileSync(file, THEIRS_TEXT);
    const events = () => {
      const settings = JSON.parse(fs.readFileSync(file, 'utf8'));
      return ['SessionEnd', 'PreCompact', 'Stop', 'SessionStart', 'UserPromptSubmit', 'PostToolUse'].filter(
        (e) => loreCommands(settings, e).length === 1,
      );
    };
    assert.equal((await hooks('install')).code, 0);
    assert.deepEqual(events(), ['SessionEnd', 'PreCompact', 'Stop', 'SessionStart', 'UserPromptSubmit', 'PostToolUse']);
    const capture = await hooks('install', '--capture-only');
    assert.equal(capture.code, 0, capture.stderr);
    assert.match(capture.stdout, /events: SessionEnd, PreCompact, Stop\n/);
    assert.deepEqual(events(), ['SessionEnd', 'PreCompact', 'Stop']);
    assert.equal((await hooks('install', '--context-only')).code, 0);
    assert.deepEqual(events(), ['SessionStart', 'UserPromptSubmit', 'PostToolUse']);
    // Their own Stop hook survives every change.
    assert.deepEqual(JSON.parse(fs.readFileSync(file, 'utf8')).hooks.Stop, THEIRS.hooks.Stop);
    assert.equal((await hooks('install', '--capture-only', '--context-only')).code, 2);
    assert.equal((await hooks('uninstall')).code, 0);
    assert.equal(fs.readFileSync(file, 'utf8'), THEIRS_TEXT);
  });

  it('the context hook it writes answers a prompt on this machine', async () => {
    const { ws, root, env, hooks } = await setup();
    fs.appendFileSync(path.join(root, 'decisions.md'), '- Hooks never block the agent [from: c1, 2026-11-20]\n');
    assert.equal((await runCli(['digest', '--root', root], { cwd: ws, env })).code, 0);
    await hooks('install', '--context-only');
    const settings = JSON.parse(fs.readFileSync(path.join(ws, '.claude', 'settings.local.json'), 'utf8'));
    const [command] = loreCommands(settings, 'UserPromptSubmit');
    const input = JSON.stringify({ session_id: 's1', cwd: ws, hook_event_name: 'UserPromptSubmit', prompt: 'what about hooks?' });
    const out = JSON.parse(execFileSync('sh', ['-c', command!], { cwd: ws, input, env: { ...process.env, ...env }, encoding: 'utf8' }));
    assert.equal(out.hookSpecificOutput.hookEventName, 'UserPromptSubmit');
    assert.match(out.hookSpecificOutput.additionalContext, /Hooks never block the agent/);
  });

  it('an older Lore entry (another path) is updated in place, not duplicated', async () => {
    const { ws, hooks } = await setup();
    const file = path.join(ws, '.claude', 'settings.local.json');
    fs.mkdirSync(path.dirname(file));
    const old = { hooks: { Stop: [{ hooks: [{ type: 'command', command: '/old/node /old/lore/dist/cli.js hook', timeout: 15 }] }] } };
    fs.writeFileSync(file, JSON.stringify(old, null, 2));
    assert.equal((await hooks('install')).code, 0);
    const settings = JSON.parse(fs.readFileSync(file, 'utf8'));
    assert.equal(settings.hooks.Stop.length, 1);
    assert.notEqual(settings.hooks.Stop[0].hooks[0].command, old.hooks.Stop[0].hooks[0].command);
    // The file had no final newline; it still has none.
    assert.ok(!fs.readFileSync(file, 'utf8').endsWith('\n'));
  });
});

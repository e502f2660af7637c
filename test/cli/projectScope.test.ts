/**
 * One project's memory stays in its project: the CLI never falls back to the global store
 * (~/.lore) unless asked with --global, and `lore hook` refuses a session of another folder or
 * of another Claude Code project, with a line in the hook log.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeWorkspace, runCli } from '../helpers/cli';
import { FIXTURES, makeTempDir } from '../helpers/paths';

const SESSION = fs.readFileSync(path.join(FIXTURES, 'conversations', 'claude-session.jsonl'));

function homeEnv(home: string) {
  return { HOME: home, CLAUDE_CONFIG_DIR: '', XDG_CONFIG_HOME: '', XDG_DATA_HOME: '', LORE_ROOT: '' };
}

describe("one project's memory stays in its project", function () {
  this.timeout(60_000);

  it('the global store is written only with --global: not found from a project, not made in the home folder', async () => {
    const home = makeTempDir('lore-home-');
    const env = homeEnv(home);
    const refused = await runCli(['init'], { cwd: home, env });
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /is the global store, used only when asked for: pass --global/);
    assert.ok(!fs.existsSync(path.join(home, '.lore')));
    const made = await runCli(['init', '--global'], { cwd: home, env });
    assert.equal(made.code, 0, made.stderr);
    assert.ok(fs.existsSync(path.join(home, '.lore', 'facts.md')));

    // A project under the home folder without a store of its own: its writes go to its own folder, not ~/.lore.
    const project = path.join(home, 'code', 'app');
    fs.mkdirSync(project, { recursive: true });
    const globalFacts = fs.readFileSync(path.join(home, '.lore', 'facts.md'), 'utf8');
    const note = await runCli(['init'], { cwd: project, env });
    assert.equal(note.code, 0, note.stderr);
    assert.match(note.stdout, new RegExp(`initialized ${path.join(project, '.lore').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    assert.equal(fs.readFileSync(path.join(home, '.lore', 'facts.md'), 'utf8'), globalFacts);
    const both = await runCli(['search', '--global', '--root', project, 'x'], { cwd: project, env });
    assert.equal(both.code, 2);
    assert.match(both.stderr, /--global and --root exclude each other/);
  });

  it('a hook from a project without a store leaves ~/.lore alone', async () => {
    const home = makeTempDir('lore-home-');
    const env = homeEnv(home);
    assert.equal((await runCli(['init', '--global'], { cwd: home, env })).code, 0);
    const project = path.join(home, 'code', 'app');
    const transcript = path.join(home, '.claude', 'projects', project.replace(/[^A-Za-z0-9]/g, '-'), 's1.jsonl');
    fs.mkdirSync(path.dirname(transcript), { recursive: true });
    fs.mkdirSync(project, { recursive: true });
    fs.writeFileSync(transcript, SESSION);
    const input = JSON.stringify({
      session_id: 's1',
      transcript_path: transcript,
      cwd: project,
      hook_event_name: 'SessionEnd',
      reason: 'exit',
    });
    const result = await runCli(['hook'], { cwd: project, env, input });
    assert.equal(result.code, 0);
    assert.deepEqual(fs.readdirSync(path.join(home, '.lore', 'inbox')), []);
    assert.ok(!fs.existsSync(path.join(project, '.lore')));
  });

  it('a hook refuses a session of another folder, and a transcript of another Claude Code project, saying so in the hook log', async () => {
    const { ws, root, inbox } = await makeWorkspace();
    const home = makeTempDir('lore-home-');
    const env = homeEnv(home);
    const elsewhere = makeTempDir('lore-other-');
    const put = (project: string, id: string) => {
      const file = path.join(home, '.claude', 'projects', project.replace(/[^A-Za-z0-9]/g, '-'), `${id}.jsonl`);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, SESSION);
      return file;
    };
    const hook = (input: Record<string, unknown>) =>
      runCli(['hook', '--root', root], {
        cwd: ws,
        env,
        input: JSON.stringify({ hook_event_name: 'SessionEnd', reason: 'exit', ...input }),
      });
    const log = () => fs.readFileSync(path.join(root, '.cache', 'hook.log'), 'utf8');

    // Installed with --root for this store, run by an agent working in another folder.
    assert.equal((await hook({ session_id: 'x1', transcript_path: put(elsewhere, 'x1'), cwd: elsewhere })).code, 0);
    assert.match(
      log(),
      new RegExp(
        `SessionEnd x1: refused: the session's folder ${elsewhere.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is outside this store's workspace`,
      ),
    );
    // Context is not handed to another folder's session either.
    const prompt = await runCli(['hook', '--root', root], {
      cwd: ws,
      env,
      input: JSON.stringify({ hook_event_name: 'UserPromptSubmit', session_id: 'x1', cwd: elsewhere, prompt: 'hi' }),
    });
    assert.equal(prompt.stdout, '');
    assert.match(log(), /UserPromptSubmit x1: refused: the session's folder/);
    // The folder is this workspace's, but the transcript is kept under another project's folder.
    assert.equal((await hook({ session_id: 'x2', transcript_path: put(elsewhere, 'x2'), cwd: ws })).code, 0);
    assert.match(
      log(),
      /SessionEnd x2: nothing queued: the transcript .*x2\.jsonl is a session of Claude Code project .*, not of this store's workspace/,
    );
    assert.deepEqual(fs.existsSync(inbox) ? fs.readdirSync(inbox) : [], []);
    // This workspace's own session, and one started in a folder inside it, are taken.
    assert.equal((await hook({ session_id: 'x3', transcript_path: put(ws, 'x3'), cwd: ws })).code, 0);
    assert.equal((await hook({ session_id: 'x4', transcript_path: put(path.join(ws, 'src'), 'x4'), cwd: path.join(ws, 'src') })).code, 0);
    assert.deepEqual(
      fs
        .readdirSync(inbox)
        .map((n) => n.replace(/-[0-9a-f]{12}\.jsonl$/, ''))
        .sort(),
      ['claude-x3', 'claude-x4'],
    );
  });
});

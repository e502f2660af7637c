import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MAX_RAW_SOURCE_BYTES } from '../../src/core/model/constants';
import { makeWorkspace, runCli } from '../helpers/cli';
import { moduleRecorder } from '../helpers/moduleRecorder';
import { CLI, FIXTURES, HOOK_BUNDLE, makeTempDir } from '../helpers/paths';

const SESSION_ID = 'a7c1e2f0-1111-4222-8333-944455556666';
const CLAUDE_SESSION = fs.readFileSync(path.join(FIXTURES, 'conversations', 'claude-session.jsonl'));

/** A workspace with a store, and a home where Claude Code keeps this workspace's session. */
async function setup() {
  const { ws, root, inbox } = await makeWorkspace();
  const home = makeTempDir('lore-home-');
  const transcript = path.join(home, '.claude', 'projects', ws.replace(/[^A-Za-z0-9]/g, '-'), `${SESSION_ID}.jsonl`);
  fs.mkdirSync(path.dirname(transcript), { recursive: true });
  fs.writeFileSync(transcript, CLAUDE_SESSION);
  const env = { HOME: home, CLAUDE_CONFIG_DIR: '', XDG_CONFIG_HOME: '', XDG_DATA_HOME: '', LORE_ROOT: '' };
  const hook = (input: Record<string, unknown> | string, options: { cwd?: string; spawn?: boolean; env?: NodeJS.ProcessEnv } = {}) =>
    runCli(['hook'], {
      cwd: options.cwd ?? ws,
      env: { ...env, ...options.env },
      input: typeof input === 'string' ? input : JSON.stringify(input),
      spawn: options.spawn,
    });
  const claudeInput = (event: string, extra: Record<string, unknown> = {}) => ({
    session_id: SESSION_ID,
    transcript_path: transcript,
    cwd: ws,
    permission_mode: 'default',
    hook_event_name: event,
    ...extra,
  });
  return { ws, root, inbox, home, transcript, env, hook, claudeInput };
}

const inboxFiles = (inbox: string) => (fs.existsSync(inbox) ? fs.readdirSync(inbox).sort() : []);
const queueFiles = (root: string) => (fs.existsSync(path.join(root, 'queue')) ? fs.readdirSync(path.join(root, 'queue')).sort() : []);
const hookLog = (root: string) => {
  const file = path.join(root, '.cache', 'hook.log');
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
};

/** Every result of `lore hook` must look like success to the agent: exit 0, nothing printed. */
function assertSilentSuccess(result: { code: number | null; stdout: string; stderr: string }) {
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, '');
  assert.equal(result.stderr, '');
}

describe('lore hook', function () {
  this.timeout(60_000);

  for (const event of ['SessionEnd', 'PreCompact']) {
    it(`${event}: copies the transcript into the inbox, byte for byte`, async () => {
      const { inbox, root, hook, claudeInput } = await setup();
      assertSilentSuccess(await hook(claudeInput(event, event === 'SessionEnd' ? { reason: 'prompt_input_exit' } : { trigger: 'auto' })));
      const files = inboxFiles(inbox);
      assert.equal(files.length, 1);
      assert.match(files[0], new RegExp(`^claude-${SESSION_ID}-[0-9a-f]{12}\\.jsonl$`));
      assert.deepEqual(fs.readFileSync(path.join(inbox, files[0])), CLAUDE_SESSION);
      assert.deepEqual(queueFiles(root), []);
    });
  }

  it('a later copy replaces an earlier one only when it holds all its bytes; the same content is not copied twice', async () => {
    const { inbox, transcript, hook, claudeInput } = await setup();
    await hook(claudeInput('PreCompact'));
    const [first] = inboxFiles(inbox);
    // The same session again, unchanged: nothing new.
    assertSilentSuccess(await hook(claudeInput('PreCompact')));
    assert.deepEqual(inboxFiles(inbox), [first]);
    // It grew: the new copy holds the old one's bytes, so the old one goes.
    const grown = Buffer.concat([CLAUDE_SESSION, Buffer.from('{"type":"user","message":{"role":"user","content":"one more"}}\n')]);
    fs.writeFileSync(transcript, grown);
    assertSilentSuccess(await hook(claudeInput('SessionEnd')));
    const [second] = inboxFiles(inbox);
    assert.notEqual(second, first);
    assert.deepEqual(inboxFiles(inbox), [second]);
    assert.deepEqual(fs.readFileSync(path.join(inbox, second)), grown);
    // Rewritten shorter (not a continuation): both are kept, no byte is lost.
    const rewritten = CLAUDE_SESSION.subarray(0, 200);
    fs.writeFileSync(transcript, rewritten);
    await hook(claudeInput('PreCompact'));
    const after = inboxFiles(inbox);
    assert.equal(after.length, 2);
    assert.ok(after.includes(second));
    const contents = after.map((f) => fs.readFileSync(path.join(inbox, f)).toString('base64')).sort();
    assert.deepEqual(contents, [grown.toString('base64'), rewritten.toString('base64')].sort());
  });

  it('while a harvest holds the store lock an earlier copy stays; a later hook removes it once the lock is gone', async () => {
    const { root, inbox, transcript, hook, claudeInput } = await setup();
    await hook(claudeInput('PreCompact'));
    const [first] = inboxFiles(inbox);
    fs.writeFileSync(path.join(root, '.lock'), JSON.stringify({ pid: process.pid, host: 'test' }));
    fs.appendFileSync(transcript, '{"type":"user","message":{"role":"user","content":"later"}}\n');
    await hook(claudeInput('PreCompact'));
    assert.equal(inboxFiles(inbox).length, 2, 'the earlier copy is kept while the lock is held');
    fs.rmSync(path.join(root, '.lock'));
    assertSilentSuccess(await hook(claudeInput('SessionEnd')));
    const after = inboxFiles(inbox);
    assert.equal(after.length, 1);
    assert.notEqual(after[0], first);
    assert.deepEqual(fs.readFileSync(path.join(inbox, after[0])), fs.readFileSync(transcript));
  });

  it('the hook log is capped: past 256 KB it moves to hook.log.1', async () => {
    const { root, hook } = await setup();
    const log = path.join(root, '.cache', 'hook.log');
    fs.mkdirSync(path.dirname(log), { recursive: true });
    fs.writeFileSync(log, 'x'.repeat(256 * 1024));
    assertSilentSuccess(await hook('{not json'));
    assert.equal(fs.statSync(`${log}.1`).size, 256 * 1024);
    assert.match(fs.readFileSync(log, 'utf8'), /^\S+ hook: stdin is not JSON/);
  });

  it('Stop queues the session where it lies; the next harvest reads it from there and never deletes it', async () => {
    const { root, inbox, transcript, env, ws, hook, claudeInput } = await setup();
    assertSilentSuccess(await hook(claudeInput('Stop', { stop_hook_active: false })));
    assert.deepEqual(inboxFiles(inbox), []);
    const queued = queueFiles(root);
    assert.deepEqual(queued, [`claude-${SESSION_ID}.json`]);
    const entry = JSON.parse(fs.readFileSync(path.join(root, 'queue', queued[0]), 'utf8'));
    assert.equal(entry.transcript, fs.realpathSync(transcript));
    assert.equal(entry.sessionId, SESSION_ID);
    // A queued session is a source of the default harvest (just written, so --live-minutes 0).
    const harvest = await runCli(['harvest', '--root', root, '--apply', '--live-minutes', '0', '--json'], { cwd: ws, env });
    assert.equal(harvest.code, 0, harvest.stderr);
    const report = JSON.parse(harvest.stdout);
    const mine = report.conversations.filter((c: { path: string }) => c.path === fs.realpathSync(transcript));
    assert.equal(mine.length, 1, harvest.stdout);
    assert.equal(mine[0].status, 'harvested');
    assert.deepEqual(fs.readFileSync(transcript), CLAUDE_SESSION);
    // Proven harvested and unchanged since: it leaves the queue until its next Stop.
    assert.deepEqual(queueFiles(root), []);
    // Undo Last Harvest puts the queue entry back (the ledger no longer proves the session).
    const undo = await runCli(['undo', '--root', root], { cwd: ws, env });
    assert.equal(undo.code, 0, undo.stderr);
    assert.deepEqual(queueFiles(root), queued);
    assert.equal(JSON.parse(fs.readFileSync(path.join(root, 'queue', queued[0]), 'utf8')).sessionId, SESSION_ID);
    // Queue entries are private paths of this machine: git-ignored like the inbox.
    assert.match(fs.readFileSync(path.join(root, '.gitignore'), 'utf8'), /^queue\/$/m);
  });

  it('a SessionEnd copy supersedes the queued entry of the same session', async () => {
    const { root, inbox, hook, claudeInput } = await setup();
    await hook(claudeInput('Stop'));
    assert.equal(queueFiles(root).length, 1);
    await hook(claudeInput('SessionEnd'));
    assert.deepEqual(queueFiles(root), []);
    assert.equal(inboxFiles(inbox).length, 1);
  });

  it("VS Code's Stop (the end of its agent session) copies, and its camelCase fields are read", async () => {
    const { ws, inbox, home, hook } = await setup();
    const transcript = path.join(
      home,
      '.config',
      'Code',
      'User',
      'workspaceStorage',
      'abc123',
      'GitHub.copilot-chat',
      'transcripts',
      'sess-1.jsonl',
    );
    fs.mkdirSync(path.dirname(transcript), { recursive: true });
    fs.writeFileSync(transcript, CLAUDE_SESSION);
    assertSilentSuccess(
      await hook({ timestamp: '2026-11-24T09:00:00Z', hookEventName: 'Stop', sessionId: 'sess-1', transcript_path: transcript, cwd: ws }),
    );
    const files = inboxFiles(inbox);
    assert.equal(files.length, 1);
    assert.match(files[0], /^vscode-sess-1-[0-9a-f]{12}\.jsonl$/);
  });

  it('malformed input: exit 0, nothing written, one line in the hook log', async () => {
    const { root, inbox, hook } = await setup();
    for (const input of ['{not json', JSON.stringify({ hook_event_name: 'Stop' }), JSON.stringify([1, 2]), '']) {
      assertSilentSuccess(await hook(input));
    }
    assert.deepEqual(inboxFiles(inbox), []);
    assert.deepEqual(queueFiles(root), []);
    const lines = hookLog(root).trim().split('\n');
    assert.equal(lines.length, 4, hookLog(root));
    assert.match(lines[0], /stdin is not JSON/);
    assert.match(lines[1], /cwd/);
  });

  for (const [what, prepare, why] of [
    [
      'a folder',
      (t: string) => {
        fs.rmSync(t);
        fs.mkdirSync(t);
      },
      /not a regular file/,
    ],
    ['too large', (t: string) => fs.truncateSync(t, MAX_RAW_SOURCE_BYTES + 1), /larger than/],
    ['missing', (t: string) => fs.rmSync(t), /ENOENT/],
    ["outside the tools' folders", (t: string) => t, /not in a folder where/],
    ['a link to a file elsewhere', (t: string) => t, /not in a folder where/],
  ] as const) {
    it(`a transcript that is ${what}: exit 0, logged, nothing written`, async () => {
      const { root, inbox, ws, transcript, hook, claudeInput } = await setup();
      let named = transcript;
      if (what === "outside the tools' folders") {
        named = path.join(ws, 'secret.jsonl');
        fs.writeFileSync(named, CLAUDE_SESSION);
      } else if (what === 'a link to a file elsewhere') {
        const elsewhere = path.join(ws, 'elsewhere.jsonl');
        fs.writeFileSync(elsewhere, CLAUDE_SESSION);
        fs.rmSync(transcript);
        fs.symlinkSync(elsewhere, transcript);
      } else {
        prepare(transcript);
      }
      for (const event of ['SessionEnd', 'Stop']) assertSilentSuccess(await hook({ ...claudeInput(event), transcript_path: named }));
      assert.deepEqual(inboxFiles(inbox), []);
      assert.deepEqual(queueFiles(root), []);
      const lines = hookLog(root).trim().split('\n');
      assert.equal(lines.length, 2);
      for (const line of lines) assert.match(line, why);
    });
  }

  it('a folder without a store is left alone; another event is ignored', async () => {
    const { hook, claudeInput, root, inbox } = await setup();
    const bare = makeTempDir('lore-bare-');
    assertSilentSuccess(await hook({ ...claudeInput('SessionEnd'), cwd: bare }, { cwd: bare }));
    assert.deepEqual(fs.readdirSync(bare), []);
    assertSilentSuccess(await hook(claudeInput('UserPromptSubmit', { prompt: 'hi' })));
    assert.deepEqual(inboxFiles(inbox), []);
    assert.equal(hookLog(root), '');
  });

  it('a caller that never closes stdin does not hold the hook: it gives up, logs, and exits 0', async () => {
    const { root, ws, env, claudeInput } = await setup();
    const child = spawn(process.execPath, [CLI, 'hook'], { cwd: ws, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    // Half an input, and stdin left open (the hook's own time limit ends the wait, not this test).
    child.stdin.write(JSON.stringify(claudeInput('Stop')).slice(0, 20));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    child.stdin.destroy();
    assert.equal(code, 0);
    assert.equal(output, '');
    assert.match(hookLog(root), /stdin was not closed/);
  });

  it('as a real process (dist/cli.js) it loads nothing but the hook bundle and Node built-ins', async () => {
    const { inbox, hook, claudeInput } = await setup();
    // Records every module the process asks for and every file it loads.
    const recorder = moduleRecorder();
    const result = await hook(claudeInput('SessionEnd'), { spawn: true, env: { NODE_OPTIONS: recorder.nodeOptions } });
    assertSilentSuccess(result);
    assert.equal(inboxFiles(inbox).length, 1, 'the hook did its work');
    const loaded = recorder.read();
    assert.deepEqual(loaded.files, [CLI, HOOK_BUNDLE]);
    const notBuiltin = loaded.requests.filter(
      (r) => !r.startsWith('node:') && !require('node:module').isBuiltin(r) && r !== CLI && r !== './hook.js',
    );
    assert.deepEqual(notBuiltin, [], 'no vendor SDK, native module or node_modules package');
  });
});

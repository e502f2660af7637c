/**
 * Topics through the CLI: `lore topics`, `lore context --message` ("why this context"), the gate
 * against a loopback OpenAI stub, and `lore hook` (topics in UserPromptSubmit's context, output
 * watchers on Stop).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeWorkspace, runCli } from '../helpers/cli';
import { moduleRecorder } from '../helpers/moduleRecorder';
import { CLI, HOOK_BUNDLE, makeTempDir } from '../helpers/paths';
import { startStub, type StubServer } from '../helpers/stubServers';

const DEPLOY = `---
description: Deploying to production
triggers:
  - keywords: [deploy, rollback]
subscriptions:
  - docs/deploy.md
priority: high
---
Run the smoke tests on staging before every deploy.
`;
const MIGRATIONS = `---
description: Database schema migrations
triggers:
  - keywords: [migration, schema]
activation: gated
priority: medium
---
Write a down migration for every up migration; SQLite schema changes need a table copy.
`;
const PY3 = `---
triggers:
  - pattern: "\\\\bprint [a-z_]"
    scope: output
priority: medium
---
Use Python 3: print() is a function.
`;
const BROKEN = '---\ntriggers:\n  - keywords: [x]\n  - pattern: "(a"\n---\nBroken.\n';

async function setup(extra: Record<string, string> = {}) {
  const { ws, root } = await makeWorkspace();
  fs.mkdirSync(path.join(root, 'topics'));
  for (const [name, text] of Object.entries({ 'deploy.md': DEPLOY, 'migrations.md': MIGRATIONS, 'py3.md': PY3, ...extra }))
    fs.writeFileSync(path.join(root, 'topics', name), text);
  fs.mkdirSync(path.join(ws, 'docs'));
  fs.writeFileSync(path.join(ws, 'docs', 'deploy.md'), '# Deploy\nThe release train leaves at 10:00.\n');
  const env = { LORE_ROOT: '', LORE_PROVIDER: '', LORE_SEARCH_BACKEND: '', LORE_EMBED_PROVIDER: '', OPENAI_API_KEY: '' };
  const cli = (...args: string[]) => runCli([...args, '--root', root], { cwd: ws, env });
  return { ws, root, env, cli };
}

describe('lore topics', () => {
  it('lists valid topics with their triggers, reports an invalid one with file and line, and exits 1', async () => {
    const { cli } = await setup({ 'broken.md': BROKEN });
    const result = await cli('topics');
    assert.equal(result.code, 1);
    assert.match(
      result.stdout,
      /^deploy {2}auto, high — Deploying to production\n {2}keywords deploy, rollback \(input\)\n {2}subscribes to docs\/deploy\.md$/m,
    );
    assert.match(result.stdout, /^py3 {2}auto, medium/m);
    assert.match(result.stderr, /topics\/broken\.md:4: triggers\.1\.pattern "\(a": invalid regular expression.*\(skipped\)/);
    const json = JSON.parse((await cli('topics', '--json')).stdout);
    assert.deepEqual(
      json.topics.map((t: { name: string }) => t.name),
      ['deploy', 'migrations', 'py3'],
    );
    assert.deepEqual(
      json.problems.map((p: { file: string; line: number }) => [p.file, p.line]),
      [['topics/broken.md', 4]],
    );
  });
});

describe('lore context with topics ("why this context")', () => {
  let stub: StubServer | undefined;
  afterEach(async () => {
    await stub?.close();
    stub = undefined;
  });

  it('injects the topics a message fires, with their subscriptions, and says which tier fired and why', async () => {
    const { cli } = await setup();
    const result = await cli('context', '--message', 'can we deploy the new schema migration today?', '--json');
    assert.equal(result.code, 0, result.stderr);
    const json = JSON.parse(result.stdout);
    assert.match(
      json.text,
      /\{topics\}\n## topic: deploy\n\nRun the smoke tests on staging before every deploy\.\n\n### deploy subscribes to docs\/deploy\.md\n> Recorded project knowledge[^\n]*\n# Deploy\nThe release train leaves at 10:00\.\n\{\/topics\}/,
    );
    assert.deepEqual(
      json.topics.active.map((a: { name: string; tier: number }) => [a.name, a.tier]),
      [['deploy', 1]],
    );
    const migrations = json.topics.decisions.find((d: { topic: string }) => d.topic === 'migrations');
    assert.equal(migrations.active, false);
    assert.equal(migrations.gate, 'no-model');
    assert.match(migrations.reason, /tier 1 keywords .* matched "schema"/);
    assert.match(migrations.reason, /no model is configured/);
    assert.equal(json.topics.gate.available, false);
    const p2 = json.slots.find((s: { slot: string }) => s.slot === 'P2');
    const topicsLayer = json.boundaries.find((b: { layer: string }) => b.layer === 'topics');
    assert.equal(p2.bytes, topicsLayer.endByte - topicsLayer.startByte);
    assert.equal(p2.included, 2);
    assert.equal(json.budgetTokens, 8000);
    assert.ok(json.tokens <= 8000);
    // The topics are the end of the stable prefix.
    assert.equal(json.stablePrefixLength, topicsLayer.end);
    // Identical inputs, identical bytes.
    assert.equal(
      JSON.parse((await cli('context', '--message', 'can we deploy the new schema migration today?', '--json')).stdout).text,
      json.text,
    );
  });

  it('takes the budget from --budget, else config.json context.budgetTokens, and records what it cut', async () => {
    const { root, cli } = await setup();
    fs.writeFileSync(
      path.join(root, 'digest.md'),
      `# Knowledge digest\n\n## Facts\n${Array.from({ length: 200 }, (_, i) => `- fact number ${i} about the deploy pipeline and its stages [from: c${i}, 2026-11-20]`).join('\n')}\n`,
    );
    const small = JSON.parse((await cli('context', '--message', 'deploy', '--budget', '1000', '--json')).stdout);
    assert.equal(small.budgetTokens, 1000);
    assert.ok(small.tokens <= 1000, String(small.tokens));
    assert.equal(small.slots.find((s: { slot: string }) => s.slot === 'P1').cut[0].label, 'digest (the rest)');
    fs.writeFileSync(path.join(root, 'config.json'), JSON.stringify({ context: { budgetTokens: 1500 } }));
    const configured = JSON.parse((await cli('context', '--message', 'deploy', '--json')).stdout);
    assert.equal(configured.budgetTokens, 1500);
    assert.ok(configured.tokens <= 1500 && configured.tokens > small.tokens);
    assert.equal((await cli('context', '--budget', '10')).code, 2);
  });

  it('asks the gate of the configured provider (a loopback OpenAI stub), once per message and topic', async () => {
    const { cli, root } = await setup();
    stub = await startStub('openai', [], { whenExhausted: { reply: 'YES' } });
    const args = [
      'context',
      '--message',
      'is this schema migration reversible in SQLite?',
      '--provider',
      'openai',
      '--base-url',
      stub.baseUrl,
      '--json',
    ];
    const run = async () =>
      JSON.parse((await runCli([...args, '--root', root], { env: { LORE_ROOT: '', OPENAI_API_KEY: 'test-key' } })).stdout);
    const first = await run();
    assert.deepEqual(
      first.topics.active.map((a: { name: string; tier: number }) => [a.name, a.tier]),
      [['migrations', 3]],
    );
    assert.equal(stub.requests.length, 1);
    assert.equal(stub.requests[0].body.max_completion_tokens, 1);
    assert.equal(stub.requests[0].body.temperature, 0);
    assert.match(first.text, /## topic: migrations/);
    const second = await run();
    assert.equal(stub.requests.length, 1, 'the second answer comes from the cache');
    assert.equal(second.topics.decisions.find((d: { topic: string }) => d.topic === 'migrations').cached, true);
    // The log has both decisions, by hash; the stats summarize them.
    const stats = await cli('topics', '--stats');
    assert.match(stats.stdout, /^migrations: 2 candidacies, 2 active \(yes 2\); tier 1 2, mean tier 2 [\d.]+, 1 cached/m);
    assert.ok(!fs.readFileSync(path.join(root, '.logs', 'gates.jsonl'), 'utf8').includes('reversible'));
  });

  it('activates a manual topic by name', async () => {
    const { cli } = await setup({ 'manual.md': '---\nactivation: manual\ntriggers:\n  - keywords: [deploy]\n---\nOnly when asked.\n' });
    const unnamed = JSON.parse((await cli('context', '--message', 'deploy', '--json')).stdout);
    assert.ok(!unnamed.text.includes('Only when asked.'));
    const named = JSON.parse((await cli('context', '--message', 'deploy', '--topic', 'manual', '--json')).stdout);
    assert.deepEqual(
      named.topics.active.map((a: { name: string; tier: string }) => [a.name, a.tier]),
      [
        ['deploy', 1],
        ['manual', 'named'],
      ],
    );
  });
});

describe('lore hook with topics', () => {
  it('UserPromptSubmit: the fired topics in additionalContext without asking a gate; Stop: output watchers correct the next turn', async () => {
    const { ws, root, env } = await setup();
    const home = makeTempDir('lore-home-');
    const transcript = path.join(home, '.claude', 'projects', 'p', 'session-1.jsonl');
    fs.mkdirSync(path.dirname(transcript), { recursive: true });
    const hookEnv = { ...env, HOME: home, CLAUDE_CONFIG_DIR: '', XDG_CONFIG_HOME: '', XDG_DATA_HOME: '' };
    const hook = async (input: Record<string, unknown>) => {
      const result = await runCli(['hook', '--root', root], {
        cwd: ws,
        env: hookEnv,
        input: JSON.stringify({ session_id: 'session-1', transcript_path: transcript, cwd: ws, ...input }),
      });
      assert.equal(result.code, 0);
      return result.stdout ? (JSON.parse(result.stdout).hookSpecificOutput.additionalContext as string) : '';
    };
    const context = await hook({ hook_event_name: 'UserPromptSubmit', prompt: 'deploy the schema migration' });
    assert.match(context, /\{topics\}\n## topic: deploy\n/);
    assert.match(context, /The release train leaves at 10:00\./);
    assert.ok(!context.includes('topic: migrations'), 'gated: no gate in a hook');
    assert.ok(context.length <= 10_000);
    const log = fs
      .readFileSync(path.join(root, '.logs', 'gates.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.deepEqual(
      log.map((e) => [e.topic, e.gate, e.via]),
      [
        ['deploy', 'bypass', 'hook'],
        ['migrations', 'no-model', 'hook'],
      ],
    );

    // The agent replies with Python 2; the Stop hook's watcher leaves the py3 topic for the next prompt.
    const lines = [
      { type: 'user', message: { role: 'user', content: 'print the totals' } },
      { type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'Add this line:\n\n    print total\n' }] } },
    ];
    fs.writeFileSync(transcript, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    assert.equal(await hook({ hook_event_name: 'Stop', stop_hook_active: false }), '');
    const next = await hook({ hook_event_name: 'UserPromptSubmit', prompt: 'thanks, and now the averages' });
    assert.match(next, /## topic: py3\n\nUse Python 3: print\(\) is a function\./);
    // Injected once: the turn after does not repeat it.
    assert.ok(!(await hook({ hook_event_name: 'UserPromptSubmit', prompt: 'and the medians' })).includes('topic: py3'));
    // Another session is not affected.
    const other = await runCli(['hook', '--root', root], {
      cwd: ws,
      env: hookEnv,
      input: JSON.stringify({ session_id: 'session-2', cwd: ws, hook_event_name: 'UserPromptSubmit', prompt: 'thanks' }),
    });
    assert.ok(!other.stdout.includes('topic: py3'));
  });

  it("lore context --session shows the topics the output watchers left for that session's next turn, and leaves them to it", async () => {
    const { ws, root, env, cli } = await setup();
    const home = makeTempDir('lore-home-');
    const transcript = path.join(home, '.claude', 'projects', 'p', 'session-1.jsonl');
    fs.mkdirSync(path.dirname(transcript), { recursive: true });
    const hookEnv = { ...env, HOME: home, CLAUDE_CONFIG_DIR: '', XDG_CONFIG_HOME: '', XDG_DATA_HOME: '' };
    const hook = (input: Record<string, unknown>) =>
      runCli(['hook', '--root', root], {
        cwd: ws,
        env: hookEnv,
        input: JSON.stringify({ session_id: 'session-1', transcript_path: transcript, cwd: ws, ...input }),
      });
    const lines = [
      { type: 'user', message: { role: 'user', content: 'print the totals' } },
      { type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'Add this line:\n\n    print total\n' }] } },
    ];
    fs.writeFileSync(transcript, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    assert.equal((await hook({ hook_event_name: 'Stop', stop_hook_active: false })).code, 0);
    const context = async (...args: string[]) => {
      const result = await cli('context', '--message', 'thanks, and now the averages', '--json', ...args);
      assert.equal(result.code, 0, result.stderr);
      return JSON.parse(result.stdout);
    };
    const seen = await context('--session', 'session-1');
    assert.deepEqual(
      seen.topics.active.map((a: { name: string; tier: string }) => [a.name, a.tier]),
      [['py3', 'output']],
    );
    assert.match(seen.text, /## topic: py3\n\nUse Python 3: print\(\) is a function\./);
    assert.match(seen.topics.active[0].reason, /output watcher on the previous reply/);
    // Looking takes nothing: the same again, and another session or none has no such topic.
    assert.deepEqual(
      (await context('--session', 'session-1')).topics.active.map((a: { name: string }) => a.name),
      ['py3'],
    );
    assert.deepEqual((await context('--session', 'session-2')).topics.active, []);
    assert.deepEqual((await context()).topics.active, []);
    // The session's next turn still gets it (once), and after that lore context shows it gone.
    const next = await hook({ hook_event_name: 'UserPromptSubmit', prompt: 'thanks, and now the averages' });
    assert.match(JSON.parse(next.stdout).hookSpecificOutput.additionalContext, /## topic: py3\n/);
    assert.deepEqual((await context('--session', 'session-1')).topics.active, []);
    const empty = await cli('context', '--session', ' ');
    assert.equal(empty.code, 2);
    assert.match(empty.stderr, /--session expects a session id/);
  });

  it("PostToolUse: the files a tool call names reach the next prompt's glob triggers, for that session only, without SQLite or zod", async () => {
    const { ws, root, env } = await setup({
      'migrations-dir.md':
        '---\ntriggers:\n  - glob: "db/migrations/**"\npriority: high\n---\nNever edit an applied migration; add a new one.\n',
    });
    const hook = (input: Record<string, unknown>, options: { spawn?: boolean; env?: NodeJS.ProcessEnv } = {}) =>
      runCli(['hook', '--root', root], {
        cwd: ws,
        env: { ...env, ...options.env },
        spawn: options.spawn,
        input: JSON.stringify({ session_id: 'session-1', cwd: ws, ...input }),
      });
    const contextOf = async (input: Record<string, unknown>) => {
      const result = await hook(input);
      return result.stdout ? (JSON.parse(result.stdout).hookSpecificOutput.additionalContext as string) : '';
    };
    assert.ok(
      !(await contextOf({ hook_event_name: 'UserPromptSubmit', prompt: 'rename the totals variable' })).includes('topic: migrations-dir'),
    );
    const recorder = moduleRecorder();
    const tool = await hook(
      {
        hook_event_name: 'PostToolUse',
        tool_name: 'Edit',
        tool_input: { file_path: path.join(ws, 'db', 'migrations', '002_totals.sql'), old_string: 'a', new_string: 'b' },
        tool_response: { success: true },
        tool_use_id: 't1',
      },
      { spawn: true, env: { NODE_OPTIONS: recorder.nodeOptions } },
    );
    assert.deepEqual([tool.code, tool.stdout, tool.stderr], [0, '', '']);
    // On every tool call: the launcher and the hook's own bundle, nothing else (no native module, no zod, no package).
    const loaded = recorder.read();
    assert.deepEqual(
      loaded.requests.filter((r) => !require('node:module').isBuiltin(r) && !/^[./]/.test(r)),
      [],
    );
    assert.deepEqual(loaded.files, [CLI, HOOK_BUNDLE]);
    const next = await contextOf({ hook_event_name: 'UserPromptSubmit', prompt: 'rename the totals variable' });
    assert.match(next, /## topic: migrations-dir\n\nNever edit an applied migration/);
    const log = fs
      .readFileSync(path.join(root, '.logs', 'gates.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.deepEqual(
      log.filter((e) => e.topic === 'migrations-dir').map((e) => [e.tier1, e.active]),
      [['glob', true]],
    );
    // Another session's prompt does not see this session's tool files.
    const other = await runCli(['hook', '--root', root], {
      cwd: ws,
      env,
      input: JSON.stringify({
        session_id: 'session-2',
        cwd: ws,
        hook_event_name: 'UserPromptSubmit',
        prompt: 'rename the totals variable',
      }),
    });
    assert.ok(!other.stdout.includes('topic: migrations-dir'));
    // A tool call on a file outside the workspace is not recorded.
    await hook({
      hook_event_name: 'PostToolUse',
      session_id: 'session-3',
      tool_name: 'Read',
      tool_input: { file_path: '/etc/db/migrations/x.sql' },
    });
    const third = await runCli(['hook', '--root', root], {
      cwd: ws,
      env,
      input: JSON.stringify({
        session_id: 'session-3',
        cwd: ws,
        hook_event_name: 'UserPromptSubmit',
        prompt: 'rename the totals variable',
      }),
    });
    assert.ok(!third.stdout.includes('topic: migrations-dir'));
  });
});

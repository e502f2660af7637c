import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { clockTime } from '../../src/core/services/promptCache/prefixCost';
import { syncInstructionFiles } from '../../src/core/store/instructionSync';
import { makeWorkspace, runCli, snapshotTree, transcript } from '../helpers/cli';
import { CORPUS, FIXTURES, makeTempDir } from '../helpers/paths';

const CACHE = path.join(FIXTURES, 'cache');

function put(file: string, content: string | Buffer): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  return file;
}

/** The environment of a fake home: only it is looked at. */
const envFor = (home: string) => ({ HOME: home, XDG_CONFIG_HOME: '', XDG_DATA_HOME: '', CODEX_HOME: '', CLAUDE_CONFIG_DIR: '' });

/** A home holding this workspace's sessions of Claude Code, Codex and Copilot Chat, and another workspace's. */
function fixtureHome(ws: string) {
  const home = makeTempDir('lore-cache-home-');
  const project = path.join(home, '.claude', 'projects', ws.replace(/[^A-Za-z0-9]/g, '-'));
  const claude5m = put(
    path.join(project, '5e0c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b.jsonl'),
    fs.readFileSync(path.join(CACHE, 'claude-5m.jsonl')),
  );
  const claude1h = put(
    path.join(project, '6f1d2b3c-4d5e-4f6a-9b0c-1d2e3f4a5b6c.jsonl'),
    fs.readFileSync(path.join(CACHE, 'claude-1h.jsonl')),
  );
  const corpus = put(
    path.join(project, '7a2e3c4d-5e6f-4a7b-8c9d-2e3f4a5b6c7d.jsonl'),
    fs.readFileSync(path.join(CORPUS, 'claude-code-jsonl', 'cctrace-phase0-investigation.jsonl')),
  );
  put(
    path.join(home, '.claude', 'projects', '-home-dev-elsewhere', '8b3f4d5e-6f7a-4b8c-9d0e-3f4a5b6c7d8e.jsonl'),
    fs.readFileSync(path.join(CACHE, 'claude-5m.jsonl')),
  );
  const rollout = fs.readFileSync(path.join(CACHE, 'codex-rollout.jsonl'), 'utf8').replaceAll('/home/dev/shop', ws);
  const codex = put(path.join(home, '.codex', 'sessions', '2026', '03', '10', 'rollout-2026-03-10T10-00-00-a.jsonl'), rollout);
  const storage = path.join(home, '.config', 'Code', 'User', 'workspaceStorage', 'aaa111');
  put(path.join(storage, 'workspace.json'), JSON.stringify({ folder: 'file://' + ws }));
  const copilot = put(path.join(storage, 'chatSessions', '3f5e.json'), fs.readFileSync(path.join(CACHE, 'copilot-chat.json')));
  return { home, claude5m, claude1h, corpus, codex, copilot };
}

describe('lore cache', function () {
  this.timeout(30_000);

  it('--json --now: each recent session of the workspace with its tool, model, last activity, state, hit ratio, tokens and money; reads only', async () => {
    const { ws, root } = await makeWorkspace();
    const f = fixtureHome(ws);
    const before = snapshotTree(f.home);
    const result = await runCli(['cache', '--root', root, '--json', '--now', '2026-03-10T10:04:00Z'], { env: envFor(f.home) });
    assert.equal(result.code, 0, result.stderr);
    const report = JSON.parse(result.stdout);
    assert.equal(report.now, Date.parse('2026-03-10T10:04:00Z'));
    const byPath = new Map(report.sessions.map((s: { path: string }) => [s.path, s]));
    // The session of another workspace is not listed.
    assert.deepEqual([...byPath.keys()].sort(), [f.claude5m, f.claude1h, f.corpus, f.codex, f.copilot].sort());
    assert.equal((byPath.get(f.corpus) as any).status, 'expired');
    const s5 = byPath.get(f.claude5m) as any;
    assert.deepEqual(
      [s5.tool, s5.model, s5.status, s5.ttl, s5.ttlLabel, s5.remainingMs],
      ['claude-code', 'claude-sonnet-4-5-20250929', 'warm', '5m', '2:00', 120_000],
    );
    assert.deepEqual([s5.usage.cacheReadTokens, s5.usage.uncachedInputTokens, s5.usage.cacheWriteTokens], [5000, 19, 8200]);
    assert.ok(s5.money.saved > 0 && s5.money.writePremium > 0);
    const s1 = byPath.get(f.claude1h) as any;
    assert.deepEqual([s1.status, s1.ttl, s1.ttlLabel], ['warm', '1h', '56:00']);
    const codex = byPath.get(f.codex) as any;
    assert.deepEqual(
      [codex.status, codex.ttlLabel, codex.model, codex.expiresAt],
      ['provider-managed', 'provider-managed', 'gpt-5.1-codex', undefined],
    );
    const copilot = byPath.get(f.copilot) as any;
    assert.deepEqual([copilot.status, copilot.hitRatio, copilot.usage, copilot.money], ['unknown', undefined, undefined, undefined]);
    // Most recently active first; summaries per tool.
    assert.deepEqual(
      report.sessions.map((s: { path: string }) => s.path),
      [f.claude5m, f.codex, f.copilot, f.claude1h, f.corpus],
    );
    assert.deepEqual(
      report.tools.map((t: { tool: string; sessions: number; active: number }) => [t.tool, t.sessions, t.active]),
      [
        ['claude-code', 3, 2],
        ['codex', 1, 1],
        ['copilot-chat', 1, 0],
      ],
    );
    assert.deepEqual(snapshotTree(f.home), before);
  });

  it('the same --now prints the same text; a later moment shows the caches expired', async () => {
    const { ws, root } = await makeWorkspace();
    const f = fixtureHome(ws);
    const run = (now: string) => runCli(['cache', '--root', root, '--now', now], { env: envFor(f.home) });
    const first = await run('2026-03-10T10:04:00Z');
    assert.equal(first.code, 0, first.stderr);
    assert.equal((await run('2026-03-10T10:04:00Z')).stdout, first.stdout);
    assert.match(
      first.stdout,
      /Claude Code · claude-sonnet-4-5-20250929 · last activity 2026-03-10 10:02:30Z · warm, 2:00 left \(5m TTL\)/,
    );
    assert.match(first.stdout, /Codex CLI · gpt-5\.1-codex · .* · cached, TTL provider-managed/);
    assert.match(first.stdout, /GitHub Copilot Chat · claude-sonnet-4 · .* · unknown \(Copilot Chat records no cached tokens\)/);
    assert.match(
      first.stdout,
      /hit ratio 38% · cached 5\.0K · uncached 19 · written 8\.2K · 3 calls\n {2}saved \$0\.01\d \(write premium \$0\.006, net \$0\.007\)/,
    );
    assert.match(first.stdout, /claude-opus-4-5-20251101 · .* · warm, 56:00 left \(1h TTL\)\n {2}hit ratio 0% \(never hit\)/);
    const later = await run('2026-03-10T12:30:00Z');
    assert.match(later.stdout, /claude-sonnet-4-5-20250929 · last activity 2026-03-10 10:02:30Z · expired at 2026-03-10 10:06:00Z/);
    assert.match(later.stdout, /claude-opus-4-5-20251101 · last activity 2026-03-10 10:10:00Z · expired at 2026-03-10 11:10:00Z/);
    assert.match(later.stdout, /gpt-5\.1-codex · last activity 2026-03-10 10:01:20Z · expired/);
    assert.match(later.stdout, /claude-opus-4-5-20251101 · last activity 2026-01-06 09:23:19Z · expired/);
    // Before the fixture sessions began, only the January corpus session existed.
    const january = await run('2026-01-06T09:25:00Z');
    assert.match(january.stdout, /Claude Code \(Anthropic\): 1 session, 1 active/);
    assert.doesNotMatch(january.stdout, /gpt-5\.1-codex|claude-sonnet-4-5/);
  });

  it('rejects a --now that is not a time', async () => {
    const { root } = await makeWorkspace();
    const result = await runCli(['cache', '--root', root, '--now', 'soon']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /--now must be a date and time/);
  });

  it('says when no session of the workspace is found', async () => {
    const { root } = await makeWorkspace();
    const result = await runCli(['cache', '--root', root], { env: envFor(makeTempDir('lore-empty-home-')) });
    assert.equal(result.code, 0);
    assert.match(result.stdout, /no Claude Code, Codex or Copilot Chat session of this workspace found/);
  });
});

describe('lore harvest: the cache cost of the plan', function () {
  this.timeout(30_000);

  /** A Claude Code session of the workspace whose last call, 30 s ago, read 6,000 tokens and wrote 400. */
  function warmHome(ws: string): { home: string; expiresAt: number } {
    const home = makeTempDir('lore-warm-home-');
    const at = Date.now() - 30_000;
    const record = {
      type: 'assistant',
      isSidechain: false,
      timestamp: new Date(at).toISOString(),
      requestId: 'req_1',
      message: {
        id: 'msg_1',
        model: 'claude-sonnet-4-5-20250929',
        usage: {
          input_tokens: 3,
          cache_creation_input_tokens: 400,
          cache_read_input_tokens: 6000,
          cache_creation: { ephemeral_5m_input_tokens: 400, ephemeral_1h_input_tokens: 0 },
          output_tokens: 20,
        },
      },
    };
    put(
      path.join(home, '.claude', 'projects', ws.replace(/[^A-Za-z0-9]/g, '-'), 'a1b2c3d4-1111-4222-8333-944455556666.jsonl'),
      JSON.stringify(record) + '\n',
    );
    return { home, expiresAt: at + 5 * 60_000 };
  }

  it('the preview names the prefix files the plan changes and what applying now makes warm sessions re-cache', async () => {
    const { ws, root, inbox } = await makeWorkspace();
    fs.writeFileSync(path.join(ws, 'CLAUDE.md'), '# Claude\n');
    await runCli(['digest', '--root', root]);
    fs.writeFileSync(
      path.join(inbox, 'c1.md'),
      transcript('c1', 'Decision: keep the cache warm — re-caching costs.\nNote for src/app.ts: exports the app constant.'),
    );
    const { home, expiresAt } = warmHome(ws);
    syncInstructionFiles(ws, ['CLAUDE.md'], '# Knowledge digest\n');
    const preview = await runCli(['harvest', '--root', root, '--preview'], { env: envFor(home) });
    assert.equal(preview.code, 0, preview.stderr);
    assert.match(
      preview.stdout,
      /\ncache: this plan changes what agents keep in their cached prompt prefix \(digest\.md, the Lore block of CLAUDE\.md and 1 file note\); applying now makes 1 warm session re-cache about 6\.4K tokens on the next turn; none is warm after (\d\d:\d\d)\n/,
    );
    assert.equal(/none is warm after (\d\d:\d\d)/.exec(preview.stdout)![1], clockTime(expiresAt));
    const json = JSON.parse((await runCli(['harvest', '--root', root, '--preview', '--json'], { env: envFor(home) })).stdout);
    assert.equal(json.cache.tokens, 6400);
    assert.equal(json.cache.warmUntil, expiresAt);
    const dry = await runCli(['harvest', '--root', root], { env: envFor(home) });
    assert.match(dry.stdout, /\ncache: 1 agent session is warm now \(about 6\.4K tokens cached; none after \d\d:\d\d\)/);
    // No warm session: the sentence says applying costs nothing.
    const cold = await runCli(['harvest', '--root', root, '--preview'], { env: envFor(makeTempDir('lore-cold-home-')) });
    assert.match(cold.stdout, /no agent session of this workspace is warm now, so applying now costs no re-cache/);
  });
});

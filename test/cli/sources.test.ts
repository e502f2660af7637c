import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeWorkspace, runCli, snapshotTree } from '../helpers/cli';
import { CORPUS, FIXTURES, makeTempDir } from '../helpers/paths';

const CONVERSATIONS = path.join(FIXTURES, 'conversations');

function put(file: string, content: string | Buffer): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  return file;
}

/** A home with real-format sessions of this workspace and of another one. */
function fixtureHome(ws: string) {
  const home = makeTempDir('lore-home-');
  const claudeSession = fs.readFileSync(path.join(CONVERSATIONS, 'claude-session.jsonl'));
  const claude = put(
    path.join(home, '.claude', 'projects', ws.replace(/[^A-Za-z0-9]/g, '-'), 'a7c1e2f0-1111-4222-8333-944455556666.jsonl'),
    claudeSession,
  );
  put(path.join(home, '.claude', 'projects', '-home-dev-elsewhere', 'b7c1e2f0-1111-4222-8333-944455556666.jsonl'), claudeSession);
  // A real Codex rollout, its session_meta cwd pointed at the workspace (and a copy at another).
  const rollout = fs.readFileSync(path.join(CORPUS, 'codex-jsonl', 'privacy-x402-codex-session.jsonl'), 'utf8');
  const codex = put(
    path.join(home, '.codex', 'sessions', '2026', '02', '14', 'rollout-a.jsonl'),
    rollout.replaceAll('/Users/yukikimura/work/bnpl-yield-discount', ws),
  );
  put(path.join(home, '.codex', 'sessions', '2026', '02', '14', 'rollout-b.jsonl'), rollout);
  const continueSession = fs.readFileSync(path.join(CONVERSATIONS, 'continue', 'b7e4c2d0-1a2b-4c3d-9e8f-0a1b2c3d4e5f.json'), 'utf8');
  const cont = put(
    path.join(home, '.continue', 'sessions', 'b7e4c2d0.json'),
    continueSession.replace('file:///home/dev/cal', 'file://' + ws),
  );
  // OpenCode keeps a session's messages apart from its session file, which stands for the whole
  // session; one session of the fixture storage is this workspace's, its subagent's is not listed.
  const storage = path.join(home, '.local', 'share', 'opencode', 'storage');
  fs.cpSync(path.join(FIXTURES, 'opencode', 'storage'), storage, { recursive: true });
  const sessions = path.join(storage, 'session', '4f9c2a7e1b3d5c6a8e0f2b4d6c8a0e1f3b5d7c9a');
  fs.rmSync(path.join(sessions, 'ses_5d2b11aa2ffeHelloWorld0002.json'));
  const opencode = path.join(sessions, 'ses_5d2a8f1c3ffeQhX2kLm9NpRsTa.json');
  fs.writeFileSync(opencode, fs.readFileSync(opencode, 'utf8').replace('/home/dev/shop', ws));
  return { home, claude, codex, cont, opencode };
}

describe('lore sources', function () {
  this.timeout(60_000);

  it("lists each tool's sessions of this workspace with raw and rendered sizes, tokens and what is harvested; reads only", async () => {
    const { ws, root } = await makeWorkspace();
    const { home, claude, codex, cont, opencode } = fixtureHome(ws);
    // The ledger already holds the Continue session.
    const sha = createHash('sha256').update(fs.readFileSync(cont)).digest('hex');
    fs.writeFileSync(
      path.join(root, 'ledger.json'),
      JSON.stringify({ entries: { [sha]: { path: cont, status: 'harvested', at: '2026-11-20T10:00:00.000Z', deleted: false } } }),
    );
    // What it measured is remembered in the store's per-machine cache (.cache/), nothing else.
    const before = { home: snapshotTree(home), store: snapshotTree(root, ['.cache']) };

    const result = await runCli(['sources', '--root', root, '--json'], {
      env: { HOME: home, XDG_CONFIG_HOME: '', XDG_DATA_HOME: '', CODEX_HOME: '', CLAUDE_CONFIG_DIR: '' },
    });
    assert.equal(result.code, 0, result.stderr);
    const report = JSON.parse(result.stdout);
    assert.equal(report.workspace, ws);
    const tools = Object.fromEntries(report.tools.map((t: { tool: string }) => [t.tool, t]));
    assert.deepEqual(
      report.tools.map((t: { tool: string }) => t.tool),
      [
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
      ],
    );

    for (const [tool, file] of [
      ['claude-code', claude],
      ['codex', codex],
    ]) {
      const t = tools[tool];
      assert.deepEqual(
        t.items.map((i: { path: string }) => i.path),
        [file],
        tool,
      );
      assert.equal(t.sessions, 1);
      assert.equal(t.otherWorkspaces, 1, `${tool}: the other workspace's session is counted, not listed`);
      assert.equal(t.rawBytes, fs.statSync(file).size);
      assert.equal(t.toHarvest, 1);
      assert.equal(t.items[0].status, 'harvest');
      assert.equal(t.items[0].format, tool);
      assert.ok(
        t.renderedBytes > 0 && t.renderedBytes < t.rawBytes,
        `${tool}: the transcript is smaller than the log (${t.renderedBytes} of ${t.rawBytes})`,
      );
      assert.equal(t.estimatedTokens, Math.ceil(t.renderedBytes / 4));
      assert.equal(t.noImporter, false);
    }
    assert.deepEqual(
      [tools.continue.sessions, tools.continue.harvested, tools.continue.toHarvest, tools.continue.renderedBytes],
      [1, 1, 0, 0],
    );
    assert.equal(tools.continue.items[0].status, 'harvested');
    // Each session is named by its title: the first prompt, or for one the ledger proved (not read again) a cheap read of it.
    assert.equal(tools['claude-code'].items[0].title, 'Fix the flaky login test');
    assert.equal(tools.codex.items[0].title, 'init');
    assert.ok(tools.continue.items[0].title, 'a harvested session is named too');
    assert.deepEqual(
      [
        tools.opencode.sessions,
        tools.opencode.noImporter,
        tools.opencode.toHarvest,
        tools.opencode.unrecognized,
        tools.opencode.items[0].path,
      ],
      [1, false, 1, 0, opencode],
    );
    assert.deepEqual([tools.opencode.items[0].format, tools.opencode.items[0].turns], ['opencode', 7]);
    assert.deepEqual([tools['gemini-cli'].sessions, tools['gemini-cli'].locations], [0, []]);
    assert.deepEqual(report.totals, {
      sessions: 4,
      rawBytes: tools['claude-code'].rawBytes + tools.codex.rawBytes + tools.continue.rawBytes + tools.opencode.rawBytes,
      harvested: 1,
      toHarvest: 3,
      renderedBytes: tools['claude-code'].renderedBytes + tools.codex.renderedBytes + tools.opencode.renderedBytes,
      estimatedTokens: tools['claude-code'].estimatedTokens + tools.codex.estimatedTokens + tools.opencode.estimatedTokens,
    });
    assert.deepEqual({ home: snapshotTree(home), store: snapshotTree(root, ['.cache']) }, before, 'nothing written');
  });

  it('prints a summary per tool, and other workspaces only with --all-workspaces', async () => {
    const { ws, root } = await makeWorkspace();
    const { home } = fixtureHome(ws);
    const env = { HOME: home, XDG_CONFIG_HOME: '', XDG_DATA_HOME: '', CODEX_HOME: '', CLAUDE_CONFIG_DIR: '' };
    const text = await runCli(['sources', '--root', root], { env });
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^Claude Code +1 session, [\d.]+ KB raw, 1 to harvest: [\d.]+ K?B rendered, ~[\d.]+K? tokens$/m);
    assert.match(text.stdout, /^OpenCode +1 session, [\d.]+ K?B raw, 1 to harvest: [\d.]+ K?B rendered, ~[\d.]+K? tokens$/m);
    assert.match(text.stdout, /^2 sessions of other workspaces not listed \(--all-workspaces lists them\)$/m);
    assert.doesNotMatch(text.stdout, /elsewhere/);
    // Sessions by title and date, each with the path lore harvest --from takes on the next line.
    assert.match(
      text.stdout,
      /^ {2}Fix the flaky login test \(\d+ Mar 2025, [\d.]+ KB, new\)\n {6}\/.*a7c1e2f0-1111-4222-8333-944455556666\.jsonl$/m,
    );

    const all = await runCli(['sources', '--root', root, '--all-workspaces', '--json'], { env });
    const report = JSON.parse(all.stdout);
    const claude = report.tools.find((t: { tool: string }) => t.tool === 'claude-code');
    assert.deepEqual(
      claude.items.map((i: { workspace: string; matches: boolean }) => [i.workspace, i.matches]),
      [
        ['-home-dev-elsewhere', false],
        [ws.replace(/[^A-Za-z0-9]/g, '-'), true],
      ],
    );
    assert.equal(claude.items[0].status, undefined, "another workspace's session is not read");
  });
});

/**
 * What `lore harvest` reads without --from (the inbox and this workspace's agent sessions, as
 * VS Code's Harvest does), what it takes from a folder of several projects' sessions, how it says
 * so, what an apply says it wrote, and what it says when the provider cannot be reached.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeWorkspace, runCli, transcript } from '../helpers/cli';
import { FIXTURES, makeTempDir } from '../helpers/paths';
import { closedPortBaseUrl } from '../helpers/stubServers';

const CLAUDE_SESSION = path.join(FIXTURES, 'conversations', 'claude-session.jsonl');
const AN_HOUR_AGO = new Date(Date.now() - 3600_000);

/** A home whose Claude Code folder holds one session of the workspace and one of another project, both finished. */
function homeWithSessions(ws: string) {
  const home = makeTempDir('lore-home-');
  const projects = path.join(home, '.claude', 'projects');
  // Different bytes (a trailing newline), so that the ledger keeps one entry for each.
  const put = (project: string, name: string, tail = '') => {
    const file = path.join(projects, project, name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, fs.readFileSync(CLAUDE_SESSION, 'utf8') + tail);
    fs.utimesSync(file, AN_HOUR_AGO, AN_HOUR_AGO);
    return file;
  };
  const mine = put(ws.replace(/[^A-Za-z0-9]/g, '-'), 'a7c1e2f0-1111-4222-8333-944455556666.jsonl');
  const theirs = put('-home-dev-elsewhere', 'b7c1e2f0-1111-4222-8333-944455556666.jsonl', '\n');
  const env = { HOME: home, CLAUDE_CONFIG_DIR: '', CODEX_HOME: '', XDG_CONFIG_HOME: '', XDG_DATA_HOME: '' };
  return { home, projects, mine, theirs, env };
}

const ledgerPaths = (root: string): string[] =>
  Object.values(JSON.parse(fs.readFileSync(path.join(root, 'ledger.json'), 'utf8')).entries as Record<string, { path: string }>)
    .map((e) => e.path)
    .sort();

describe('lore harvest: what it reads and what it says', function () {
  this.timeout(60_000);

  it("without --from reads the inbox and this workspace's sessions, never another project's", async () => {
    const { ws, root, inbox } = await makeWorkspace();
    const { mine, env } = homeWithSessions(ws);
    fs.writeFileSync(path.join(inbox, 'c1.md'), transcript('c1', 'Fact: the inbox is read too.'));

    const dry = await runCli(['harvest', '--root', root], { env, cwd: ws });
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, /^sources: this workspace's sessions: 1 Claude Code; the inbox: 1 file$/m);
    assert.match(dry.stdout, /^conversations: harvest:2$/m);

    const applied = await runCli(['harvest', '--root', root, '--apply'], { env, cwd: ws });
    assert.equal(applied.code, 0, applied.stderr);
    assert.deepEqual(ledgerPaths(root), [mine, 'inbox/c1.md']);
    assert.ok(fs.existsSync(mine), "an agent's session is read, never deleted");
  });

  it('config.json "sources" turns a tool off', async () => {
    const { ws, root } = await makeWorkspace();
    const { env } = homeWithSessions(ws);
    fs.writeFileSync(path.join(root, 'config.json'), JSON.stringify({ sources: { claudeCode: false } }));
    const dry = await runCli(['harvest', '--root', root, '--json'], { env });
    assert.equal(dry.code, 0, dry.stderr);
    assert.deepEqual(JSON.parse(dry.stdout).sources, [path.join(root, 'inbox')]);
  });

  it("from a folder of several projects' sessions takes this workspace's, says how many others it left out, and all with --all-projects", async () => {
    const { ws, root } = await makeWorkspace();
    const { projects, mine, theirs, env } = homeWithSessions(ws);

    const dry = await runCli(['harvest', '--root', root, '--from', projects], { env });
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(
      dry.stdout,
      new RegExp(`^sources: ${projects}\\nleft out: 1 session of other projects in those folders \\(--all-projects`, 'm'),
    );
    assert.match(dry.stdout, /^conversations: harvest:1$/m);
    const json = JSON.parse((await runCli(['harvest', '--root', root, '--from', projects, '--json'], { env })).stdout);
    assert.deepEqual(json.sources, [mine]);
    assert.equal(json.leftOutOtherProjects, 1);

    const all = await runCli(['harvest', '--root', root, '--from', projects, '--all-projects', '--apply'], { env });
    assert.equal(all.code, 0, all.stderr);
    assert.deepEqual(ledgerPaths(root), [mine, theirs].sort());

    const alone = await runCli(['harvest', '--root', root, '--all-projects'], { env });
    assert.equal(alone.code, 2);
    assert.match(alone.stderr, /--all-projects goes with --from/);
  });

  it('lore sources names the real next command, a dry run', async () => {
    const { ws, root } = await makeWorkspace();
    const { env } = homeWithSessions(ws);
    const result = await runCli(['sources', '--root', root], { env });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^next: lore harvest --dry-run \(reads this workspace's Claude Code, Codex CLI and Aider sessions/m);
    assert.doesNotMatch(result.stdout, /--from/);
  });

  it('an apply ends with what it wrote and where, and that the digest agents get was updated', async () => {
    const { ws, root, inbox } = await makeWorkspace();
    fs.writeFileSync(path.join(inbox, 'c1.md'), transcript('c1', 'Fact: cargo warns about unused imports.\nDone: ship the build.'));
    const result = await runCli(['harvest', '--root', root, '--apply'], { cwd: ws });
    assert.equal(result.code, 0, result.stderr);
    const lines = result.stdout.trimEnd().split('\n');
    assert.equal(
      lines[lines.length - 1],
      'Wrote 2 items: 1 fact to .lore/facts.md, 1 done task to .lore/tasks.md; the digest your agents get was updated (.lore/digest.md).',
    );
    assert.match(fs.readFileSync(path.join(root, 'digest.md'), 'utf8'), /## Facts\n- cargo warns about unused imports\./);

    // Only a done task: written, and the digest (open tasks, no done ones) says why it did not change.
    fs.writeFileSync(path.join(inbox, 'c2.md'), transcript('c2', 'Done: tag the release.'));
    const second = await runCli(['harvest', '--root', root, '--apply'], { cwd: ws });
    assert.match(
      second.stdout,
      /^Wrote 1 item: 1 done task to \.lore\/tasks\.md; the digest your agents get did not change \(it lists open tasks, .*not done tasks/m,
    );
  });

  it('a provider that cannot be reached: the reason once for every conversation, that nothing was written, and what to check', async () => {
    const { root, inbox } = await makeWorkspace();
    for (const id of ['c1', 'c2', 'c3']) fs.writeFileSync(path.join(inbox, `${id}.md`), transcript(id, `Fact: ${id} is here.`));
    const baseUrl = await closedPortBaseUrl('openai');
    const result = await runCli(['harvest', '--root', root, '--apply', '--provider', 'openai', '--base-url', baseUrl], {
      env: { OPENAI_API_KEY: 'sk-test' },
    });
    assert.equal(result.code, 1);
    const escaped = baseUrl.replace(/[.:/]/g, '\\$&');
    assert.match(
      result.stdout,
      new RegExp(
        `^3 conversations were not distilled: openai: cannot reach ${escaped} \\(connection refused\\); .*\\. Nothing was written for them; the next harvest tries them again\\.\\nCheck --provider and --base-url`,
        'm',
      ),
    );
    assert.equal(result.stdout.match(/cannot reach/g)?.length, 1, 'the reason is said once');
    assert.match(result.stdout, /No new items; the digest has no items to show, so it was removed\.\n?$/);
    assert.equal(fs.readdirSync(inbox).length, 3, 'the conversations are kept');
  });
});

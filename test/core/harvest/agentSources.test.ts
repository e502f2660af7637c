import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { defaultHarvestSources, workspaceSessionsOf } from '../../../src/core/services/harvest/agentSources';
import { currentHost } from '../../../src/core/services/discovery/host';
import { storePaths } from '../../../src/core/store/storePaths';
import { makeTempDir } from '../../helpers/paths';

/** The default sources without the inbox: the session files of the tools switched on. */
function agentSources(
  workspace: string,
  options: { claudeCode?: boolean; codex?: boolean; aider?: boolean; home: string; env: NodeJS.ProcessEnv },
): string[] {
  const switches = { inbox: false, claudeCode: !!options.claudeCode, codex: !!options.codex, aider: !!options.aider };
  return defaultHarvestSources(storePaths(path.join(workspace, '.lore')), switches, currentHost(options.env, options.home)).sources;
}

describe('agent session sources', () => {
  const env = {};

  it("offers the sessions in Claude Code's folder for the workspace, only when opted in", () => {
    const home = makeTempDir();
    assert.deepEqual(agentSources('/home/dev/my.project', { claudeCode: true, home, env }), []);
    const dir = path.join(home, '.claude', 'projects', '-home-dev-my-project');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 's1.jsonl'), '{}\n');
    assert.deepEqual(agentSources('/home/dev/my.project', { claudeCode: true, home, env }), [path.join(dir, 's1.jsonl')]);
    assert.deepEqual(agentSources('/home/dev/my.project', { claudeCode: false, home, env }), []);
  });

  it('keeps only Codex rollouts whose session cwd is the workspace (both record formats)', () => {
    const home = makeTempDir();
    const day = path.join(home, '.codex', 'sessions', '2026', '11', '20');
    fs.mkdirSync(day, { recursive: true });
    fs.writeFileSync(
      path.join(day, 'rollout-a.jsonl'),
      JSON.stringify({ type: 'session_meta', payload: { id: 'a', cwd: '/work/proj' } }) + '\n{}\n',
    );
    fs.writeFileSync(
      path.join(day, 'rollout-b.jsonl'),
      JSON.stringify({ type: 'session_meta', payload: { id: 'b', cwd: '/work/other' } }) + '\n',
    );
    fs.writeFileSync(path.join(day, 'rollout-c.jsonl'), JSON.stringify({ id: 'c', cwd: '/work/proj/' }) + '\n');
    fs.writeFileSync(path.join(day, 'rollout-d.jsonl'), 'not json\n');
    assert.deepEqual(
      agentSources('/work/proj', { codex: true, home, env }).map((f) => path.basename(f)),
      ['rollout-a.jsonl', 'rollout-c.jsonl'],
    );
  });

  it("honours CODEX_HOME and finds Aider's history in the workspace", () => {
    const home = makeTempDir();
    const codexHome = makeTempDir();
    const workspace = makeTempDir();
    fs.mkdirSync(path.join(codexHome, 'sessions'), { recursive: true });
    fs.writeFileSync(
      path.join(codexHome, 'sessions', 'rollout-x.jsonl'),
      JSON.stringify({ type: 'session_meta', payload: { cwd: workspace } }) + '\n',
    );
    fs.writeFileSync(path.join(workspace, '.aider.chat.history.md'), '# aider chat started at 2026-11-20 10:00:00\n');
    assert.deepEqual(agentSources(workspace, { codex: true, aider: true, home, env: { CODEX_HOME: codexHome } }), [
      path.join(codexHome, 'sessions', 'rollout-x.jsonl'),
      path.join(workspace, '.aider.chat.history.md'),
    ]);
  });

  it('reads the inbox first, and with every tool off nothing else', () => {
    const home = makeTempDir();
    const workspace = makeTempDir();
    fs.writeFileSync(path.join(workspace, '.aider.chat.history.md'), '# aider chat started at 2026-11-20 10:00:00\n');
    const paths = storePaths(path.join(workspace, '.lore'));
    const host = currentHost({}, home);
    const on = defaultHarvestSources(paths, { inbox: true, claudeCode: true, codex: true, aider: true }, host);
    assert.deepEqual(on.sources, [paths.inbox, path.join(workspace, '.aider.chat.history.md')]);
    assert.deepEqual(
      on.tools.map((t) => [t.label, t.files.length]),
      [
        ['Claude Code', 0],
        ['Codex CLI', 0],
        ['Aider', 1],
      ],
    );
    const off = defaultHarvestSources(paths, { inbox: false, claudeCode: false, codex: false, aider: false }, host);
    assert.deepEqual(off.sources, []);
  });

  it("takes only the workspace's sessions from a folder of several projects', and counts the others", () => {
    const home = makeTempDir();
    const projects = path.join(home, '.claude', 'projects');
    const mine = path.join(projects, '-work-proj');
    const theirs = path.join(projects, '-work-other');
    for (const dir of [mine, theirs]) fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(mine, 's1.jsonl'), '{}\n');
    fs.writeFileSync(path.join(theirs, 's2.jsonl'), '{}\n');
    fs.writeFileSync(path.join(theirs, 's3.jsonl'), '{}\n');
    const elsewhere = makeTempDir();
    const host = currentHost({}, home);
    assert.deepEqual(workspaceSessionsOf([projects, elsewhere], host, '/work/proj'), {
      sources: [path.join(mine, 's1.jsonl'), elsewhere],
      leftOut: 2,
    });
    // Inside such a folder, and holding it, alike; a file of another project named on its own too.
    assert.deepEqual(workspaceSessionsOf([theirs], host, '/work/proj'), { sources: [], leftOut: 2 });
    assert.deepEqual(workspaceSessionsOf([path.join(home, '.claude')], host, '/work/proj').leftOut, 2);
    assert.deepEqual(workspaceSessionsOf([path.join(theirs, 's2.jsonl')], host, '/work/proj'), { sources: [], leftOut: 1 });
  });
});

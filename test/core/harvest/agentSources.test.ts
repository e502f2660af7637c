import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { agentSources } from '../../../src/core/services/harvest/agentSources';
import { makeTempDir } from '../../helpers/paths';

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
});

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { agentSources, claudeCodeProjectDir, codexSessionsFor } from '../../../src/core/harvest/agentSources';
import { makeTempDir } from '../../helpers/paths';

describe('agent session sources', () => {
  it('finds Claude Code project folders by the encoded workspace path', () => {
    const home = makeTempDir();
    assert.equal(claudeCodeProjectDir('/home/dev/my.project', home), path.join(home, '.claude', 'projects', '-home-dev-my-project'));
    assert.deepEqual(agentSources('/home/dev/my.project', { claudeCode: true, home }), []);
    fs.mkdirSync(claudeCodeProjectDir('/home/dev/my.project', home), { recursive: true });
    assert.deepEqual(agentSources('/home/dev/my.project', { claudeCode: true, home }), [claudeCodeProjectDir('/home/dev/my.project', home)]);
    assert.deepEqual(agentSources('/home/dev/my.project', { claudeCode: false, home }), []);
  });

  it('keeps only Codex rollouts whose session cwd is the workspace (both record formats)', () => {
    const home = makeTempDir();
    const day = path.join(home, '.codex', 'sessions', '2026', '11', '20');
    fs.mkdirSync(day, { recursive: true });
    fs.writeFileSync(path.join(day, 'rollout-a.jsonl'), JSON.stringify({ type: 'session_meta', payload: { id: 'a', cwd: '/work/proj' } }) + '\n{}\n');
    fs.writeFileSync(path.join(day, 'rollout-b.jsonl'), JSON.stringify({ type: 'session_meta', payload: { id: 'b', cwd: '/work/other' } }) + '\n');
    fs.writeFileSync(path.join(day, 'rollout-c.jsonl'), JSON.stringify({ id: 'c', cwd: '/work/proj/' }) + '\n');
    fs.writeFileSync(path.join(day, 'rollout-d.jsonl'), 'not json\n');
    assert.deepEqual(codexSessionsFor('/work/proj', home).map((f) => path.basename(f)), ['rollout-a.jsonl', 'rollout-c.jsonl']);
  });
});

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeWorkspace, runCli } from '../helpers/cli';
import { FIXTURES, makeTempDir } from '../helpers/paths';

const PROJECT = path.join(FIXTURES, 'conversations', 'claude-project');
const SESSIONS = ['5f0c2d4e-7a1b-4c3d-9e8f-0a1b2c3d4e5f', '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d'];

describe('lore harvest --from a Claude Code project folder', function () {
  this.timeout(60_000);

  it('offers one conversation per session: subagent transcripts (old and new layout), their meta files and tool outputs are not conversations', async () => {
    const { root } = await makeWorkspace();
    // Named as Claude Code names it (~/.claude/projects/<cwd with dashes>).
    const project = path.join(makeTempDir('lore-claude-'), '-home-dev-shop');
    fs.cpSync(PROJECT, project, { recursive: true });
    const sideFiles = fs
      .readdirSync(project, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && e.parentPath !== project);
    assert.equal(sideFiles.length, 3, 'the fixture holds a subagent transcript, its meta file and a tool output');
    // Older versions kept subagent transcripts beside the sessions.
    const subagent = path.join(project, SESSIONS[0], 'subagents', 'agent-a1b2c3d4e5f60718.jsonl');
    fs.copyFileSync(subagent, path.join(project, 'agent-a1b2c3d4.jsonl'));
    const result = await runCli(['harvest', '--root', root, '--from', project, '--json']);
    assert.equal(result.code, 0, result.stderr + result.stdout);
    const json = JSON.parse(result.stdout);
    assert.deepEqual(
      json.conversations.map((c: { path: string }) => c.path),
      SESSIONS.map((id) => path.join(project, `${id}.jsonl`)),
    );
    assert.deepEqual(json.problems, []);
  });
});

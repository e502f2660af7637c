import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeWorkspace, runCli } from '../helpers/cli';
import { FIXTURES, makeTempDir } from '../helpers/paths';

const SESSION = path.join(FIXTURES, 'conversations', 'claude-project', '5f0c2d4e-7a1b-4c3d-9e8f-0a1b2c3d4e5f.jsonl');

describe('lore harvest: a session an agent may still be writing', function () {
  this.timeout(60_000);

  it('is left for later, and the dry run says why and when a harvest picks it up', async () => {
    const { root } = await makeWorkspace();
    const project = makeTempDir('lore-live-');
    const session = path.join(project, path.basename(SESSION));
    fs.copyFileSync(SESSION, session);
    const result = await runCli(['harvest', '--root', root, '--from', project]);
    assert.equal(result.code, 0, result.stderr + result.stdout);
    const output = result.stdout + result.stderr;
    assert.match(
      output,
      new RegExp(
        `left for later \\(live\\): ${session.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: changed \\d+ (seconds?|minutes?) ago, so an agent may still be writing it; the first harvest after [45] minutes? more without a change picks it up`,
      ),
    );
    // Untouched for longer than the window, the same session is harvested.
    const old = new Date(Date.now() - 10 * 60_000);
    fs.utimesSync(session, old, old);
    const later = await runCli(['harvest', '--root', root, '--from', project]);
    assert.doesNotMatch(later.stdout + later.stderr, /left for later/);
  });
});

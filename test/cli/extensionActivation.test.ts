/**
 * What activating the built extension (dist/extension.js) loads, in plain Node with the bench's
 * stand-in for `vscode` (bench/activationProbe.ts): its turn of the event loop (the bundle, activate(),
 * their microtasks) loads no node:crypto, no zod or SDK, no topics code and not the language client
 * library, which starts in a later turn. Needs `node esbuild.mjs` and `tsc` (out/bench), as every CLI test does.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeWorkspace } from '../helpers/cli';
import { REPO_ROOT } from '../helpers/paths';

const PROBE = path.join(REPO_ROOT, 'out', 'bench', 'activationProbe.js');

/** The modules activation's turn required, by the name the bundle asked for. */
function requestedByActivation(workspace: string): string[] {
  const out = execFileSync(process.execPath, [PROBE, path.join(REPO_ROOT, 'dist', 'extension.js'), workspace], { encoding: 'utf8' });
  return (JSON.parse(out.trim().split('\n').pop()!) as { requested: string[] }).requested;
}

describe('activating dist/extension.js', function () {
  this.timeout(30_000);

  it('loads neither node:crypto, zod, an SDK, the topics code nor the language client library in its turn', async () => {
    const { ws } = await makeWorkspace();
    const requested = requestedByActivation(ws);
    assert.ok(requested.includes('vscode') && requested.includes('node:fs'), `the probe records: ${requested.join(', ')}`);
    const heavy = requested.filter((r) => /crypto|vendor\/|topicsLibrary|languageClient|better-sqlite3/.test(r));
    assert.deepEqual(heavy, []);
  });

  it('loads the topics code when the store has a topic file, for the Topics view (the check above can fail)', async () => {
    const { ws, root } = await makeWorkspace();
    fs.mkdirSync(path.join(root, 'topics'));
    fs.writeFileSync(path.join(root, 'topics', 'release.md'), '---\ndescription: how we release\n---\nTag, then publish.\n');
    assert.ok(requestedByActivation(ws).includes('./topicsLibrary.js'));
  });
});

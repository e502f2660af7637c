/**
 * A store that arrives with a symbolic link out of it (git keeps links) never gets Lore to read
 * what the link names: a committed `.lore/facts.md` linked to a key file would otherwise be
 * indexed, put in the digest and handed to agents. The file reads as missing, and the person is
 * told once which link was skipped and what to do.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { makeWorkspace, runCli } from '../helpers/cli';
import { connectLoreMcp, logged } from '../helpers/mcpClient';
import { makeTempDir } from '../helpers/paths';

/** A word that appears only in the file outside the store. */
const CANARY = 'zebracanary';

/** A file outside the workspace that looks like a category file holding a secret. */
function secretOutside(): string {
  const file = path.join(makeTempDir('lore-secret-'), 'credentials');
  fs.writeFileSync(file, `# Facts\n\n- the ${CANARY} deploy password is hunter2hunter2 [from: s1, 2026-11-20]\n`);
  return file;
}

/** A workspace whose facts.md and a note file are links out of the store; decisions.md holds a real item. */
async function plantedWorkspace(): Promise<{ ws: string; root: string; secret: string }> {
  const { ws, root } = await makeWorkspace();
  const secret = secretOutside();
  fs.rmSync(path.join(root, 'facts.md'));
  fs.symlinkSync(secret, path.join(root, 'facts.md'));
  fs.mkdirSync(path.join(root, 'files'), { recursive: true });
  fs.symlinkSync(secret, path.join(root, 'files', 'app.ts.md'));
  fs.appendFileSync(path.join(root, 'decisions.md'), `\n- we deploy the ${CANARY} with blue-green switches [from: s2, 2026-11-21]\n`);
  return { ws, root, secret };
}

const skipped =
  /facts\.md is a symbolic link \(to .*credentials, outside the store\); Lore does not read it.*Replace it with a regular file/;

describe('Lore never reads through a symbolic link out of the store', function () {
  this.timeout(60_000);

  it('search, context and digest leave out what a linked facts.md names, and say once which link was skipped', async () => {
    const { ws, root, secret } = await plantedWorkspace();
    const search = await runCli(['search', '--root', root, '--json', CANARY], { cwd: ws });
    assert.equal(search.code, 0, search.stderr);
    assert.doesNotMatch(search.stdout, /hunter2|deploy password/);
    assert.match(search.stdout, /blue-green/, 'the rest of the store is still searched');
    assert.match(search.stderr, skipped);
    assert.equal(search.stderr.match(/facts\.md is a symbolic link/g)?.length, 1, 'told once');

    const context = await runCli(['context', '--root', root, '--files', 'src/app.ts', '--message', `${CANARY} deploy`], { cwd: ws });
    assert.equal(context.code, 0, context.stderr);
    assert.doesNotMatch(context.stdout, /hunter2|deploy password/);

    // A process of its own: the notice is told once per process, and this one already told it.
    const digest = await runCli(['digest', '--root', root], { cwd: ws, spawn: true });
    assert.equal(digest.code, 0, digest.stderr);
    assert.doesNotMatch(fs.readFileSync(path.join(root, 'digest.md'), 'utf8'), /hunter2/);
    assert.match(fs.readFileSync(path.join(root, 'digest.md'), 'utf8'), /blue-green/);
    assert.match(digest.stderr, skipped);

    assert.ok(fs.lstatSync(path.join(root, 'facts.md')).isSymbolicLink(), 'the link is left for the person');
    assert.match(fs.readFileSync(secret, 'utf8'), /hunter2/);
  });

  it("the agent hook's context leaves out a linked facts.md and a linked note, and the hook log names the link", async () => {
    const { ws, root } = await plantedWorkspace();
    const env = { LORE_ROOT: '', LORE_SEARCH_BACKEND: '', LORE_EMBED_PROVIDER: '' };
    const input = { session_id: 's1', cwd: ws, hook_event_name: 'UserPromptSubmit', prompt: `fix the ${CANARY} deploy in src/app.ts` };
    assert.equal((await runCli(['digest', '--root', root], { cwd: ws })).code, 0);
    const hook = await runCli(['hook'], { cwd: ws, env, input: JSON.stringify(input), spawn: true });
    assert.equal(hook.code, 0, hook.stderr);
    assert.match(hook.stdout, /blue-green/, hook.stdout);
    assert.doesNotMatch(hook.stdout, /hunter2|deploy password/);
    // The hook reads the digest, made without facts.md, and the note of the file the prompt names: a link too.
    assert.match(
      fs.readFileSync(path.join(root, '.cache', 'hook.log'), 'utf8'),
      /UserPromptSubmit: \.lore\/files\/app\.ts\.md is a symbolic link \(to .*credentials, outside the store\); Lore does not read it/,
    );
  });

  it('a link that stays inside the store is read as before, and the store folder itself may be a link', async () => {
    const { ws, root } = await makeWorkspace();
    fs.writeFileSync(path.join(root, 'kept.md'), `# Facts\n\n- the ${CANARY} cache is redis [from: s1, 2026-11-20]\n`);
    fs.rmSync(path.join(root, 'facts.md'));
    fs.symlinkSync(path.join(root, 'kept.md'), path.join(root, 'facts.md'));
    const linkedRoot = path.join(makeTempDir('lore-linked-store-'), 'store');
    fs.symlinkSync(root, linkedRoot);
    const search = await runCli(['search', '--root', linkedRoot, '--json', CANARY], { cwd: ws });
    assert.equal(search.code, 0, search.stderr);
    assert.match(search.stdout, /cache is redis/);
    assert.doesNotMatch(search.stderr, /symbolic link/);
  });

  it('the MCP search tool returns nothing of a linked facts.md, and the log names the link', async () => {
    const { root } = await plantedWorkspace();
    const { client, stderr } = await connectLoreMcp(root);
    try {
      const result = (await client.callTool({ name: 'search', arguments: { query: `${CANARY} deploy password` } })) as CallToolResult;
      const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n') + JSON.stringify(result.structuredContent ?? {});
      assert.doesNotMatch(text, /hunter2|deploy password is/);
      assert.match(text, /blue-green/);
      await logged(stderr, skipped);
    } finally {
      await client.close();
    }
  });
});

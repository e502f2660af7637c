import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { makeWorkspace } from '../helpers/cli';
import { CLI, REPO_ROOT } from '../helpers/paths';

const run = promisify(execFile);

/** The MCP Inspector's CLI mode (devDependency @modelcontextprotocol/inspector-cli), run offline from node_modules. */
const INSPECTOR = path.join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'inspector-cli', 'build', 'index.js');

/**
 * Runs the Inspector against a real `node dist/cli.js mcp --root ROOT`. It reads its own
 * package.json through a path it checks against the working folder (1.0.3), so it runs from a
 * folder with a package.json one level up: the repository's test/ folder.
 */
async function inspect(root: string, ...args: string[]): Promise<unknown> {
  const { stdout } = await run(process.execPath, [INSPECTOR, process.execPath, CLI, 'mcp', '--root', root, ...args], {
    cwd: path.join(REPO_ROOT, 'test'),
    env: { ...process.env, LORE_EMBED_PROVIDER: '', LORE_SEARCH_BACKEND: '' },
    timeout: 30_000,
  });
  return JSON.parse(stdout);
}

describe('lore mcp through the MCP Inspector CLI', function () {
  this.timeout(60_000);

  it('lists the tools and calls search', async () => {
    const { root } = await makeWorkspace();
    fs.writeFileSync(path.join(root, 'facts.md'), '# Facts\n\n- the build uses esbuild for bundling [from: c1, 2026-11-20]\n');
    const listed = (await inspect(root, '--method', 'tools/list')) as { tools: Array<{ name: string; outputSchema?: object }> };
    assert.deepEqual(
      listed.tools.map((t) => t.name),
      ['search', 'open_conversation', 'remember', 'change_item', 'tasks'],
    );
    assert.ok(listed.tools.find((t) => t.name === 'search')!.outputSchema, 'the output schema reaches the client');
    const called = (await inspect(root, '--method', 'tools/call', '--tool-name', 'search', '--tool-arg', 'query=esbuild')) as {
      content: Array<{ text: string }>;
      structuredContent: { items: Array<{ id: string; text: string; file: string; line: number }> };
    };
    assert.match(
      called.content[0].text,
      /\n- \[facts [0-9a-z]{8}\] the build uses esbuild for bundling \[from: c1, 2026-11-20\] \(facts\.md:3\)\n/,
    );
    assert.deepEqual(
      called.structuredContent.items.map((i) => [i.text, i.file, i.line]),
      [['the build uses esbuild for bundling', 'facts.md', 3]],
    );
  });
});

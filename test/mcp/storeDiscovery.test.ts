import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { locateStore, namesStore } from '../../src/mcp/storeDiscovery';
import { makeTempDir } from '../helpers/paths';

/** A tree: base/proj/.lore, base/proj/src/deep, base/other/.lore, base/bare. */
function tree(): { base: string; proj: string; deep: string; other: string; bare: string } {
  const base = makeTempDir('lore-discovery-');
  const proj = path.join(base, 'proj');
  const deep = path.join(proj, 'src', 'deep');
  const other = path.join(base, 'other');
  const bare = path.join(base, 'bare');
  for (const dir of [path.join(proj, '.lore'), deep, path.join(other, '.lore'), bare]) fs.mkdirSync(dir, { recursive: true });
  return { base, proj, deep, other, bare };
}

const rootOf = (lookup: ReturnType<typeof locateStore>) => (lookup.found ? lookup.paths.root : `missing: ${lookup.message}`);

describe('MCP store discovery (locateStore)', () => {
  it('--root and $LORE_ROOT: absolute as given, relative found in the working folder or above', () => {
    const { proj, deep, other, bare } = tree();
    assert.equal(rootOf(locateStore({ root: '.lore', cwd: deep })), path.join(proj, '.lore'));
    assert.equal(rootOf(locateStore({ root: path.join(other, '.lore'), cwd: deep })), path.join(other, '.lore'));
    assert.equal(rootOf(locateStore({ envRoot: '.lore', cwd: deep })), path.join(proj, '.lore'));
    // --root wins over $LORE_ROOT, and both over the client's roots and the working folder.
    assert.equal(
      rootOf(locateStore({ root: path.join(other, '.lore'), envRoot: '.lore', cwd: deep }, [pathToFileURL(proj).href])),
      path.join(other, '.lore'),
    );
    const missing = locateStore({ root: '.lore', cwd: bare });
    assert.equal(
      rootOf(missing),
      `missing: no Lore store found at ${path.join(bare, '.lore')} (nor in a parent folder of ${bare}), given by --root; run \`lore init\` in the project folder, or start the server with --root <path to .lore>`,
    );
    assert.match(
      rootOf(locateStore({ root: path.join(bare, 'nope'), cwd: deep })),
      /^missing: no Lore store found at .*bare\/nope, given by --root;/,
    );
    assert.ok(!fs.existsSync(path.join(bare, '.lore')) && !fs.existsSync(path.join(bare, 'nope')), 'nothing is created');
  });

  it("the client's roots in order, then the working folder upwards; the workspace is the store's parent unless given", () => {
    const { proj, deep, other, bare } = tree();
    const roots = [
      pathToFileURL(bare).href,
      'https://example.invalid/x',
      pathToFileURL(path.join(other, 'sub')).href,
      pathToFileURL(deep).href,
    ];
    fs.mkdirSync(path.join(other, 'sub'));
    const byRoots = locateStore({ cwd: deep }, roots);
    assert.equal(rootOf(byRoots), path.join(other, '.lore'));
    assert.match(byRoots.found ? byRoots.how : '', /^the client's root file:\/\/.*other\/sub$/);
    const byCwd = locateStore({ cwd: deep });
    assert.equal(rootOf(byCwd), path.join(proj, '.lore'));
    assert.equal(byCwd.found && byCwd.paths.workspace, proj);
    const withWorkspace = locateStore({ cwd: deep, workspace: '..' });
    assert.equal(withWorkspace.found && withWorkspace.paths.workspace, path.join(proj, 'src'));
    assert.match(
      rootOf(locateStore({ cwd: bare }, [pathToFileURL(bare).href])),
      /^missing: no Lore store found: no \.lore\/ folder in .*bare or its parents or in the client's roots \(file:\/\/.*bare\)/,
    );
  });

  it('only --root and $LORE_ROOT with text name the store', () => {
    assert.equal(namesStore({ cwd: '/' }), false);
    assert.equal(namesStore({ cwd: '/', envRoot: '  ' }), false);
    assert.equal(namesStore({ cwd: '/', root: '.lore' }), true);
  });
});

describe('the global store (~/.lore) is found only when asked for', () => {
  it('the walk up from a project under the home folder passes ~/.lore by; --global names it', () => {
    const home = makeTempDir('lore-home-');
    const project = path.join(home, 'code', 'app');
    fs.mkdirSync(path.join(home, '.lore'), { recursive: true });
    fs.mkdirSync(project, { recursive: true });
    assert.match(rootOf(locateStore({ cwd: project, home })), /^missing: no Lore store found: no \.lore\/ folder in /);
    assert.match(rootOf(locateStore({ cwd: project, home }, [pathToFileURL(project).href])), /^missing:/);
    assert.equal(rootOf(locateStore({ cwd: project, home, global: true })), path.join(home, '.lore'));
    assert.ok(namesStore({ cwd: project, global: true }));
    // A project's own store is still found, from below it too.
    fs.mkdirSync(path.join(project, '.lore'));
    assert.equal(rootOf(locateStore({ cwd: path.join(project), home })), path.join(project, '.lore'));
    const other = makeTempDir('lore-home-');
    assert.match(rootOf(locateStore({ cwd: project, home: other, global: true })), /^missing: no global Lore store at .*\(--global\)/);
  });
});

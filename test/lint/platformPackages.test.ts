/**
 * The per-platform VSIXs (scripts/packageVsix.mjs): each is packaged with .vscodeignore narrowed to
 * its platform's SQLite binary, and every VSIX written is checked to hold exactly its binaries.
 * These check the narrowing and the check; packaging itself (vsce, about 35 s a VSIX) runs with
 * `npm run package -- --target linux-x64` (or `-- --all-targets`), which fails when a VSIX holds
 * another platform's binary or lacks its own.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(__dirname, '..', '..', '..');

interface PackageScript {
  TARGETS: Record<string, string>;
  targetIgnoreText(ignoreText: string, target: string): string;
  nativeFilesProblem(names: string[], target?: string): string | undefined;
}

/** Plain ESM without types; imported by a computed name so tsc leaves it be. */
async function load<T>(specifier: string): Promise<T> {
  return (await import(specifier)) as T;
}

const PREBUILDS = 'extension/node_modules/better-sqlite3/prebuilds';

describe('per-platform VSIXs (scripts/packageVsix.mjs)', () => {
  let script: PackageScript;
  const ignoreText = fs.readFileSync(path.join(root, '.vscodeignore'), 'utf8');
  before(async () => {
    script = await load<PackageScript>(pathToFileURL(path.join(root, 'scripts', 'packageVsix.mjs')).href);
  });

  it('has a target for every SQLite binary better-sqlite3 ships, and one binary per target', () => {
    const shipped = fs
      .readdirSync(path.join(root, 'node_modules', 'better-sqlite3', 'prebuilds'))
      .filter((f) => f.endsWith('.node'))
      .map((f) => f.slice(0, -'.node'.length));
    assert.deepEqual(Object.values(script.TARGETS).sort(), shipped.sort());
  });

  it("narrows .vscodeignore to the target's binary and changes nothing else", () => {
    const linux = script.targetIgnoreText(ignoreText, 'linux-x64').split('\n');
    const universal = ignoreText.split('\n');
    assert.equal(linux.length, universal.length);
    const changed = universal.flatMap((line, i) => (line === linux[i] ? [] : [[line, linux[i]]]));
    assert.deepEqual(changed, [['!node_modules/better-sqlite3/prebuilds/**', '!node_modules/better-sqlite3/prebuilds/linux-x64.node']]);
    assert.match(script.targetIgnoreText(ignoreText, 'alpine-arm64'), /^!node_modules\/better-sqlite3\/prebuilds\/linuxmusl-arm64\.node$/m);
    assert.throws(() => script.targetIgnoreText(ignoreText, 'linux-armhf'), /no such target: linux-armhf/);
    assert.throws(() => script.targetIgnoreText('**\n!dist/**\n', 'linux-x64'), /has no line/);
  });

  it('accepts a VSIX with exactly its binaries and names what is wrong with one that has other ones', () => {
    const names = (...prebuilds: string[]) => [
      'extension/package.json',
      'extension/dist/server.js',
      ...prebuilds.map((p) => `${PREBUILDS}/${p}.node`),
    ];
    assert.equal(script.nativeFilesProblem(names('linux-x64'), 'linux-x64'), undefined);
    assert.equal(script.nativeFilesProblem(names(...Object.values(script.TARGETS))), undefined);
    assert.match(
      script.nativeFilesProblem(names('linux-x64', 'darwin-arm64'), 'linux-x64') ?? '',
      /should hold .*linux-x64\.node, and holds: .*darwin-arm64\.node/,
    );
    assert.match(script.nativeFilesProblem(names(), 'win32-x64') ?? '', /should hold .*win32-x64\.node, and holds: none/);
    assert.match(script.nativeFilesProblem(names('linux-x64')) ?? '', /the universal VSIX should hold 8 SQLite binaries/);
  });
});

// Packages the extension (the last step of `npm run package`, after the production build and
// dist/README.md), as one VSIX per platform, VS Code's convention for an extension with a native
// module, or as one universal VSIX:
//
//   node scripts/packageVsix.mjs                     lore.vsix, universal: every platform's SQLite binary
//   node scripts/packageVsix.mjs --target linux-x64  lore-linux-x64.vsix: that platform's binary only
//   node scripts/packageVsix.mjs --all-targets       one lore-<target>.vsix per target below
//
// (`npm run package -- --target darwin-arm64`, `npm run package -- --all-targets`.) better-sqlite3
// ships a prebuilt binary per platform, prebuilds/<platform>-<arch>.node, about 2 MB each, and
// loads the one of the platform it runs on (lib/binding.js). The universal VSIX carries all eight;
// a platform's VSIX carries its own, and VS Code installs the one built for its platform (`vsce
// package --target` writes the platform into the VSIX's manifest). What a VSIX holds is the
// allowlist .vscodeignore: a target's VSIX is packaged with a copy of it whose prebuilds line names
// that target's binary alone (a `!` pattern wins over every exclusion, so the line is replaced
// rather than followed by exclusions). Platforms with no target here (linux-armhf) get the
// universal VSIX from the Marketplace; Lore there uses Node's own SQLite (src/core/base/sqliteDriver.ts).
// Each VSIX written is checked to hold exactly its binaries (nativeFilesProblem), so
// `npm run package -- --all-targets` is also the test that the packages are right (about 35 s per VSIX here).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** VS Code's platform targets (`vsce package --target`) and better-sqlite3's binary for each. */
export const TARGETS = {
  'win32-x64': 'win32-x64',
  'win32-arm64': 'win32-arm64',
  'linux-x64': 'linux-x64',
  'linux-arm64': 'linux-arm64',
  'darwin-x64': 'darwin-x64',
  'darwin-arm64': 'darwin-arm64',
  // Alpine Linux: musl's C library, not glibc.
  'alpine-x64': 'linuxmusl-x64',
  'alpine-arm64': 'linuxmusl-arm64',
};

/** The .vscodeignore line that keeps every prebuilt binary. */
const ALL_PREBUILDS = '!node_modules/better-sqlite3/prebuilds/**';

/** The .vscodeignore of a target's VSIX: the universal one with only that target's binary kept. */
export function targetIgnoreText(ignoreText, target) {
  const prebuild = TARGETS[target];
  if (!prebuild) throw new Error(`no such target: ${target} (targets: ${Object.keys(TARGETS).join(', ')})`);
  const lines = ignoreText.split('\n');
  const at = lines.findIndex((line) => line.trim() === ALL_PREBUILDS);
  if (at < 0) throw new Error(`.vscodeignore has no line ${ALL_PREBUILDS} to narrow to ${target}`);
  lines[at] = `!node_modules/better-sqlite3/prebuilds/${prebuild}.node`;
  return lines.join('\n');
}

/** Writes a target's ignore file into `dir` and returns its path. */
export function writeTargetIgnoreFile(dir, target, root = ROOT) {
  const file = path.join(dir, `vscodeignore-${target}`);
  fs.writeFileSync(file, targetIgnoreText(fs.readFileSync(path.join(root, '.vscodeignore'), 'utf8'), target));
  return file;
}

/** Entries of a zip file, read from its central directory (a VSIX is a zip): name, size, compressed size. */
export function zipEntries(file) {
  const buf = fs.readFileSync(file);
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error(`${file} is not a zip file`);
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const entries = [];
  for (let i = 0; i < count; i++) {
    if (buf.readUInt32LE(p) !== 0x02014b50) throw new Error(`${file}: bad central directory`);
    const compressed = buf.readUInt32LE(p + 20);
    const size = buf.readUInt32LE(p + 24);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    entries.push({ name: buf.toString('utf8', p + 46, p + 46 + nameLen), size, compressed });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

/**
 * What is wrong with the native binaries a VSIX holds (its entry names), or undefined: a target's
 * VSIX must hold its own binary and no other, the universal one every target's.
 */
export function nativeFilesProblem(names, target) {
  const native = names.filter((n) => n.endsWith('.node')).sort();
  const prebuilds = target ? [TARGETS[target]] : Object.values(TARGETS);
  const expected = prebuilds.map((p) => `extension/node_modules/better-sqlite3/prebuilds/${p}.node`).sort();
  if (native.join('\n') === expected.join('\n')) return undefined;
  return `${target ?? 'the universal VSIX'} should hold ${expected.length === 1 ? expected[0] : `${expected.length} SQLite binaries`}, and holds: ${native.join(', ') || 'none'}`;
}

/** Runs `vsce package` with Lore's options (and the target's, when there is one); throws when it fails. */
function vscePackage(out, target, ignoreFile) {
  const vsce = path.join(ROOT, 'node_modules', '.bin', process.platform === 'win32' ? 'vsce.cmd' : 'vsce');
  const args = [
    'package',
    '--no-yarn',
    '--no-rewrite-relative-links',
    '--allow-missing-repository',
    '--readme-path',
    'dist/README.md',
    '-o',
    out,
    ...(target ? ['--target', target, '--ignoreFile', ignoreFile] : []),
  ];
  const run = spawnSync(vsce, args, { cwd: ROOT, stdio: 'inherit', shell: process.platform === 'win32' });
  if (run.status !== 0) throw new Error(`vsce package ${target ?? '(universal)'} failed (${run.status ?? run.signal})`);
  // Checked on every package: a VSIX without its binary would still install, and fall back to Node's slower SQLite.
  const problem = nativeFilesProblem(
    zipEntries(path.resolve(ROOT, out)).map((e) => e.name),
    target,
  );
  if (problem) throw new Error(`${out}: ${problem}`);
}

function main() {
  const { values } = parseArgs({
    options: { target: { type: 'string', multiple: true }, 'all-targets': { type: 'boolean' } },
  });
  const targets = values['all-targets'] ? Object.keys(TARGETS) : (values.target ?? []);
  if (targets.length === 0) {
    vscePackage('lore.vsix');
    return;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lore-package-'));
  try {
    for (const target of targets) vscePackage(`lore-${target}.vsix`, target, writeTargetIgnoreFile(dir, target));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main();
  } catch (error) {
    console.error(`lore: ${error.message}`);
    process.exitCode = 1;
  }
}

// Checks that package.json claims what the integration tests test: engines.vscode must name the
// oldest VS Code among the code-server releases given (so no user gets a version nobody ran),
// and @types/vscode must be no newer than that (or code could use API the oldest lacks).
//
//   node scripts/checkEngines.mjs 4.139.1 4.103.2
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const readJson = (file) => JSON.parse(fs.readFileSync(file, 'utf8'));

/** [major, minor] of the first x.y in a version or range such as "^1.103.0" or "~1.101.0". */
const majorMinor = (text) => {
  const m = /(\d+)\.(\d+)/.exec(text ?? '');
  if (!m) throw new Error(`no version in "${text}"`);
  return [Number(m[1]), Number(m[2])];
};
const older = (a, b) => (a[0] - b[0] || a[1] - b[1]) < 0;
const show = ([major, minor]) => `${major}.${minor}`;

const tested = process.argv.slice(2).map((release) => {
  const file = path.join(ROOT, '.vscode-test', 'code-server', release, 'node_modules', 'code-server', 'lib', 'vscode', 'package.json');
  return { release, vscode: majorMinor(readJson(file).version) };
});
if (tested.length === 0) {
  console.error('usage: node scripts/checkEngines.mjs CODE_SERVER_RELEASE...');
  process.exit(2);
}
const oldest = tested.reduce((a, b) => (older(b.vscode, a.vscode) ? b : a));
const pkg = readJson(path.join(ROOT, 'package.json'));
const engine = majorMinor(pkg.engines?.vscode);
const types = majorMinor(pkg.devDependencies?.['@types/vscode']);

const problems = [];
if (show(engine) !== show(oldest.vscode)) {
  problems.push(
    `engines.vscode is ${pkg.engines.vscode}, but the oldest VS Code tested is ${show(oldest.vscode)} (code-server ${oldest.release}): make them agree`,
  );
}
if (older(oldest.vscode, types)) {
  problems.push(`@types/vscode ${pkg.devDependencies['@types/vscode']} is newer than the oldest VS Code tested (${show(oldest.vscode)})`);
}
for (const p of problems) console.error(`lore: ${p}`);
if (problems.length === 0) {
  console.log(
    `lore: engines.vscode ${pkg.engines.vscode} = the oldest VS Code tested (${tested.map((t) => `${show(t.vscode)} via code-server ${t.release}`).join(', ')}); @types/vscode ${pkg.devDependencies['@types/vscode']}`,
  );
}
process.exit(problems.length ? 1 : 0);

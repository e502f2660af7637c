// Writes package.json's contributes.languageModelTools from the agent tools' declarations
// (src/core/services/agentTools/languageModelTools.ts): `npm run manifest` after changing a tool.
// With --check it writes nothing and fails when package.json differs (the manifest test does too).
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import * as esbuild from 'esbuild';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const entry = path.join(root, 'src/core/services/agentTools/languageModelTools.ts');
const built = await esbuild.build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'cjs', write: false, logLevel: 'error' });
const module = { exports: {} };
new Function('module', 'exports', 'require', built.outputFiles[0].text)(module, module.exports, createRequire(entry));
const tools = module.exports.languageModelToolsManifest();

const file = path.join(root, 'package.json');
const text = fs.readFileSync(file, 'utf8');
const manifest = JSON.parse(text);
if (JSON.stringify(manifest.contributes.languageModelTools) === JSON.stringify(tools)) process.exit(0);
if (process.argv.includes('--check')) {
  console.error('package.json: contributes.languageModelTools differs from the agent tools (run npm run manifest)');
  process.exit(1);
}
// Only the array is replaced, so the rest of package.json keeps its layout.
const key = '\n    "languageModelTools": ';
const start = text.indexOf(key) + key.length;
const end = start + JSON.stringify(manifest.contributes.languageModelTools, null, 2).replace(/\n/g, '\n    ').length;
const replaced = JSON.stringify(tools, null, 2).replace(/\n/g, '\n    ');
const next = text.slice(0, start) + replaced + text.slice(end);
JSON.parse(next); // the splice must leave valid JSON
fs.writeFileSync(file, next);
console.log('package.json: contributes.languageModelTools rewritten from the agent tools');

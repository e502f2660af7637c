// Bundles the three entry points. `vscode` is provided by the host and native modules
// (better-sqlite3) must stay in node_modules so their .node binaries load; type checking is
// `tsc --noEmit` (npm run typecheck), esbuild only strips types.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as esbuild from 'esbuild';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');
// For `npm run bench`: build elsewhere than dist/, and write what each bundle holds beside it.
const outdir = process.argv.find((a) => a.startsWith('--outdir='))?.slice('--outdir='.length);
const metafile = process.argv.includes('--metafile');

const common = {
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'cjs',
  sourcemap: !production,
  minify: production,
  external: ['vscode', 'better-sqlite3'],
  logLevel: 'warning',
};

// The extension bundle leaves the language client library to dist/languageClient.js, which it
// requires only when the client starts (see src/extension/languageClientLibrary.ts).
const languageClientApart = {
  name: 'language-client-apart',
  setup(build) {
    build.onResolve({ filter: /^(vscode-languageclient\/node|vscode-languageserver-protocol)$/ }, () => ({ path: './languageClient.js', external: true }));
  },
};

const entries = [
  { entryPoints: ['src/extension/extension.ts'], outfile: 'dist/extension.js', plugins: [languageClientApart] },
  { entryPoints: ['src/extension/languageClientLibrary.ts'], outfile: 'dist/languageClient.js', external: ['vscode'] },
  { entryPoints: ['src/server/server.ts'], outfile: 'dist/server.js' },
  // The CLI runs from an npm install, so the provider SDKs can stay in node_modules and load only
  // when a provider needs them: the offline default then starts in a fraction of the time.
  {
    entryPoints: ['src/cli/main.ts'],
    outfile: 'dist/cli.js',
    banner: { js: '#!/usr/bin/env node' },
    external: [...common.external, 'openai', '@anthropic-ai/sdk', '@google/genai', 'ollama', '@modelcontextprotocol/sdk'],
  },
];

for (const entry of entries) {
  const options = { ...common, ...entry, metafile };
  if (outdir) options.outfile = path.join(outdir, path.basename(entry.outfile));
  if (watch) {
    const ctx = await esbuild.context(options);
    await ctx.watch();
  } else {
    const result = await esbuild.build(options);
    if (metafile) fs.writeFileSync(`${options.outfile}.meta.json`, JSON.stringify(result.metafile));
  }
}

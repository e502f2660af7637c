// Bundles the three entry points. `vscode` is provided by the host and native modules
// (better-sqlite3) must stay in node_modules so their .node binaries load; type checking is
// `tsc --noEmit` (npm run typecheck), esbuild only strips types.
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import * as esbuild from 'esbuild';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');
// For `npm run bench`: build elsewhere than dist/, and write what each bundle holds beside it.
const outdir = process.argv.find((a) => a.startsWith('--outdir='))?.slice('--outdir='.length);
const metafile = process.argv.includes('--metafile');
const require = createRequire(import.meta.url);

// The provider SDKs weigh megabytes and only a provider call needs one, so each is bundled on its
// own as dist/vendor/<name>.js and the entry bundles require it at call time
// (src/core/providers/vendorSdks.ts). dist/ ships in the VSIX, so a packaged extension has
// every SDK offline without node_modules, and activation loads none of them.
const VENDOR_SDKS = { openai: 'openai', '@anthropic-ai/sdk': 'anthropic', '@google/genai': 'genai', ollama: 'ollama' };
const vendorFilter = new RegExp(`^(${Object.keys(VENDOR_SDKS).map((name) => name.replace(/[/.]/g, '\\$&')).join('|')})$`);

/** Resolves an SDK import in an entry bundle to its vendor bundle, beside the entry in dist/. */
const vendorSdks = {
  name: 'lore-vendor-sdks',
  setup(build) {
    build.onResolve({ filter: vendorFilter }, (args) => ({ path: `./vendor/${VENDOR_SDKS[args.path]}.js`, external: true }));
  },
};

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

// zod (~450 KB) checks what Lore reads from disk and from models, and gray-matter with js-yaml
// (~50 KB) reads YAML frontmatter; in the extension host each loads with its first use (a file
// checked, a note parsed), not at activation (core requires both lazily). The server and the CLI
// bundle their own copies: only the extension's size is start-up critical.
const loadedOnUse = {
  name: 'loaded-on-use',
  setup(build) {
    build.onResolve({ filter: /^zod$/ }, () => ({ path: './vendor/zod.js', external: true }));
    build.onResolve({ filter: /^gray-matter$/ }, () => ({ path: './vendor/gray-matter.js', external: true }));
  },
};

// The topic commands' part of core (compiler, topics, template) is dist/topicsLibrary.js, required
// when a topic command first runs (src/extension/topics/topicsLibrary.ts).
const topicsApart = {
  name: 'topics-apart',
  setup(build) {
    build.onResolve({ filter: /\/topicsLibrary(\.js)?$/ }, () => ({ path: './topicsLibrary.js', external: true }));
  },
};

// `lore mcp` imports the server module when it starts; the CLI bundle leaves it to dist/mcpServer.js.
const mcpServerApart = {
  name: 'mcp-server-apart',
  setup(build) {
    build.onResolve({ filter: /\/mcp\/loreMcpServer(\.js)?$/ }, () => ({ path: './mcpServer.js', external: true }));
  },
};

// The MCP SDK and zod ship ESM and CommonJS builds. Imported from ESM syntax, esbuild takes their ESM
// builds, whose circular module initialisation breaks once flattened into one CommonJS bundle
// (zod's ZodCustom used before it is defined: "Class2 is not a constructor" at load). Their
// CommonJS builds, which Node itself would load for a require, bundle as they run.
const commonJsBuilds = {
  name: 'commonjs-builds',
  setup(build) {
    build.onResolve({ filter: /^(@modelcontextprotocol\/sdk|zod)(\/|$)/ }, (args) =>
      args.kind === 'require-call' ? undefined : build.resolve(args.path, { kind: 'require-call', resolveDir: args.resolveDir }),
    );
  },
};

// esbuild turns each `import * as x from 'vscode'` (about 30 modules) and from 'node:fs' or
// 'node:path' (about 40 each) into a fresh copy of every name the module exports: thousands of
// property definitions, a good part of the extension's activation. Through this shim each
// importer gets an object whose prototype is the module itself (and `default` is the module, so
// a default import works too), so nothing is copied.
const SHARED_MODULES = /^(vscode|node:(fs|path|os|buffer))$/;
const importedOnce = {
  name: 'imported-once',
  setup(build) {
    build.onResolve({ filter: SHARED_MODULES }, (args) => (args.namespace === 'imported-once' ? { path: args.path, external: true } : { path: args.path, namespace: 'imported-once' }));
    build.onLoad({ filter: /.*/, namespace: 'imported-once' }, (args) => ({
      contents: `const m = require(${JSON.stringify(args.path)}); module.exports = Object.defineProperties(Object.create(m), { __esModule: { value: true }, default: { value: m } });`,
      loader: 'js',
    }));
  },
};

const entries = [
  { entryPoints: ['src/extension/extension.ts'], outfile: 'dist/extension.js', plugins: [importedOnce, languageClientApart, topicsApart, vendorSdks, loadedOnUse] },
  { entryPoints: ['src/extension/topics/topicsLibrary.ts'], outfile: 'dist/topicsLibrary.js', plugins: [vendorSdks, loadedOnUse] },
  { entryPoints: ['src/extension/languageClientLibrary.ts'], outfile: 'dist/languageClient.js', external: ['vscode'] },
  { entryPoints: ['src/server/server.ts'], outfile: 'dist/server.js', plugins: [vendorSdks] },
  // The MCP server and its SDK are dist/mcpServer.js: only `lore mcp` loads them, and the
  // installed extension (which runs `lore mcp` for agent mode) ships no node_modules but
  // better-sqlite3, so the SDK must be inside a bundle.
  {
    entryPoints: ['src/cli/main.ts'],
    outfile: 'dist/cliMain.js',
    plugins: [vendorSdks, mcpServerApart],
  },
  // `lore hook` alone (dist/cli.js picks it for the hook command): what a prompt waits for.
  // zod and gray-matter stay in dist/vendor/ (most hooks need neither), and node:fs / node:path are
  // not copied per importer (importedOnce).
  { entryPoints: ['src/cli/hookMain.ts'], outfile: 'dist/hook.js', plugins: [importedOnce, vendorSdks, loadedOnUse] },
  { entryPoints: ['src/mcp/loreMcpServer.ts'], outfile: 'dist/mcpServer.js', plugins: [vendorSdks, commonJsBuilds] },
  // The `lore` executable: a few lines that check the Node version (against package.json's
  // engines.node, written in here), turn on Node's compile cache, then load cliMain.js.
  {
    entryPoints: ['src/cli/launcher.ts'],
    outfile: 'dist/cli.js',
    banner: { js: '#!/usr/bin/env node' },
    external: ['./cliMain.js', './hook.js'],
    define: { LORE_NODE_ENGINES: JSON.stringify(require('./package.json').engines.node) },
    sourcemap: false,
  },
  // The SDKs' CommonJS builds, one file each; nothing else in them is shared with the entries.
  ...Object.entries(VENDOR_SDKS).map(([pkg, name]) => ({ entryPoints: [require.resolve(pkg)], outfile: `dist/vendor/${name}.js`, sourcemap: false })),
  { entryPoints: [require.resolve('zod')], outfile: 'dist/vendor/zod.js', sourcemap: false },
  { entryPoints: [require.resolve('gray-matter')], outfile: 'dist/vendor/gray-matter.js', sourcemap: false },
];

for (const entry of entries) {
  const options = { ...common, ...entry, metafile };
  // Keeps dist/'s layout (vendor/ included), so the bundles' relative requires still resolve.
  if (outdir) options.outfile = path.join(outdir, path.relative('dist', entry.outfile));
  if (watch) {
    const ctx = await esbuild.context(options);
    await ctx.watch();
  } else {
    const result = await esbuild.build(options);
    if (metafile) fs.writeFileSync(`${options.outfile}.meta.json`, JSON.stringify(result.metafile));
  }
}

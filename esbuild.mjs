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

/**
 * instructionRulesHash() of the planted-instruction rules being bundled (src/core/services/search/
 * sqliteSchema.ts records it in the index): the rules module bundled alone, in memory, and run
 * here. A watch build leaves it out, so its bundles hash the rules they hold when they run.
 */
async function instructionRulesHash() {
  const built = await esbuild.build({
    entryPoints: ['src/core/model/safety/instructionFlags.ts'],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    write: false,
    logLevel: 'warning',
  });
  const module = { exports: {} };
  new Function('module', 'exports', 'require', built.outputFiles[0].text)(module, module.exports, require);
  return module.exports.instructionRulesHash();
}

const common = {
  define: watch ? {} : { LORE_INSTRUCTION_RULES_HASH: String(await instructionRulesHash()) },
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'cjs',
  sourcemap: !production,
  minify: production,
  external: ['vscode', 'better-sqlite3'],
  logLevel: 'warning',
};

// What an entry bundle leaves to another file of dist/: an import of one of these modules becomes a
// require of that file at run time, made where the source requires the module, which is on first
// use (src/core/base/lazy.ts). This is code splitting by hand: esbuild splits only ESM output and
// only at `import()`, which is asynchronous, while Lore loads these from synchronous code.
//
// The provider SDKs weigh megabytes and only a provider call needs one (src/core/services/providers/vendorSdks.ts).
// dist/ ships in the VSIX, so a packaged extension has every SDK offline without node_modules.
const SDKS = {
  openai: './vendor/openai.js',
  '@anthropic-ai/sdk': './vendor/anthropic.js',
  '@google/genai': './vendor/genai.js',
  ollama: './vendor/ollama.js',
};
// zod (~450 KB) checks what Lore reads from disk and from models, and gray-matter with js-yaml
// (~50 KB) reads YAML frontmatter: every bundle but the MCP server's loads each with its first use,
// from the one copy in dist/vendor/. A copy inside a bundle would be read and compiled with it on
// every start, by `lore --version` as much as by a command that checks a file. (dist/mcpServer.js
// keeps its own: the MCP SDK builds its schemas with zod's subpaths, which must be the same copy.)
const ON_USE = { zod: './vendor/zod.js', 'gray-matter': './vendor/gray-matter.js' };
// The language client library, when the client starts (src/extension/loadLanguageClient.ts).
const LANGUAGE_CLIENT = { 'vscode-languageclient/node': './languageClient.js', 'vscode-languageserver-protocol': './languageClient.js' };
// The topic commands' part of core, when a topic first needs it (src/extension/topics/loadTopicsLibrary.ts).
const TOPICS = { '/topicsLibrary': './topicsLibrary.js' };
// The MCP server and its SDK, when `lore mcp` starts.
const MCP_SERVER = { '/mcp/loreMcpServer': './mcpServer.js' };

/**
 * Plugin 1 of 5: each module of the tables resolves to the file of dist/ it names, left external.
 * A key is a package name, or (starting with '/') the end of a relative path in src.
 */
function apart(...tables) {
  const table = Object.assign({}, ...tables);
  const keys = Object.keys(table);
  const escape = (text) => text.replace(/[/.\\]/g, '\\$&');
  const filter = new RegExp(keys.map((key) => (key.startsWith('/') ? `${escape(key)}(\\.js)?$` : `^${escape(key)}$`)).join('|'));
  const fileOf = (request) =>
    table[request] ?? table[keys.find((key) => key.startsWith('/') && request.replace(/\.js$/, '').endsWith(key))];
  return {
    name: 'apart',
    setup(build) {
      build.onResolve({ filter }, (args) => (fileOf(args.path) ? { path: fileOf(args.path), external: true } : undefined));
    },
  };
}

// Plugin 2 of 5 (dist/mcpServer.js). The MCP SDK and zod ship ESM and CommonJS builds. Imported
// from ESM syntax, esbuild takes their ESM builds, whose circular module initialisation breaks
// once flattened into one CommonJS bundle (zod's ZodCustom used before it is defined: "Class2 is
// not a constructor" at load). Their CommonJS builds, which Node itself would load for a
// require, bundle as they run.
const commonJsBuilds = {
  name: 'commonjs-builds',
  setup(build) {
    build.onResolve({ filter: /^(@modelcontextprotocol\/sdk|zod)(\/|$)/ }, (args) =>
      args.kind === 'require-call' ? undefined : build.resolve(args.path, { kind: 'require-call', resolveDir: args.resolveDir }),
    );
  },
};

// Plugin 3 of 5 (dist/extension.js, dist/hook.js). esbuild turns each `import * as x from 'vscode'`
// (about 30 modules) and from 'node:fs' or 'node:path' (about 40 each) into a fresh copy of every name the module exports: thousands of
// property definitions, a good part of the extension's activation. Through this shim each
// importer gets an object whose prototype is the module itself (and `default` is the module, so
// a default import works too), so nothing is copied.
const SHARED_MODULES = /^(vscode|node:(fs|path|os|buffer))$/;
const importedOnce = {
  name: 'imported-once',
  setup(build) {
    build.onResolve({ filter: SHARED_MODULES }, (args) =>
      args.namespace === 'imported-once' ? { path: args.path, external: true } : { path: args.path, namespace: 'imported-once' },
    );
    build.onLoad({ filter: /.*/, namespace: 'imported-once' }, (args) => ({
      contents: `const m = require(${JSON.stringify(args.path)}); module.exports = Object.defineProperties(Object.create(m), { __esModule: { value: true }, default: { value: m } });`,
      loader: 'js',
    }));
  },
};

// Plugin 4 of 5 (dist/server.js). vscode-languageserver pins its own vscode-languageserver-protocol
// (and vscode-jsonrpc), another version than the one the client library pins, which npm puts at the
// top of node_modules. Lore's message declarations (src/shared/declareMessage.ts) require the
// protocol by name, which in the server bundle added the top copy beside the server library's
// (about 130 KB, and message types of another copy than the connection's). For Lore's own modules
// the name resolves, in this bundle, to the copy the server library uses.
const serverLibraryProtocol = {
  name: 'server-library-protocol',
  setup(build) {
    const serverLibraryDir = path.dirname(require.resolve('vscode-languageserver/node'));
    build.onResolve({ filter: /^vscode-languageserver-protocol$/ }, (args) =>
      /[\\/]node_modules[\\/]/.test(args.resolveDir)
        ? undefined
        : build.resolve(args.path, { kind: args.kind, resolveDir: serverLibraryDir }),
    );
  },
};

// Plugin 5 of 5 (zod's builds: dist/vendor/zod.js, dist/mcpServer.js). zod carries its error
// messages in about fifty languages, about 320 KB of its 560 KB, reachable only as z.locales (to
// pass to z.config()); its schemas import the English messages, the default, on their own. Lore
// sets no other language, so in its bundles z.locales holds English alone. Validation is unchanged.
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.c?js$/ }, (args) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer)
        ? { path: args.path, namespace: 'zod-english-only', pluginData: args.resolveDir }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, (args) => ({
      // A getter, as zod's own index: en.cjs is still loading (a require cycle) when this module runs;
      // its module.exports is the function itself.
      contents: "Object.defineProperty(exports, 'en', { enumerable: true, get: () => require('../locales/en.cjs') });",
      resolveDir: args.pluginData,
      loader: 'js',
    }));
  },
};

const entries = [
  // The banner's time is the start of loading the bundle, which activation logs (src/extension/extension.ts).
  {
    entryPoints: ['src/extension/extension.ts'],
    outfile: 'dist/extension.js',
    plugins: [importedOnce, apart(SDKS, ON_USE, LANGUAGE_CLIENT, TOPICS)],
    banner: { js: '"use strict"; var LORE_BUNDLE_STARTED = performance.now();' },
  },
  { entryPoints: ['src/extension/topics/topicsLibrary.ts'], outfile: 'dist/topicsLibrary.js', plugins: [apart(SDKS, ON_USE)] },
  { entryPoints: ['src/extension/languageClientLibrary.ts'], outfile: 'dist/languageClient.js', external: ['vscode'] },
  { entryPoints: ['src/server/server.ts'], outfile: 'dist/server.js', plugins: [apart(SDKS, ON_USE), serverLibraryProtocol] },
  // The MCP server and its SDK are dist/mcpServer.js: only `lore mcp` loads them, and the
  // installed extension (which runs `lore mcp` for agent mode) ships no node_modules but
  // better-sqlite3, so the SDK must be inside a bundle.
  {
    entryPoints: ['src/cli/main.ts'],
    outfile: 'dist/cliMain.js',
    plugins: [apart(SDKS, ON_USE, MCP_SERVER)],
  },
  // `lore hook` alone (dist/cli.js picks it for the hook command): what a prompt waits for.
  // zod and gray-matter stay in dist/vendor/ (most hooks need neither), and node:fs / node:path are
  // not copied per importer (importedOnce).
  { entryPoints: ['src/cli/hookMain.ts'], outfile: 'dist/hook.js', plugins: [importedOnce, apart(SDKS, ON_USE)] },
  // `lore search` alone, likewise: on a current index its start is most of what a search costs.
  { entryPoints: ['src/cli/searchMain.ts'], outfile: 'dist/search.js', plugins: [importedOnce, apart(SDKS, ON_USE)] },
  // The threads a one-shot index build reads and extracts files with (src/core/services/search/extractThreads.ts).
  {
    entryPoints: ['src/core/services/search/extractThread.ts'],
    outfile: 'dist/extractThread.js',
    plugins: [importedOnce, apart(SDKS, ON_USE)],
  },
  { entryPoints: ['src/mcp/loreMcpServer.ts'], outfile: 'dist/mcpServer.js', plugins: [apart(SDKS), commonJsBuilds, zodEnglishOnly] },
  // The SDKs' CommonJS builds, one file each; nothing else in them is shared with the entries.
  // zod and gray-matter likewise, for the bundles that leave them apart (ON_USE).
  ...Object.entries({ ...SDKS, ...ON_USE }).map(([pkg, file]) => ({
    entryPoints: [require.resolve(pkg)],
    outfile: path.join('dist', file),
    sourcemap: false,
    ...(pkg === 'zod' ? { plugins: [zodEnglishOnly] } : {}),
  })),
  // The `lore` executable: a few lines that check the Node version (against package.json's
  // engines.node, written in here), turn on Node's compile cache, then load cliMain.js. It
  // answers `lore --help` itself, with the usage rendered here by the cliMain.js just built
  // (usageFrom: so this entry comes last, after the vendor files cliMain.js requires). A watch
  // build leaves the usage to cliMain.js, as it would not rebuild this file when a command changes.
  {
    entryPoints: ['src/cli/launcher.ts'],
    outfile: 'dist/cli.js',
    banner: { js: '#!/usr/bin/env node' },
    external: ['./cliMain.js', './hook.js', './search.js'],
    define: { LORE_NODE_ENGINES: JSON.stringify(require('./package.json').engines.node) },
    usageFrom: 'dist/cliMain.js',
    sourcemap: false,
  },
];

// Keeps dist/'s layout (vendor/ included), so the bundles' relative requires still resolve.
const placed = (file) => (outdir ? path.join(outdir, path.relative('dist', file)) : file);

for (const { usageFrom, ...entry } of entries) {
  const options = { ...common, ...entry, metafile, outfile: placed(entry.outfile) };
  if (usageFrom) {
    const usage = watch ? '' : require(path.resolve(placed(usageFrom))).usage();
    options.define = { ...options.define, LORE_USAGE: JSON.stringify(usage) };
  }
  if (watch) {
    const ctx = await esbuild.context(options);
    await ctx.watch();
  } else {
    const result = await esbuild.build(options);
    if (metafile) fs.writeFileSync(`${options.outfile}.meta.json`, JSON.stringify(result.metafile));
  }
}

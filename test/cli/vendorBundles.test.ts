/**
 * The built bundles keep the provider SDKs out: dist/extension.js (and the server and CLI, cliMain.js) hold
 * no SDK code, refer to dist/vendor/<sdk>.js instead, and loading the extension's bundle loads
 * none of them. zod likewise, in dist/vendor/zod.js. Needs `node esbuild.mjs` (as every CLI test does).
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from '../helpers/paths';

const DIST = path.join(REPO_ROOT, 'dist');
const VENDORS = ['openai', 'anthropic', 'genai', 'ollama'];
const SDK_PACKAGES = ['openai', '@anthropic-ai/sdk', '@google/genai', 'ollama'];

describe('vendor bundles', () => {
  it('builds one bundle per SDK, each loadable on its own', () => {
    for (const name of VENDORS) {
      const file = path.join(DIST, 'vendor', `${name}.js`);
      assert.ok(fs.statSync(file).size > 10_000, `${file} is missing or empty`);
    }
    const out = execFileSync(
      process.execPath,
      [
        '-e',
        `for (const n of ${JSON.stringify(VENDORS)}) { if (!Object.keys(require(${JSON.stringify(DIST)} + '/vendor/' + n + '.js')).length) throw new Error(n); }`,
      ],
      { encoding: 'utf8' },
    );
    assert.equal(out, '');
  });

  for (const entry of ['extension', 'server', 'cliMain']) {
    it(`${entry}.js contains no SDK source and requires the vendor bundles by relative path`, () => {
      const code = fs.readFileSync(path.join(DIST, `${entry}.js`), 'utf8');
      const map = path.join(DIST, `${entry}.js.map`);
      if (fs.existsSync(map)) {
        const sources: string[] = JSON.parse(fs.readFileSync(map, 'utf8')).sources;
        const fromSdk = sources.filter((s) => SDK_PACKAGES.some((pkg) => s.includes(`node_modules/${pkg}/`)));
        assert.deepEqual(fromSdk, [], `${entry}.js bundles SDK files`);
      }
      for (const pkg of SDK_PACKAGES) assert.ok(!code.includes(`require("${pkg}")`), `${entry}.js requires ${pkg} from node_modules`);
      if (entry !== 'server')
        for (const name of VENDORS)
          assert.ok(code.includes(`require("./vendor/${name}.js")`), `${entry}.js does not reach vendor/${name}.js`);
    });
  }

  /** The files of node_modules a bundle holds, from its source map (a production build has none: empty). */
  function bundledPackageFiles(entry: string): string[] {
    const map = path.join(DIST, `${entry}.js.map`);
    if (!fs.existsSync(map)) return [];
    return (JSON.parse(fs.readFileSync(map, 'utf8')).sources as string[]).filter((s) => s.includes('node_modules/'));
  }

  // The extension loads zod with the first file it checks, not at activation; the CLI with the first command that checks one.
  for (const entry of ['extension', 'server', 'cliMain', 'hook']) {
    it(`${entry}.js leaves zod to vendor/zod.js, the one copy they share`, () => {
      const code = fs.readFileSync(path.join(DIST, `${entry}.js`), 'utf8');
      assert.ok(code.includes('require("./vendor/zod.js")'), `${entry}.js does not reach vendor/zod.js`);
      assert.deepEqual(
        bundledPackageFiles(entry).filter((s) => s.includes('node_modules/zod/')),
        [],
      );
      assert.ok(Object.keys(require(path.join(DIST, 'vendor', 'zod.js'))).includes('z'));
    });
  }

  it("vendor/zod.js and mcpServer.js hold zod's English messages alone, and zod checks and explains in English", () => {
    // A phrase of zod's French messages, as it survives minifying.
    for (const file of [path.join('vendor', 'zod.js'), 'mcpServer.js'])
      assert.ok(!fs.readFileSync(path.join(DIST, file), 'utf8').includes('attendu'), `${file} holds zod's French messages`);
    const script = `
      const { z } = require(${JSON.stringify(path.join(DIST, 'vendor', 'zod.js'))});
      const result = z.object({ name: z.string().min(2) }).safeParse({ name: 'x' });
      process.stdout.write(JSON.stringify({ message: result.error.issues[0].message, locales: Object.keys(z.locales), en: typeof z.locales.en().localeError }));`;
    assert.deepEqual(JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })), {
      message: 'Too small: expected string to have >=2 characters',
      locales: ['en', 'default'],
      en: 'function',
    });
  });

  it("server.js holds one copy of the LSP protocol library, the server library's own", () => {
    const copies = new Set(
      bundledPackageFiles('server')
        .map((s) => /^(.*node_modules\/vscode-(languageserver-protocol|jsonrpc))\//.exec(s)?.[1])
        .filter((copy) => copy !== undefined),
    );
    assert.ok(copies.size > 0, 'a development build (with its source map) is needed');
    for (const copy of copies) assert.match(copy, /node_modules\/vscode-languageserver\/node_modules\//);
  });

  it('extension.js leaves the harvest (importers, distillation, apply) to the language server, whose bundle has it', () => {
    const extension = fs.readFileSync(path.join(DIST, 'extension.js'), 'utf8');
    const server = fs.readFileSync(path.join(DIST, 'server.js'), 'utf8');
    // Texts of the importers' detection, the reply parser, the retry of distill and apply's inbox check: they survive minifying.
    for (const text of [
      'that no importer reads',
      'reply is not a JSON object',
      'Your previous reply was not valid JSON',
      "which is not in the store's inbox",
    ]) {
      assert.ok(!extension.includes(text), `extension.js holds "${text}"`);
      assert.ok(server.includes(text), `server.js lacks "${text}"`);
    }
  });

  it('loading dist/extension.js (as activation does) loads no SDK and no zod', () => {
    // A stand-in for the host's `vscode` module: loading the bundle only defines things.
    const script = `
      const Module = require('node:module');
      const load = Module._load;
      Module._load = function (request, ...rest) {
        if (request === 'vscode') return new Proxy({}, { get: () => function () {} });
        return load.call(this, request, ...rest);
      };
      require(${JSON.stringify(path.join(DIST, 'extension.js'))});
      const sdkFiles = Object.keys(require.cache).filter((f) => /[\\\\/]vendor[\\\\/]|[\\\\/]node_modules[\\\\/](openai|@anthropic-ai|@google[\\\\/]genai|ollama)[\\\\/]/.test(f));
      process.stdout.write(JSON.stringify({ modules: Object.keys(require.cache).length, sdkFiles }));`;
    const result = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as {
      modules: number;
      sdkFiles: string[];
    };
    assert.ok(result.modules > 0, 'the bundle was loaded');
    assert.deepEqual(result.sdkFiles, []);
  });
});

import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeTempDir } from './paths';

/** What a child process loaded: every module request by name, and every file in require.cache. */
export interface LoadedModules {
  requests: string[];
  files: string[];
  /**
   * Whether zod ran. Bundled into dist/cliMain.js it is no file of its own, and evaluating it (its
   * schemas built with it) is the cost that matters; zod marks its first evaluation with a global.
   */
  zod: boolean;
}

/**
 * A preload script that records what a Node process loads (pass `nodeOptions` as NODE_OPTIONS);
 * `read()` gives what the last process run with it recorded, without the preload itself.
 */
export function moduleRecorder(): { preload: string; nodeOptions: string; read(): LoadedModules } {
  const dir = makeTempDir('lore-modules-');
  const preload = path.join(dir, 'preload.js');
  const out = path.join(dir, 'modules.json');
  fs.writeFileSync(
    preload,
    `
const Module = require('node:module');
const requests = new Set();
const load = Module._load;
Module._load = function (request) { requests.add(request); return load.apply(this, arguments); };
process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify({ requests: [...requests], files: Object.keys(require.cache), zod: '__zod_globalConfig' in globalThis })));
`,
  );
  return {
    preload,
    nodeOptions: `--require ${preload}`,
    read: () => {
      const loaded = JSON.parse(fs.readFileSync(out, 'utf8')) as LoadedModules;
      return { requests: loaded.requests.filter((r) => r !== preload), files: loaded.files.filter((f) => f !== preload), zod: loaded.zod };
    },
  };
}

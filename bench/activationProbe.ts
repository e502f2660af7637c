/**
 * Run in a fresh Node process by bench/extensionBench.ts (and test/extension/activationLoads.test.ts):
 * requires an extension bundle with the fake `vscode` module installed and calls its `activate`,
 * then, once that turn of the event loop is over, prints the timings and the modules required in
 * it as JSON and exits (whatever activation started for later is not waited for: VS Code does not
 * wait for it either).
 *
 *   node out/bench/activationProbe.js <bundle.js> <workspace>
 */
import Module from 'node:module';
import { createFakeVscode } from './fakeVscode';

const [bundle, workspace] = process.argv.slice(2).map((a) => require('node:path').resolve(a) as string);
const fake = createFakeVscode(workspace);
const load = (Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown })._load;
/** What the bundle requires while it loads and activates, and in the rest of that turn (its microtasks). */
const requested = new Set<string>();
let recording = true;
(Module as unknown as { _load: typeof load })._load = function (request: string, ...rest: unknown[]) {
  if (recording) requested.add(request);
  return request === 'vscode' ? fake : load.call(this, request, ...rest);
};

const context = {
  subscriptions: [] as Array<{ dispose(): unknown }>,
  asAbsolutePath: (p: string) => require('node:path').join(require('node:path').dirname(bundle), '..', p),
  extensionPath: workspace,
  workspaceState: { get: (_k: string, d?: unknown) => d, update: async () => undefined, keys: () => [] },
  globalState: { get: (_k: string, d?: unknown) => d, update: async () => undefined, keys: () => [], setKeysForSync: () => undefined },
  secrets: {
    get: async () => undefined,
    store: async () => undefined,
    delete: async () => undefined,
    onDidChange: () => ({ dispose: () => undefined }),
  },
  extensionUri: { fsPath: workspace, scheme: 'file' },
  extensionMode: 1,
  logUri: { fsPath: workspace, scheme: 'file' },
};

const started = process.hrtime.bigint();
const ext = require(bundle) as { activate?: (c: unknown) => unknown };
const required = process.hrtime.bigint();
// Queued before activate() runs, so before anything it queues for a later turn: runs when this
// turn (activate() and the microtasks it left) is over.
setImmediate(() => {
  recording = false;
  // What loads after activation (the language client library, when it is a bundle of its own).
  const library = require('node:path').join(require('node:path').dirname(bundle), 'languageClient.js') as string;
  const hasLibrary = require('node:fs').existsSync(library) as boolean;
  const libraryStart = process.hrtime.bigint();
  if (hasLibrary) require(library);
  const libraryMs = hasLibrary ? Number(process.hrtime.bigint() - libraryStart) / 1e6 : 0;
  process.stdout.write(
    JSON.stringify({
      requireMs: Number(required - started) / 1e6,
      activateMs: Number(activated - required) / 1e6,
      totalMs: Number(activated - started) / 1e6,
      libraryMs,
      requested: [...requested],
    }) + '\n',
  );
  process.exit(0);
});
ext.activate?.(context);
const activated = process.hrtime.bigint();

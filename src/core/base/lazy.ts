/**
 * Lazy loading, the one way Lore does it. A module that start-up does not need (zod schemas, the
 * provider SDKs, better-sqlite3, node:crypto, a command's engine) is named once, at the top of the
 * file that uses it:
 *
 *   const ledgerSchema = lazy(() => require('./ledgerSchema') as typeof import('./ledgerSchema'));
 *   …
 *   ledgerSchema().validateLedger(raw);
 *
 * and loaded by the first call of the getter. The literal require() is what lets esbuild bundle
 * the module (or map it to a file of its own, esbuild.mjs) and what defers its evaluation: in the
 * CommonJS bundles a module reached only through require() runs when first required, while one
 * reached by a static import runs when the bundle loads. `typeof import` types it without loading
 * it. Lint (eslint.config.mjs) allows require() in src only in this form.
 *
 * Why not ES modules with code splitting: VS Code runs ESM extensions since 1.100, and Node runs
 * the CLI and servers as ESM, but esbuild splits only at `import()`, which is asynchronous, while
 * most of these loads happen inside synchronous reads (a ledger checked, a config parsed, a hash).
 * Making those reads asynchronous to split bundles would change the engine's API for a packaging
 * concern; esbuild.mjs instead maps a few modules to files of their own.
 */

/** A getter of a value loaded on first use; `loaded` tells whether that happened (without loading). */
export interface Lazy<T> {
  (): T;
  readonly loaded: boolean;
}

/** A getter that runs `load` on its first call and returns that value on every call. */
export function lazy<T>(load: () => T): Lazy<T> {
  let loaded = false;
  let value: T;
  const get = () => {
    if (!loaded) {
      // Set only once load() returned: a load that throws (a native module missing) throws again next time.
      value = load();
      loaded = true;
    }
    return value;
  };
  return Object.defineProperty(get, 'loaded', { get: () => loaded }) as Lazy<T>;
}

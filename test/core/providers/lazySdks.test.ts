/**
 * An SDK is loaded only when its provider makes a call: creating adapters (what activation,
 * settings changes and `lore --help` do) must not pull in megabytes of SDK code.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { NETWORK_VENDORS } from '../../../src/core/services/providers/endpoints';
import type * as Registry from '../../../src/core/services/providers/providerRegistry';
import { startStub } from '../../helpers/stubServers';
import { sampleRequest } from './networkProviderSuite';

const SDK_DIRS = { openai: 'openai', anthropic: '@anthropic-ai/sdk', gemini: '@google/genai', ollama: 'ollama' } as const;

/** True when any file of the package is in require's cache. */
function loaded(pkg: string): boolean {
  const marker = `${path.sep}node_modules${path.sep}${pkg.split('/').join(path.sep)}${path.sep}`;
  return Object.keys(require.cache).some((file) => file.includes(marker));
}

describe('provider SDKs load lazily', () => {
  let createAdapter: typeof Registry.createAdapter;
  let createProvider: typeof Registry.createProvider;

  // Other test files in the same mocha run may have loaded an SDK already, and a provider module
  // keeps the SDK it loaded (lazy() remembers it): start clean with fresh copies of both.
  before(() => {
    const providers = `${path.sep}core${path.sep}services${path.sep}providers${path.sep}`;
    for (const file of Object.keys(require.cache)) {
      const sdk = Object.values(SDK_DIRS).some((pkg) =>
        file.includes(`${path.sep}node_modules${path.sep}${pkg.split('/').join(path.sep)}${path.sep}`),
      );
      if (sdk || file.includes(providers)) delete require.cache[file];
    }
    ({ createAdapter, createProvider } = require('../../../src/core/services/providers/providerRegistry') as typeof Registry);
  });

  it('creates every adapter, and the registry, without loading an SDK; a call loads only its own', async () => {
    for (const vendor of NETWORK_VENDORS) createAdapter(vendor, { env: {} });
    createProvider('rules');
    for (const pkg of Object.values(SDK_DIRS)) assert.equal(loaded(pkg), false, `${pkg} was loaded by creating adapters`);

    const stub = await startStub('ollama', [{ reply: '{}' }]);
    try {
      await createAdapter('ollama', { baseUrl: stub.baseUrl, env: {} }).generate(sampleRequest());
    } finally {
      await stub.close();
    }
    assert.equal(loaded(SDK_DIRS.ollama), true, 'the call must load its SDK (else this test proves nothing)');
    for (const vendor of ['openai', 'anthropic', 'gemini'] as const)
      assert.equal(loaded(SDK_DIRS[vendor]), false, `${vendor} loaded by an ollama call`);
  });
});

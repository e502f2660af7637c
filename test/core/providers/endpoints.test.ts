import * as assert from 'node:assert/strict';
import {
  KEYED_VENDORS,
  NO_KEY_PLACEHOLDER,
  authHint,
  hasKey,
  redactKey,
  requireKey,
  resolveEndpoint,
} from '../../../src/core/services/providers/endpoints';
import { ProviderError } from '../../../src/core/services/providers/provider';

describe('endpoints', () => {
  it('prefers the override, then the environment, then the default, without a trailing slash', () => {
    const env = { OPENAI_BASE_URL: 'http://env.example/v1/', OPENAI_API_KEY: 'sk-env' };
    assert.deepEqual(resolveEndpoint('openai', { env }), {
      vendor: 'openai',
      baseUrl: 'http://env.example/v1',
      apiKey: 'sk-env',
      customEndpoint: true,
    });
    assert.equal(
      resolveEndpoint('openai', { env, baseUrl: 'http://flag.example/v1/', apiKey: 'sk-flag' }).baseUrl,
      'http://flag.example/v1',
    );
    assert.equal(resolveEndpoint('openai', { env, apiKey: 'sk-flag' }).apiKey, 'sk-flag');
    assert.deepEqual(resolveEndpoint('anthropic', { env: {} }), {
      vendor: 'anthropic',
      baseUrl: 'https://api.anthropic.com',
      apiKey: undefined,
      customEndpoint: false,
    });
  });

  it('reads the variables in order, extra ones (LORE_EMBED_BASE_URL) first', () => {
    const env = { GOOGLE_API_KEY: 'g-2', GOOGLE_GEMINI_BASE_URL: 'http://sdk-var', LORE_EMBED_BASE_URL: 'http://embed' };
    assert.equal(resolveEndpoint('gemini', { env }).apiKey, 'g-2');
    assert.equal(resolveEndpoint('gemini', { env }).baseUrl, 'http://sdk-var');
    assert.equal(resolveEndpoint('gemini', { env }, ['LORE_EMBED_BASE_URL']).baseUrl, 'http://embed');
    assert.equal(resolveEndpoint('ollama', { env: { OLLAMA_HOST: 'http://gpu-box:11434' } }).baseUrl, 'http://gpu-box:11434');
  });

  it('has a key for a custom endpoint or a keyless API, and names the variables when it has none', () => {
    assert.equal(hasKey(resolveEndpoint('openai', { env: {} })), false);
    assert.equal(resolveEndpoint('openai', { env: {}, baseUrl: 'http://127.0.0.1:8080/v1' }).apiKey, NO_KEY_PLACEHOLDER);
    assert.equal(hasKey(resolveEndpoint('ollama', { env: {} })), true);
    assert.throws(
      () => requireKey(resolveEndpoint('gemini', { env: {} })),
      (e: unknown) => e instanceof ProviderError && e.kind === 'auth' && /GEMINI_API_KEY or GOOGLE_API_KEY/.test(e.message),
    );
    assert.deepEqual([...KEYED_VENDORS], ['openai', 'anthropic', 'gemini']);
  });

  it('words the auth advice for the default and for a custom endpoint', () => {
    assert.equal(authHint(resolveEndpoint('gemini', { env: {} })), 'check that GEMINI_API_KEY (or GOOGLE_API_KEY) holds a valid key');
    assert.equal(
      authHint(resolveEndpoint('openai', { env: {}, baseUrl: 'http://h/v1' })),
      'check OPENAI_API_KEY, if the server at http://h/v1 needs a key',
    );
  });

  it('redacts the endpoint key whatever its shape, and other secrets by rule', () => {
    assert.equal(redactKey('denied for key abc123xyz789', 'abc123xyz789'), 'denied for key [REDACTED:api-key]');
    assert.equal(redactKey('placeholder not-needed stays', NO_KEY_PLACEHOLDER), 'placeholder not-needed stays');
    assert.match(redactKey('sk-proj-abcdefghijklmnopqrstuvwx-yz', undefined), /REDACTED/);
  });
});

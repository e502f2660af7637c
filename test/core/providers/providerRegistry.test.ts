import * as assert from 'node:assert/strict';
import { AnthropicAdapter } from '../../../src/core/services/providers/anthropicAdapter';
import { GeminiAdapter } from '../../../src/core/services/providers/geminiAdapter';
import { OllamaAdapter } from '../../../src/core/services/providers/ollamaAdapter';
import { OpenAIAdapter } from '../../../src/core/services/providers/openaiAdapter';
import { DEFAULT_PROVIDER, PROVIDER_NAMES, createProvider, isProviderName } from '../../../src/core/services/providers/providerRegistry';
import { RulesProvider } from '../../../src/core/services/providers/rules/rulesProvider';

describe('providerRegistry', () => {
  it('lists the providers with the offline one as default', () => {
    assert.deepEqual([...PROVIDER_NAMES], ['rules', 'openai', 'anthropic', 'gemini', 'ollama']);
    assert.equal(DEFAULT_PROVIDER, 'rules');
    assert.ok(isProviderName('ollama'));
    assert.ok(!isProviderName('vscode-lm'));
  });

  it('creates each provider by name, without a key and without touching the network', () => {
    const options = { env: {} };
    assert.ok(createProvider('rules', options) instanceof RulesProvider);
    assert.ok(createProvider('openai', options) instanceof OpenAIAdapter);
    assert.ok(createProvider('anthropic', options) instanceof AnthropicAdapter);
    assert.ok(createProvider('gemini', options) instanceof GeminiAdapter);
    assert.ok(createProvider('ollama', options) instanceof OllamaAdapter);
    assert.equal(createProvider(' OpenAI ', options).name, 'openai');
  });

  it('passes the options through to the provider', () => {
    const provider = createProvider('openai', { model: 'local-model', baseUrl: 'http://127.0.0.1:8080/v1/', env: {} });
    assert.equal(provider.label, 'openai local-model @ http://127.0.0.1:8080/v1');
    assert.equal(createProvider('ollama', { env: {} }).label, 'ollama llama3.2 @ http://127.0.0.1:11434');
  });

  it('rejects an unknown name, listing the valid ones', () => {
    assert.throws(() => createProvider('gpt', {}), /unknown provider "gpt"; valid providers: rules, openai, anthropic, gemini, ollama/);
  });
});

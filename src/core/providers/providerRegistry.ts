/**
 * Name → provider, for the CLI's `--provider` flag. The VS Code Language Model provider lives in
 * the extension, since it needs the `vscode` module.
 */

import type { Provider, ProviderOptions } from './provider';
import { RulesProvider } from './rulesProvider';

// The SDK-backed providers are required on first use: loading four SDKs costs a CLI run that
// only needs the offline extractor most of the startup time.
 
const load = {
  openai: () => (require('./openaiProvider') as typeof import('./openaiProvider')).OpenAIProvider,
  anthropic: () => (require('./anthropicProvider') as typeof import('./anthropicProvider')).AnthropicProvider,
  gemini: () => (require('./geminiProvider') as typeof import('./geminiProvider')).GeminiProvider,
  ollama: () => (require('./ollamaProvider') as typeof import('./ollamaProvider')).OllamaProvider,
};

/** The providers the CLI can create, the offline default first. */
export const PROVIDER_NAMES = ['rules', 'openai', 'anthropic', 'gemini', 'ollama'] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

/** The provider used when none is named: offline, no key, deterministic. */
export const DEFAULT_PROVIDER: ProviderName = 'rules';

/** True when `name` is one of PROVIDER_NAMES. */
export function isProviderName(name: string): name is ProviderName {
  return (PROVIDER_NAMES as readonly string[]).includes(name);
}

/**
 * Creates a provider by name. Creating never touches the network and never fails for a missing
 * key: that is reported by the first generate() call as a ProviderError of kind 'auth'.
 * @throws Error for an unknown name, listing the valid ones.
 */
export function createProvider(name: string, options: ProviderOptions = {}): Provider {
  const key = name.trim().toLowerCase();
  if (!isProviderName(key)) {
    throw new Error(`unknown provider "${name}"; valid providers: ${PROVIDER_NAMES.join(', ')}`);
  }
  switch (key) {
    case 'rules':
      return new RulesProvider();
    case 'openai':
      return new (load.openai())(options);
    case 'anthropic':
      return new (load.anthropic())(options);
    case 'gemini':
      return new (load.gemini())(options);
    case 'ollama':
      return new (load.ollama())(options);
  }
}

/**
 * Name → provider, for the CLI's `--provider` flag, the extension's `lore.provider` setting and
 * the chat participant. The VS Code Language Model provider lives in the extension, since it
 * needs the `vscode` module. Creating an adapter loads no SDK: each adapter requires its SDK on
 * its first call (vendorSdks.ts).
 */
import { AnthropicAdapter, type AnthropicAdapterOptions } from './anthropicAdapter';
import { NETWORK_VENDORS, isNetworkVendor, type NetworkVendor } from './endpoints';
import { GeminiAdapter, type GeminiAdapterOptions } from './geminiAdapter';
import type { ModelAdapter } from './modelAdapter';
import { OllamaAdapter } from './ollamaAdapter';
import { OpenAIAdapter, type OpenAIAdapterOptions } from './openaiAdapter';
import type { Provider } from './provider';
import { RulesProvider } from './rules/rulesProvider';

/** The providers the CLI can create, the offline default first. */
export const PROVIDER_NAMES = ['rules', ...NETWORK_VENDORS] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

/** The provider used when none is named: offline, no key, deterministic. */
export const DEFAULT_PROVIDER: ProviderName = 'rules';

/** Options of every adapter in one bag; each reads its own fields. */
export type AnyAdapterOptions = AnthropicAdapterOptions & GeminiAdapterOptions & OpenAIAdapterOptions;

/** True when `name` is one of PROVIDER_NAMES. */
export function isProviderName(name: string): name is ProviderName {
  return (PROVIDER_NAMES as readonly string[]).includes(name);
}

/**
 * Creates the adapter of a network vendor, which serves the harvest (generate) and chat (send).
 * Never touches the network; a missing key surfaces on the first call as a ProviderError of kind
 * 'auth'.
 */
export function createAdapter(vendor: NetworkVendor, options: AnyAdapterOptions = {}): ModelAdapter {
  switch (vendor) {
    case 'openai':
      return new OpenAIAdapter(options);
    case 'anthropic':
      return new AnthropicAdapter(options);
    case 'gemini':
      return new GeminiAdapter(options);
    case 'ollama':
      return new OllamaAdapter(options);
  }
}

/**
 * Creates a provider by name: the offline rules extractor or a vendor's adapter. Creating never
 * touches the network and never fails for a missing key.
 * @throws Error for an unknown name, listing the valid ones.
 */
export function createProvider(name: string, options: AnyAdapterOptions = {}): Provider {
  const key = name.trim().toLowerCase();
  if (key === 'rules') return new RulesProvider();
  if (isNetworkVendor(key)) return createAdapter(key, options);
  throw new Error(`unknown provider "${name}"; valid providers: ${PROVIDER_NAMES.join(', ')}`);
}

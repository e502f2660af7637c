/**
 * Name → cache-aware adapter, for callers that pick the provider from a setting (the chat
 * participant, `lore context --send` one day). Kept apart from cachingClient.ts so the adapters
 * can import its helpers without a cycle.
 */
import { CachingAnthropicClient, type CachingAnthropicOptions } from './cachingAnthropic';
import type { CachingClient } from './cachingClient';
import { CachingGeminiClient, type CachingGeminiOptions } from './cachingGemini';
import { CachingOpenAIClient, type CachingOpenAIOptions } from './cachingOpenai';

/** Providers with a cache-aware adapter. */
export const CACHING_PROVIDER_NAMES = ['anthropic', 'gemini', 'openai'] as const;
export type CachingProviderName = (typeof CACHING_PROVIDER_NAMES)[number];

/** Options of every adapter in one bag; each reads its own fields. */
export type AnyCachingOptions = CachingAnthropicOptions & CachingGeminiOptions & CachingOpenAIOptions;

/** True when `name` has a cache-aware adapter. */
export function isCachingProviderName(name: string): name is CachingProviderName {
  return (CACHING_PROVIDER_NAMES as readonly string[]).includes(name);
}

/**
 * Creates the adapter for `name`. Never touches the network; a missing key surfaces on the first
 * call as a ProviderError of kind 'auth', as with the direct providers.
 * @throws Error for a provider without an adapter (rules, ollama, vscode-lm).
 */
export function createCachingClient(name: string, options: AnyCachingOptions = {}): CachingClient {
  switch (name.trim().toLowerCase()) {
    case 'anthropic':
      return new CachingAnthropicClient(options);
    case 'gemini':
      return new CachingGeminiClient(options);
    case 'openai':
      return new CachingOpenAIClient(options);
    default:
      throw new Error(`no prompt-caching adapter for provider "${name}"; available: ${CACHING_PROVIDER_NAMES.join(', ')}`);
  }
}

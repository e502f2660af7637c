/**
 * Anthropic Messages API through the official SDK.
 */

import { Anthropic } from '@anthropic-ai/sdk';
import type { ModelReply, ModelRequest, Provider, ProviderOptions, TokenUsage } from './provider';
import { NO_KEY_PLACEHOLDER, SDK_MAX_RETRIES, firstEnv, runProviderCall } from './providerCall';
import { missingKeyError } from './providerErrors';

/** Model used when neither the options nor the request name one. */
export const ANTHROPIC_DEFAULT_MODEL = 'claude-haiku-4-5';
const DEFAULT_BASE_URL = 'https://api.anthropic.com';
const KEY_VARS = ['ANTHROPIC_API_KEY'] as const;
const BASE_URL_VAR = 'ANTHROPIC_BASE_URL';
/** Enough for a harvest reply of a large conversation; a cut-off reply fails to parse and is retried. */
const MAX_OUTPUT_TOKENS = 4096;

/**
 * Provider for Claude models. The instructions are a system block marked for prompt caching, so a
 * batch harvest pays for them once and reads them from the cache for the following conversations.
 */
export class AnthropicProvider implements Provider {
  readonly name = 'anthropic';
  readonly offline = false;
  readonly label: string;
  private readonly model: string;
  private readonly baseUrl: string;
  private readonly apiKey: string | undefined;
  private readonly customEndpoint: boolean;
  private client: Anthropic | undefined;

  constructor(private readonly options: ProviderOptions = {}) {
    const env = options.env ?? process.env;
    this.model = options.model ?? ANTHROPIC_DEFAULT_MODEL;
    const custom = options.baseUrl ?? firstEnv(env, [BASE_URL_VAR]);
    this.customEndpoint = custom !== undefined;
    this.baseUrl = (custom ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    // A proxy in front of the API may not need a key, but the SDK needs a credential to send.
    this.apiKey = options.apiKey ?? firstEnv(env, KEY_VARS) ?? (this.customEndpoint ? NO_KEY_PLACEHOLDER : undefined);
    this.label = `anthropic ${this.model} @ ${this.baseUrl}`;
  }

  async generate(request: ModelRequest): Promise<ModelReply> {
    if (!this.apiKey) throw missingKeyError(this.name, KEY_VARS, BASE_URL_VAR);
    // An explicit key keeps the SDK from searching config files and profiles for credentials.
    this.client ??= new Anthropic({ apiKey: this.apiKey, baseURL: this.baseUrl, maxRetries: SDK_MAX_RETRIES });
    const client = this.client;
    const model = request.model ?? this.model;
    const authHint = this.customEndpoint
      ? `check ANTHROPIC_API_KEY, if the server at ${this.baseUrl} needs a key`
      : 'check that ANTHROPIC_API_KEY holds a valid key';
    return runProviderCall(this.name, request, this.options, { endpoint: this.baseUrl, authHint }, async ({ signal, timeoutMs }) => {
      const message = await client.messages.create(
        {
          model,
          max_tokens: MAX_OUTPUT_TOKENS,
          system: [{ type: 'text', text: request.instructions, cache_control: { type: 'ephemeral' } }],
          messages: [{ role: 'user', content: request.content + (request.suffix ?? '') }],
        },
        { signal, timeout: timeoutMs },
      );
      const text = message.content
        .map((block) => (block.type === 'text' ? block.text : ''))
        .join('');
      return { text, model: message.model || model, usage: usageOf(message.usage) };
    });
  }
}

/**
 * Anthropic reports uncached, cache-read and cache-written input separately; inputTokens is their
 * sum so that it means "all prompt tokens" for every provider.
 */
function usageOf(usage: Anthropic.Usage | undefined): TokenUsage | undefined {
  if (!usage) return undefined;
  const cacheRead = usage.cache_read_input_tokens ?? undefined;
  const cacheWrite = usage.cache_creation_input_tokens ?? undefined;
  return {
    inputTokens: usage.input_tokens + (cacheRead ?? 0) + (cacheWrite ?? 0),
    outputTokens: usage.output_tokens,
    cacheReadTokens: cacheRead,
    cacheWriteTokens: cacheWrite,
  };
}

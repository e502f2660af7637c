/**
 * OpenAI chat completions through the official SDK. Also the way to reach any OpenAI-compatible
 * server (LM Studio, llama.cpp, vLLM, LiteLLM, …) with a custom base URL.
 */

import { OpenAI } from 'openai';
import type { ModelReply, ModelRequest, Provider, ProviderOptions, TokenUsage } from './provider';
import { NO_KEY_PLACEHOLDER, SDK_MAX_RETRIES, firstEnv, runProviderCall } from './providerCall';
import { missingKeyError } from './providerErrors';

/** Model used when neither the options nor the request name one. */
export const OPENAI_DEFAULT_MODEL = 'gpt-4o-mini';
const DEFAULT_BASE_URL = 'https://api.openai.com/v1';
const KEY_VARS = ['OPENAI_API_KEY'] as const;
const BASE_URL_VAR = 'OPENAI_BASE_URL';

/**
 * Provider for OpenAI and OpenAI-compatible endpoints. The instructions go in a system message
 * and the conversation in the user message, so the shared prefix is eligible for prompt caching.
 */
export class OpenAIProvider implements Provider {
  readonly name = 'openai';
  readonly offline = false;
  readonly label: string;
  private readonly model: string;
  private readonly baseUrl: string;
  private readonly apiKey: string | undefined;
  private readonly customEndpoint: boolean;
  private client: OpenAI | undefined;

  constructor(private readonly options: ProviderOptions = {}) {
    const env = options.env ?? process.env;
    this.model = options.model ?? OPENAI_DEFAULT_MODEL;
    const custom = options.baseUrl ?? firstEnv(env, [BASE_URL_VAR]);
    this.customEndpoint = custom !== undefined;
    this.baseUrl = (custom ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    // Local servers ignore the key, but the SDK refuses to run without one.
    this.apiKey = options.apiKey ?? firstEnv(env, KEY_VARS) ?? (this.customEndpoint ? NO_KEY_PLACEHOLDER : undefined);
    this.label = `openai ${this.model} @ ${this.baseUrl}`;
  }

  async generate(request: ModelRequest): Promise<ModelReply> {
    if (!this.apiKey) throw missingKeyError(this.name, KEY_VARS, BASE_URL_VAR);
    this.client ??= new OpenAI({ apiKey: this.apiKey, baseURL: this.baseUrl, maxRetries: SDK_MAX_RETRIES });
    const client = this.client;
    const model = request.model ?? this.model;
    const authHint = this.customEndpoint
      ? `check OPENAI_API_KEY, if the server at ${this.baseUrl} needs a key`
      : 'check that OPENAI_API_KEY holds a valid key';
    return runProviderCall(this.name, request, this.options, { endpoint: this.baseUrl, authHint }, async ({ signal, timeoutMs }) => {
      const completion = await client.chat.completions.create(
        {
          model,
          messages: [
            { role: 'system', content: request.instructions },
            { role: 'user', content: request.content + (request.suffix ?? '') },
          ],
        },
        { signal, timeout: timeoutMs },
      );
      const message = completion.choices[0]?.message;
      return {
        text: message?.content ?? message?.refusal ?? '',
        model: completion.model || model,
        usage: usageOf(completion.usage),
      };
    });
  }
}

function usageOf(usage: OpenAI.CompletionUsage | undefined): TokenUsage | undefined {
  if (!usage) return undefined;
  return {
    inputTokens: usage.prompt_tokens,
    outputTokens: usage.completion_tokens,
    cacheReadTokens: usage.prompt_tokens_details?.cached_tokens,
    cacheWriteTokens: usage.prompt_tokens_details?.cache_write_tokens,
  };
}

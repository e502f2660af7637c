/**
 * OpenAI (and OpenAI-compatible servers) with implicit prefix caching: the provider caches long
 * prompt prefixes by itself, so the adapter's job is to keep the stable prefix first and whole
 * (the system message) and to read back `usage.prompt_tokens_details.cached_tokens`.
 */
import { OpenAI } from 'openai';
import { stablePrefixHash } from '../context/cacheBreakpoints';
import type { CacheCallInfo } from '../context/cacheState';
import { accountUsage } from '../context/cacheUsage';
import type { BuiltContext } from '../context/contextLayers';
import {
  controlRequest,
  generateThroughContext,
  requireMessage,
  resolveEndpoint,
  type CachedReply,
  type CachingClient,
  type CachingClientOptions,
  type Endpoint,
  type SendOptions,
} from './cachingClient';
import { OPENAI_DEFAULT_MODEL } from './openaiProvider';
import type { ModelReply, ModelRequest } from './provider';
import { SDK_MAX_RETRIES, runProviderCall } from './providerCall';
import { missingKeyError } from './providerErrors';

const KEY_VARS = ['OPENAI_API_KEY'] as const;
const BASE_URL_VAR = 'OPENAI_BASE_URL';

/** Options of the OpenAI caching adapter. */
export interface CachingOpenAIOptions extends CachingClientOptions {
  /**
   * Send `prompt_cache_key` (derived from the prefix hash) so requests sharing a prefix are routed
   * to the same cache. Default: on for api.openai.com, off for custom endpoints, since strict
   * OpenAI-compatible servers may reject a field they do not know.
   */
  promptCacheKey?: boolean;
}

/** OpenAI with implicit prompt caching; also a Provider for harvests. */
export class CachingOpenAIClient implements CachingClient {
  readonly name = 'openai';
  readonly offline = false;
  readonly label: string;
  private readonly model: string;
  private readonly endpoint: Endpoint;
  private client: OpenAI | undefined;

  constructor(private readonly options: CachingOpenAIOptions = {}) {
    this.model = options.model ?? OPENAI_DEFAULT_MODEL;
    this.endpoint = resolveEndpoint(options, { baseUrl: 'https://api.openai.com/v1', keyVars: KEY_VARS, baseUrlVars: [BASE_URL_VAR] });
    this.label = `openai ${this.model} @ ${this.endpoint.baseUrl} (implicit prompt cache)`;
  }

  async send(context: BuiltContext, options: SendOptions = {}): Promise<CachedReply> {
    const user = requireMessage(this.name, context);
    const stable = context.text.slice(0, context.stablePrefixLength);
    const model = options.model ?? this.model;
    const { apiKey, baseUrl, customEndpoint } = this.endpoint;
    if (!apiKey) throw missingKeyError(this.name, KEY_VARS, BASE_URL_VAR);
    this.client ??= new OpenAI({ apiKey, baseURL: baseUrl, maxRetries: SDK_MAX_RETRIES });
    const client = this.client;
    const prefixHash = stablePrefixHash(context, model);
    const useKey = (this.options.promptCacheKey ?? !customEndpoint) && stable.length > 0;
    const maxTokens = options.maxOutputTokens ?? this.options.maxOutputTokens;
    const messages: OpenAI.ChatCompletionMessageParam[] = [...(stable ? [{ role: 'system' as const, content: stable }] : []), { role: 'user', content: user }];
    const authHint = customEndpoint ? `check OPENAI_API_KEY, if the server at ${baseUrl} needs a key` : 'check that OPENAI_API_KEY holds a valid key';
    const completion = await runProviderCall(this.name, controlRequest(options), this.options, { endpoint: baseUrl, authHint }, ({ signal, timeoutMs }) =>
      client.chat.completions.create(
        {
          model,
          messages,
          ...(useKey ? { prompt_cache_key: `lore-${prefixHash.slice(0, 32)}` } : {}),
          ...(maxTokens ? { max_completion_tokens: maxTokens } : {}),
        },
        { signal, timeout: timeoutMs },
      ),
    );
    const message = completion.choices[0]?.message;
    // Implicit caching cannot be switched off; a disabled discussion just does not track it.
    const enabled = (this.options.caching ?? true) && options.state?.cachingEnabled !== false;
    const cache: CacheCallInfo = enabled
      ? { provider: this.name, mode: 'implicit', prefixHash }
      : { provider: this.name, mode: 'off', prefixHash, fallbackReason: 'caching is disabled for this discussion (OpenAI may still cache implicitly)' };
    return { text: message?.content ?? message?.refusal ?? '', model: completion.model || model, usage: accountUsage(this.name, completion.usage), cache };
  }

  generate(request: ModelRequest): Promise<ModelReply> {
    return generateThroughContext(this, request);
  }

  /** OpenAI's implicit cache cannot be evicted. */
  async invalidate(): Promise<boolean> {
    return false;
  }
}

/**
 * OpenAI chat completions, for the harvest and for chat; also the way to reach any
 * OpenAI-compatible server (LM Studio, llama.cpp, vLLM, LiteLLM, …) through a base URL. OpenAI
 * caches long prompt prefixes by itself, so the adapter keeps the stable prefix first and whole
 * (the system message) and reads back `usage.prompt_tokens_details.cached_tokens`. A reply schema
 * goes as `response_format: json_schema`.
 */
import type { OpenAI } from 'openai';
import { stablePrefixHash } from '../promptCache/cacheBreakpoints';
import type { CacheCallInfo } from '../promptCache/cacheState';
import { accountUsage } from '../promptCache/cacheUsage';
import type { BuiltContext } from '../promptCache/contextLayers';
import { VENDOR_ENDPOINTS, authHint, requireKey, resolveEndpoint, type Endpoint } from './endpoints';
import {
  controlRequest,
  effectivePolicy,
  generateThroughContext,
  SchemaSupport,
  requireMessage,
  type AdapterOptions,
  type PromptCachedReply,
  type ModelAdapter,
  type SendOptions,
} from './modelAdapter';
import type { ModelReply, ModelRequest, ReplySchema } from './provider';
import { SDK_MAX_RETRIES, runProviderCall } from './providerCall';
import { openaiSdk } from './vendorSdks';

/** Model used when neither the options nor the request name one. */
export const OPENAI_DEFAULT_MODEL = VENDOR_ENDPOINTS.openai.defaultModel;

/** Options of the OpenAI adapter. */
export interface OpenAIAdapterOptions extends AdapterOptions {
  /**
   * Send `prompt_cache_key` (derived from the prefix hash) so requests sharing a prefix are routed
   * to the same cache. Default: on for api.openai.com, off for custom endpoints, since strict
   * OpenAI-compatible servers may reject a field they do not know.
   */
  promptCacheKey?: boolean;
}

/** OpenAI and OpenAI-compatible servers, for the harvest and chat alike. */
export class OpenAIAdapter implements ModelAdapter {
  readonly name = 'openai';
  readonly offline = false;
  readonly label: string;
  private readonly model: string;

  /** The model a request without one is sent to. */
  get defaultModel(): string {
    return this.model;
  }
  private readonly endpoint: Endpoint;
  private client: OpenAI | undefined;
  private readonly schemaSupport = new SchemaSupport();

  constructor(private readonly options: OpenAIAdapterOptions = {}) {
    this.model = options.model ?? OPENAI_DEFAULT_MODEL;
    this.endpoint = resolveEndpoint('openai', options);
    this.label = `openai ${this.model} @ ${this.endpoint.baseUrl}`;
  }

  async send(context: BuiltContext, options: SendOptions = {}): Promise<PromptCachedReply> {
    const user = requireMessage(this.name, context);
    const stable = context.text.slice(0, context.stablePrefixLength);
    const model = options.model ?? this.model;
    const apiKey = requireKey(this.endpoint);
    this.client ??= new (openaiSdk().OpenAI)({ apiKey, baseURL: this.endpoint.baseUrl, maxRetries: SDK_MAX_RETRIES });
    const client = this.client;
    const prefixHash = stablePrefixHash(context, model);
    const policy = effectivePolicy(this.options, options.cache);
    const useKey = (this.options.promptCacheKey ?? !this.endpoint.customEndpoint) && stable.length > 0 && !policy.disabled;
    const maxTokens = options.maxOutputTokens ?? this.options.maxOutputTokens;
    const messages: OpenAI.ChatCompletionMessageParam[] = [
      ...(stable ? [{ role: 'system' as const, content: stable }] : []),
      { role: 'user', content: user },
    ];
    const errorContext = { endpoint: this.endpoint.baseUrl, authHint: authHint(this.endpoint), secret: apiKey };
    const create = (schema: ReplySchema | undefined): Promise<OpenAI.ChatCompletion> =>
      runProviderCall(this.name, controlRequest(options), this.options, errorContext, ({ signal, timeoutMs }) =>
        client.chat.completions.create(
          {
            model,
            messages,
            ...(useKey ? { prompt_cache_key: `lore-${prefixHash.slice(0, 32)}` } : {}),
            ...(maxTokens ? { max_completion_tokens: maxTokens } : {}),
            ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
            ...(schema
              ? { response_format: { type: 'json_schema', json_schema: { name: schema.name, schema: schema.schema, strict: true } } }
              : {}),
          },
          { signal, timeout: timeoutMs },
        ),
      );
    const completion = await this.schemaSupport.run(options.replySchema, create);
    const message = completion.choices[0]?.message;
    // Implicit caching cannot be switched off; a disabled discussion just does not track it.
    const cache: CacheCallInfo = policy.disabled
      ? {
          provider: this.name,
          mode: 'off',
          prefixHash,
          fallbackReason: 'caching is disabled for this discussion (OpenAI may still cache implicitly)',
        }
      : { provider: this.name, mode: 'implicit', prefixHash };
    return {
      text: message?.content ?? message?.refusal ?? '',
      model: completion.model || model,
      usage: accountUsage(this.name, completion.usage),
      cache,
    };
  }

  generate(request: ModelRequest): Promise<ModelReply> {
    return generateThroughContext(this, request);
  }

  /** OpenAI's implicit cache cannot be evicted. */
  async invalidate(): Promise<boolean> {
    return false;
  }
}

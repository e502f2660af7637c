/**
 * Anthropic Messages API, for the harvest and for chat. The stable prefix of a context goes into
 * the system prompt as text blocks cut at layer boundaries, each prefix block marked
 * `cache_control: {type: "ephemeral"}` unless the call's policy is `off`; the volatile part is
 * the user message. A hit refreshes the entry's lifetime (5 minutes, or 1 hour when configured).
 * A reply schema goes as `output_config.format` (structured output).
 */
import type { Anthropic } from '@anthropic-ai/sdk';
import {
  chooseCacheBreakpoints,
  segmentAtBreakpoints,
  stablePrefixHash,
  type CacheBreakpoint,
  type TextSegment,
} from '../promptCache/cacheBreakpoints';
import { ANTHROPIC_CACHE_TTL_MS, ANTHROPIC_LONG_CACHE_TTL_MS, type CacheCallInfo } from '../promptCache/cacheState';
import { accountUsage } from '../promptCache/cacheUsage';
import type { BuiltContext } from '../promptCache/contextLayers';
import { VENDOR_ENDPOINTS, authHint, requireKey, resolveEndpoint, type Endpoint } from './endpoints';
import {
  controlRequest,
  effectivePolicy,
  generateThroughContext,
  SchemaSupport,
  rememberBounded,
  requireMessage,
  type AdapterOptions,
  type PromptCachedReply,
  type ModelAdapter,
  type SendOptions,
} from './modelAdapter';
import { ProviderError, type ModelReply, type ModelRequest, type ReplySchema } from './provider';
import { SDK_MAX_RETRIES, runProviderCall } from './providerCall';
import { anthropicSdk } from './vendorSdks';

/** Model used when neither the options nor the request name one. */
export const ANTHROPIC_DEFAULT_MODEL = VENDOR_ENDPOINTS.anthropic.defaultModel;
/** Enough for a harvest reply of a large conversation; a cut-off reply fails to parse and is retried. */
const DEFAULT_MAX_OUTPUT_TOKENS = 4096;

/** Options of the Anthropic adapter. */
export interface AnthropicAdapterOptions extends AdapterOptions {
  /** Cache lifetime: `5m` (default, refreshed on each hit) or `1h` (writes cost more, reads the same). */
  cacheTtl?: '5m' | '1h';
}

/** The request parts built from a context. */
export interface AnthropicCacheRequest {
  /** The stable prefix as system text blocks; no block is empty. */
  system: Anthropic.TextBlockParam[];
  /** The volatile part: the user message. */
  user: string;
  breakpoints: CacheBreakpoint[];
}

/**
 * Cuts the context for Anthropic: at most 3 prefix blocks marked for caching (the API allows 4
 * breakpoints; one is left for the caller), at the ends of the last stable layers, so a change in
 * the file notes still hits the cache up to the digest. Blank segments merge into their
 * neighbour because the API rejects blocks without text. With `enabled` false the same bytes go
 * as one unmarked block.
 */
export function anthropicCacheRequest(context: BuiltContext, options: { enabled: boolean; ttl?: '5m' | '1h' }): AnthropicCacheRequest {
  const stable = context.text.slice(0, context.stablePrefixLength);
  const user = context.text.slice(context.stablePrefixLength);
  // The API rejects text blocks without text, so a blank prefix travels with the message.
  if (!stable.trim()) return { system: [], user: stable + user, breakpoints: [] };
  if (!options.enabled) return { system: [{ type: 'text', text: stable }], user, breakpoints: [] };
  const segments: TextSegment[] = [];
  let carry = '';
  for (const segment of segmentAtBreakpoints(stable, chooseCacheBreakpoints(context))) {
    // A whitespace-only segment cannot stand alone: it joins the next one, losing its breakpoint.
    if (!segment.text.trim()) {
      carry += segment.text;
      continue;
    }
    segments.push({ ...segment, text: carry + segment.text });
    carry = '';
  }
  if (carry) segments[segments.length - 1] = { ...segments[segments.length - 1], text: segments[segments.length - 1].text + carry };
  const cacheControl: Anthropic.CacheControlEphemeral = options.ttl === '1h' ? { type: 'ephemeral', ttl: '1h' } : { type: 'ephemeral' };
  const system = segments.map((s): Anthropic.TextBlockParam =>
    s.breakpoint ? { type: 'text', text: s.text, cache_control: cacheControl } : { type: 'text', text: s.text },
  );
  let offset = 0;
  const breakpoints: CacheBreakpoint[] = [];
  for (const s of segments) {
    offset += s.text.length;
    if (s.breakpoint && s.layer) breakpoints.push({ layer: s.layer, offset });
  }
  return { system, user, breakpoints };
}

/** True for the (older API's) rejection of a cache marker, e.g. a prefix below the minimum size. */
function isCacheMarkerRejection(error: unknown): error is ProviderError {
  return error instanceof ProviderError && error.kind === 'bad-request' && /cache[_ -]?control/i.test(error.message);
}

/** Claude, for the harvest and chat alike. */
export class AnthropicAdapter implements ModelAdapter {
  readonly name = 'anthropic';
  readonly offline = false;
  readonly label: string;
  private readonly model: string;

  /** The model a request without one is sent to. */
  get defaultModel(): string {
    return this.model;
  }
  private readonly endpoint: Endpoint;
  private readonly ttl: '5m' | '1h';
  private client: Anthropic | undefined;
  /** Why the API refused the cache markers of a prefix (by prefix hash): it goes unmarked from then on. */
  private readonly refusals = new Map<string, string>();
  private readonly schemaSupport = new SchemaSupport();

  constructor(private readonly options: AnthropicAdapterOptions = {}) {
    this.model = options.model ?? ANTHROPIC_DEFAULT_MODEL;
    this.endpoint = resolveEndpoint('anthropic', options);
    this.ttl = options.cacheTtl ?? '5m';
    this.label = `anthropic ${this.model} @ ${this.endpoint.baseUrl}`;
  }

  async send(context: BuiltContext, options: SendOptions = {}): Promise<PromptCachedReply> {
    const user = requireMessage(this.name, context);
    const model = options.model ?? this.model;
    const prefixHash = stablePrefixHash(context, model);
    // Anthropic has no automatic cache: `implicit` and `explicit` both mean markers.
    const policy = effectivePolicy(this.options, options.cache);
    const refused = this.refusals.get(prefixHash);
    const enabled = !policy.disabled && !refused;
    let parts = anthropicCacheRequest(context, { enabled, ttl: this.ttl });
    let fallbackReason = policy.disabled ? 'caching is disabled for this discussion' : refused;
    let message: Anthropic.Message;
    try {
      message = await this.call(model, parts.system, user, options);
    } catch (error) {
      if (!enabled || !isCacheMarkerRejection(error)) throw error;
      // Caching is an optimization: a refused marker must not fail the turn.
      fallbackReason = `Anthropic refused the cache markers: ${error.message}`;
      rememberBounded(this.refusals, prefixHash, fallbackReason);
      parts = anthropicCacheRequest(context, { enabled: false });
      message = await this.call(model, parts.system, user, options);
    }
    const text = message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
    const cached = parts.breakpoints.length > 0;
    const cache: CacheCallInfo = {
      provider: this.name,
      mode: cached ? 'ephemeral' : 'off',
      ttlMs: this.ttl === '1h' ? ANTHROPIC_LONG_CACHE_TTL_MS : ANTHROPIC_CACHE_TTL_MS,
      prefixHash,
      ...(cached ? {} : { fallbackReason: fallbackReason ?? 'the context has no stable prefix' }),
    };
    return { text, model: message.model || model, usage: accountUsage(this.name, message.usage), cache };
  }

  generate(request: ModelRequest): Promise<ModelReply> {
    return generateThroughContext(this, request);
  }

  /** Anthropic caches cannot be evicted; they lapse after their TTL without hits. */
  async invalidate(): Promise<boolean> {
    return false;
  }

  private async call(model: string, system: Anthropic.TextBlockParam[], user: string, options: SendOptions): Promise<Anthropic.Message> {
    const apiKey = requireKey(this.endpoint);
    this.client ??= new (anthropicSdk().Anthropic)({ apiKey, baseURL: this.endpoint.baseUrl, maxRetries: SDK_MAX_RETRIES });
    const client = this.client;
    const maxTokens = options.maxOutputTokens ?? this.options.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS;
    const create = (schema: ReplySchema | undefined): Promise<Anthropic.Message> =>
      runProviderCall(
        this.name,
        controlRequest(options),
        this.options,
        { endpoint: this.endpoint.baseUrl, authHint: authHint(this.endpoint), secret: apiKey },
        ({ signal, timeoutMs }) =>
          client.messages.create(
            {
              model,
              max_tokens: maxTokens,
              ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
              ...(system.length ? { system } : {}),
              messages: [{ role: 'user', content: user }],
              ...(schema ? { output_config: { format: { type: 'json_schema', schema: schema.schema } } } : {}),
            },
            { signal, timeout: timeoutMs },
          ),
      );
    return this.schemaSupport.run(options.replySchema, create);
  }
}

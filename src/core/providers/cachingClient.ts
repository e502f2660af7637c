/**
 * The contract of the cache-aware provider adapters (cachingAnthropic, cachingGemini,
 * cachingOpenai): they send a BuiltContext with the stable prefix placed where the provider's
 * prompt cache can reuse it, and report usage and cache facts in one shape for every provider.
 * They are Providers too, so a harvest can run through them.
 */
import type { CacheCallInfo, DiscussionCacheState } from '../context/cacheState';
import type { CacheUsage } from '../context/cacheUsage';
import type { BuiltContext, LayerBoundary } from '../context/contextLayers';
import { ProviderError, type ModelRequest, type Provider, type ProviderOptions, type TokenUsage } from './provider';
import { NO_KEY_PLACEHOLDER, firstEnv } from './providerCall';

/** Per-call options of CachingClient.send. */
export interface SendOptions {
  model?: string;
  signal?: AbortSignal;
  timeoutMs?: number;
  maxOutputTokens?: number;
  /**
   * The discussion's cache state: a disabled state sends no cache markers; Gemini reuses the
   * cachedContent it names after a reload. The adapter never modifies it: apply recordCall.
   */
  state?: DiscussionCacheState;
  /** Key of the adapter's own per-discussion bookkeeping (default: state.discussionId, else 'default'). */
  cacheKey?: string;
  /** Ask for a JSON reply where the API has a switch for it (Gemini). */
  jsonReply?: boolean;
}

/** The reply of one send. */
export interface CachedReply {
  text: string;
  model: string;
  usage: CacheUsage;
  /** What to pass to recordCall together with `usage`. */
  cache: CacheCallInfo;
}

/** A provider adapter that knows about prompt caching. */
export interface CachingClient extends Provider {
  send(context: BuiltContext, options?: SendOptions): Promise<CachedReply>;
  /**
   * Drops what the adapter holds for the discussion (Gemini deletes its cachedContent). Returns
   * true when a remote cache was deleted; Anthropic and OpenAI caches cannot be evicted, so their
   * adapters return false.
   */
  invalidate(state?: DiscussionCacheState): Promise<boolean>;
}

/** Options shared by the caching adapters. */
export interface CachingClientOptions extends ProviderOptions {
  /** Turns cache markers and cache resources off for every call (default on). */
  caching?: boolean;
  maxOutputTokens?: number;
  /** Clock for expiry decisions, epoch ms (tests pass a fake one). */
  now?: () => number;
}

/** Where an adapter sends and with which key, resolved like the direct providers do it. */
export interface Endpoint {
  baseUrl: string;
  apiKey?: string;
  customEndpoint: boolean;
}

/** Resolves base URL and key from options, then the environment; a custom endpoint may need no key. */
export function resolveEndpoint(options: ProviderOptions, defaults: { baseUrl: string; keyVars: readonly string[]; baseUrlVars: readonly string[] }): Endpoint {
  const env = options.env ?? process.env;
  const custom = options.baseUrl ?? firstEnv(env, defaults.baseUrlVars);
  const customEndpoint = custom !== undefined;
  return {
    baseUrl: (custom ?? defaults.baseUrl).replace(/\/+$/, ''),
    apiKey: options.apiKey ?? firstEnv(env, defaults.keyVars) ?? (customEndpoint ? NO_KEY_PLACEHOLDER : undefined),
    customEndpoint,
  };
}

/**
 * The ModelRequest runProviderCall expects. It reads only the signal and the timeout from it;
 * the rest is filler, since a context is not a harvest request.
 */
export function controlRequest(options: SendOptions): ModelRequest {
  return { task: 'summarize', instructions: '', content: '', signal: options.signal, timeoutMs: options.timeoutMs };
}

/**
 * A ModelRequest as a two-layer context: the instructions are the stable prefix (role layer), the
 * content and suffix the volatile message. The bytes are exactly those the direct providers send
 * (system = instructions, user = content + suffix), so a harvest batch shares its cached prefix.
 */
export function contextFromRequest(request: ModelRequest): BuiltContext {
  const stable = request.instructions;
  const volatile = request.content + (request.suffix ?? '');
  const stableBytes = Buffer.byteLength(stable, 'utf8');
  const boundaries: LayerBoundary[] = [];
  if (stable) boundaries.push({ layer: 'role', stable: true, start: 0, end: stable.length, startByte: 0, endByte: stableBytes });
  if (volatile) {
    const text = stable + volatile;
    boundaries.push({ layer: 'message', stable: false, start: stable.length, end: text.length, startByte: stableBytes, endByte: stableBytes + Buffer.byteLength(volatile, 'utf8') });
  }
  return { text: stable + volatile, stablePrefixLength: stable.length, stablePrefixBytes: stableBytes, boundaries };
}

/** The volatile part of a context, which every API needs as the user turn. */
export function requireMessage(provider: string, context: BuiltContext): string {
  const volatile = context.text.slice(context.stablePrefixLength);
  if (!volatile.trim()) {
    throw new ProviderError(provider, 'bad-request', 'the context has nothing after its stable prefix; add the user message');
  }
  return volatile;
}

/** A CacheUsage as the Provider interface's TokenUsage (inputTokens = all prompt tokens in both). */
export function toTokenUsage(usage: CacheUsage): TokenUsage {
  return { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, cacheReadTokens: usage.cacheReadTokens, cacheWriteTokens: usage.cacheWriteTokens };
}

/** The Provider.generate of a caching client: a request sent as a two-layer context. */
export async function generateThroughContext(client: CachingClient, request: ModelRequest): Promise<{ text: string; model: string; usage: TokenUsage }> {
  const reply = await client.send(contextFromRequest(request), {
    model: request.model,
    signal: request.signal,
    timeoutMs: request.timeoutMs,
    cacheKey: `task:${request.task}`,
    jsonReply: request.task === 'harvest',
  });
  return { text: reply.text, model: reply.model, usage: toTokenUsage(reply.usage) };
}

/** Entries kept by rememberBounded; a long session builds many prefixes, each refused at most once. */
const REMEMBERED_MAX = 256;

/** Sets a map entry, dropping the oldest ones beyond a bound so per-prefix memory cannot grow forever. */
export function rememberBounded<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key);
  map.set(key, value);
  while (map.size > REMEMBERED_MAX) map.delete(map.keys().next().value!);
}

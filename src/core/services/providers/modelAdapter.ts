/**
 * The contract of the per-vendor adapters (anthropic, openai, gemini, ollama): one adapter per
 * vendor serves the harvest (generate: instructions + content) and chat (send: a BuiltContext
 * with its stable prefix placed where the vendor's prompt cache can reuse it). Caching is a
 * policy of each call (CachePolicy); usage and cache facts come back in one shape for every vendor.
 */
import type { CacheCallInfo, DiscussionCacheState } from '../promptCache/cacheState';
import type { CacheUsage } from '../promptCache/cacheUsage';
import type { BuiltContext, LayerBoundary } from '../promptCache/contextLayers';
import {
  ProviderError,
  type CachePolicy,
  type ModelRequest,
  type Provider,
  type ProviderOptions,
  type ReplySchema,
  type TokenUsage,
} from './provider';

/** Per-call options of ModelAdapter.send. */
export interface SendOptions {
  model?: string;
  signal?: AbortSignal;
  timeoutMs?: number;
  maxOutputTokens?: number;
  /** Sampling temperature (0 for a deterministic answer, e.g. the topic gate); the API's default when unset. */
  temperature?: number;
  /** The call's caching policy (default: explicit). The adapter never modifies its state: apply recordCall. */
  cache?: CachePolicy;
  /** Ask for a reply of this shape where the API supports structured output. */
  replySchema?: ReplySchema;
}

/** The reply of one send. */
export interface PromptCachedReply {
  text: string;
  model: string;
  usage: CacheUsage;
  /** What to pass to recordCall together with `usage`. */
  cache: CacheCallInfo;
}

/** One vendor's adapter: a Provider for the harvest, and send() for a layered context. */
export interface ModelAdapter extends Provider {
  send(context: BuiltContext, options?: SendOptions): Promise<PromptCachedReply>;
  /**
   * Drops what the adapter holds for the discussion (Gemini deletes its cachedContent). Returns
   * true when a remote cache was deleted; Anthropic, OpenAI and Ollama caches cannot be evicted.
   */
  invalidate(state?: DiscussionCacheState): Promise<boolean>;
}

/** Options shared by the adapters. */
export interface AdapterOptions extends ProviderOptions {
  /** Turns cache markers and cache resources off for every call (default on). */
  caching?: boolean;
  maxOutputTokens?: number;
  /** Clock for expiry decisions, epoch ms (tests pass a fake one). */
  now?: () => number;
}

/** The policy a send runs under: the given one, `off` when the adapter or the discussion disabled caching. */
export function effectivePolicy(
  options: AdapterOptions,
  policy: CachePolicy | undefined,
): { mode: CachePolicy['mode']; key: string; state?: DiscussionCacheState; disabled: boolean } {
  const wanted = policy ?? { mode: 'explicit' };
  const disabled = options.caching === false || wanted.state?.cachingEnabled === false || wanted.mode === 'off';
  return {
    mode: disabled ? 'off' : wanted.mode,
    key: wanted.key ?? wanted.state?.discussionId ?? 'default',
    state: wanted.state,
    disabled,
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
function contextFromRequest(request: ModelRequest): BuiltContext {
  const stable = request.instructions;
  const volatile = request.content + (request.suffix ?? '');
  const stableBytes = Buffer.byteLength(stable, 'utf8');
  const boundaries: LayerBoundary[] = [];
  if (stable) boundaries.push({ layer: 'role', stable: true, start: 0, end: stable.length, startByte: 0, endByte: stableBytes });
  if (volatile) {
    const text = stable + volatile;
    boundaries.push({
      layer: 'message',
      stable: false,
      start: stable.length,
      end: text.length,
      startByte: stableBytes,
      endByte: stableBytes + Buffer.byteLength(volatile, 'utf8'),
    });
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
function toTokenUsage(usage: CacheUsage): TokenUsage {
  return {
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    cacheReadTokens: usage.cacheReadTokens,
    cacheWriteTokens: usage.cacheWriteTokens,
  };
}

/**
 * The Provider.generate of an adapter: a request sent as a two-layer context. A harvest batch
 * shares its instructions, so the default policy is implicit caching keyed by the task.
 */
export async function generateThroughContext(
  adapter: ModelAdapter,
  request: ModelRequest,
): Promise<{ text: string; model: string; usage: TokenUsage }> {
  const reply = await adapter.send(contextFromRequest(request), {
    model: request.model,
    signal: request.signal,
    timeoutMs: request.timeoutMs,
    cache: request.cache ?? { mode: 'implicit', key: `task:${request.task}` },
    replySchema: request.replySchema,
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

/**
 * Whether an endpoint takes a reply schema. Structured output is worth asking for, but older
 * models, OpenAI-compatible servers and proxies may reject it: the call is then repeated once
 * without it (the prompt asks for the same JSON) and later calls leave it out.
 */
export class SchemaSupport {
  private refused = false;

  /** Runs `call` with the schema unless the endpoint refused one before. */
  async run<T>(schema: ReplySchema | undefined, call: (schema: ReplySchema | undefined) => Promise<T>): Promise<T> {
    const wanted = this.refused ? undefined : schema;
    try {
      return await call(wanted);
    } catch (error) {
      if (!wanted || !isSchemaRejection(error)) throw error;
      this.refused = true;
      return call(undefined);
    }
  }
}

/** True for a 400 about the structured-output part of a request. */
function isSchemaRejection(error: unknown): boolean {
  return (
    error instanceof ProviderError &&
    error.kind === 'bad-request' &&
    error.status === 400 &&
    /response_format|json_schema|output_config|output_format|responseJsonSchema|responseSchema|structured|schema|format/i.test(
      error.message,
    )
  );
}

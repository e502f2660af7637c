/**
 * Gemini, for the harvest and for chat. Under an `explicit` cache policy the stable prefix of a
 * context becomes a cachedContent resource (its system instruction) with a TTL (default 1 hour),
 * and each turn sends only the volatile part with a reference to it. The resource is re-created
 * when the prefix changes (another hash) or it expired; a refusal to create one (the prefix is
 * below the model's minimum) is remembered per prefix and the turn goes uncached, with the same
 * bytes in the same places. Under `implicit` (a harvest batch) the prefix is the system
 * instruction, which Gemini's implicit caching can reuse, and nothing is created. A reply schema
 * goes as `responseJsonSchema` with a JSON MIME type.
 */
import type { CachedContent, GenerateContentResponse, GoogleGenAI } from '@google/genai';
import { stablePrefixHash } from '../promptCache/cacheBreakpoints';
import { GEMINI_CACHE_TTL_MS, type CacheCallInfo, type DiscussionCacheState } from '../promptCache/cacheState';
import { accountUsage, asCacheWrite } from '../promptCache/cacheUsage';
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
import { genaiSdk } from './vendorSdks';

/** Model used when neither the options nor the request name one. */
export const GEMINI_DEFAULT_MODEL = VENDOR_ENDPOINTS.gemini.defaultModel;
/** First backoff of the SDK's retry, in seconds (the SDK's default of 1 s doubles with jitter). */
const RETRY_INITIAL_DELAY_S = 0.5;
/** Re-create this long before the expiry, so a request does not race the resource's deletion. */
const DEFAULT_EXPIRY_MARGIN_MS = 30_000;

/** Options of the Gemini adapter. */
export interface GeminiAdapterOptions extends AdapterOptions {
  /** Lifetime of a created cachedContent in seconds (default 3600). Storage is billed per hour. */
  cacheTtlSeconds?: number;
  expiryMarginMs?: number;
}

/** A cachedContent this adapter created (or adopted from a persisted state). */
interface CacheEntry {
  name: string;
  /** Hash of the prefix and the model (a cache belongs to one model). */
  prefixHash: string;
  createdAt: number;
  expiresAt: number;
}

/** True when the API says a referenced cachedContent is gone (expired or deleted). */
function isMissingCache(error: unknown): boolean {
  return error instanceof ProviderError && (error.status === 403 || error.status === 404) && /cached ?content/i.test(error.message);
}

/** Gemini, with explicit context caching for discussions that ask for it. */
export class GeminiAdapter implements ModelAdapter {
  readonly name = 'gemini';
  readonly offline = false;
  readonly label: string;
  private readonly model: string;

  /** The model a request without one is sent to. */
  get defaultModel(): string {
    return this.model;
  }
  private readonly endpoint: Endpoint;
  private readonly ttlMs: number;
  private readonly now: () => number;
  private client: GoogleGenAI | undefined;
  /** The live cache of each discussion (cacheKey). */
  private readonly entries = new Map<string, CacheEntry>();
  /** Why a prefix could not be cached, by model + prefix hash: asking again would fail again. */
  private readonly refusals = new Map<string, string>();
  /** Without the schema, the JSON MIME type still goes. */
  private readonly schemaSupport = new SchemaSupport();

  constructor(private readonly options: GeminiAdapterOptions = {}) {
    this.model = options.model ?? GEMINI_DEFAULT_MODEL;
    this.endpoint = resolveEndpoint('gemini', options);
    this.ttlMs = Math.max(1, Math.round(options.cacheTtlSeconds ?? GEMINI_CACHE_TTL_MS / 1000)) * 1000;
    this.now = options.now ?? Date.now;
    this.label = `gemini ${this.model} @ ${this.endpoint.baseUrl}`;
  }

  /** Why the last attempt to cache this prefix failed, if it did. */
  refusalFor(context: BuiltContext, model = this.model): string | undefined {
    return this.refusals.get(stablePrefixHash(context, model));
  }

  async send(context: BuiltContext, options: SendOptions = {}): Promise<PromptCachedReply> {
    const volatile = requireMessage(this.name, context);
    const stable = context.text.slice(0, context.stablePrefixLength);
    const model = options.model ?? this.model;
    const prefixHash = stablePrefixHash(context, model);
    const policy = effectivePolicy(this.options, options.cache);
    const key = policy.key;
    const base = { provider: this.name, ttlMs: this.ttlMs, prefixHash };
    const uncached = async (reason: string): Promise<PromptCachedReply> => {
      const response = await this.generateContent(model, volatile, { systemInstruction: stable || undefined }, options);
      return this.reply(response, model, { ...base, mode: 'off', fallbackReason: reason }, false);
    };
    if (!stable.trim()) return uncached('the context has no stable prefix');
    if (policy.mode === 'implicit') {
      // A harvest batch: Gemini's implicit cache reuses the system instruction by itself, while a
      // cachedContent would cost a call and an hour of storage for a prefix read a few times.
      const response = await this.generateContent(model, volatile, { systemInstruction: stable }, options);
      return this.reply(response, model, { provider: this.name, mode: 'implicit', prefixHash }, false);
    }
    if (policy.disabled) {
      // Turning caching off also stops paying for the storage of the discussion's cache.
      const stale = this.entries.get(key);
      this.entries.delete(key);
      if (stale && this.now() < stale.expiresAt) await this.remove(stale.name).catch(() => false);
      return uncached('caching is disabled for this discussion');
    }
    const refusal = this.refusals.get(prefixHash);
    if (refusal) return uncached(refusal);

    let entry = await this.usableEntry(key, prefixHash, policy.state);
    let created = false;
    if (!entry) {
      const made = await this.create(key, model, prefixHash, stable, options);
      if (typeof made === 'string') return uncached(made);
      entry = made;
      created = true;
    }
    let response: GenerateContentResponse;
    try {
      response = await this.generateContent(model, volatile, { cachedContent: entry.name }, options);
    } catch (error) {
      if (created || !isMissingCache(error)) throw error;
      // Deleted or expired on the server before our clock said so: create it again, once.
      this.entries.delete(key);
      const made = await this.create(key, model, prefixHash, stable, options);
      if (typeof made === 'string') return uncached(made);
      entry = made;
      created = true;
      response = await this.generateContent(model, volatile, { cachedContent: entry.name }, options);
    }
    return this.reply(response, model, { ...base, mode: 'explicit', expiresAt: entry.expiresAt, cacheName: entry.name }, created);
  }

  generate(request: ModelRequest): Promise<ModelReply> {
    return generateThroughContext(this, request);
  }

  /** Deletes the discussion's cachedContent; false when there was none or it was already gone. */
  async invalidate(state?: DiscussionCacheState): Promise<boolean> {
    const key = state?.discussionId ?? 'default';
    const entry = this.entries.get(key) ?? this.adopt(state);
    this.entries.delete(key);
    return entry ? this.remove(entry.name) : false;
  }

  /** The discussion's cache if it matches this prefix (and model) and has time left; stale ones are deleted. */
  private async usableEntry(key: string, prefixHash: string, state?: DiscussionCacheState): Promise<CacheEntry | undefined> {
    const entry = this.entries.get(key) ?? this.adopt(state);
    if (!entry) return undefined;
    const margin = this.options.expiryMarginMs ?? DEFAULT_EXPIRY_MARGIN_MS;
    // The user's [Invalidate] recorded only in the state (pure invalidate()) drops the cache too.
    // Other causes are recorded after the call that already replaced the cache, so they are not checked.
    const invalidated = state?.invalidatedBy === 'user' && state.lastInvalidated !== undefined && state.lastInvalidated > entry.createdAt;
    if (entry.prefixHash === prefixHash && !invalidated && this.now() < entry.expiresAt - margin) {
      this.entries.set(key, entry);
      return entry;
    }
    this.entries.delete(key);
    // A replaced prefix would otherwise be billed for storage until its TTL runs out.
    if (this.now() < entry.expiresAt) await this.remove(entry.name).catch(() => false);
    return undefined;
  }

  /** The cache named by a persisted state (after a reload), when it was Gemini's. */
  private adopt(state?: DiscussionCacheState): CacheEntry | undefined {
    if (!state || state.provider !== this.name || !state.cacheName || !state.prefixHash || state.expiresAt === undefined) return undefined;
    return { name: state.cacheName, prefixHash: state.prefixHash, createdAt: state.cachedAt ?? 0, expiresAt: state.expiresAt };
  }

  /** Creates the cachedContent; returns the refusal reason instead when the API declines it. */
  private async create(key: string, model: string, prefixHash: string, stable: string, options: SendOptions): Promise<CacheEntry | string> {
    const client = this.sdk();
    let created: CachedContent;
    try {
      created = await runProviderCall(this.name, controlRequest(options), this.options, this.errorContext(), ({ signal, timeoutMs }) =>
        client.caches.create({
          model,
          config: {
            systemInstruction: stable,
            ttl: `${this.ttlMs / 1000}s`,
            displayName: 'lore-context',
            abortSignal: signal,
            httpOptions: { timeout: timeoutMs },
          },
        }),
      );
    } catch (error) {
      // Only a rejection of this request is a reason to go uncached; auth, network and rate
      // limits would fail the turn anyway and must be reported as such.
      if (!(error instanceof ProviderError) || error.kind !== 'bad-request') throw error;
      const reason = /too small|min_total_token_count|minimum/i.test(error.message)
        ? `the stable prefix is below Gemini's minimum size for a cache (${error.message})`
        : `Gemini did not create a cache (${error.message})`;
      rememberBounded(this.refusals, prefixHash, reason);
      return reason;
    }
    if (!created.name) return 'Gemini created a cache without a name';
    const expiry = created.expireTime ? Date.parse(created.expireTime) : Number.NaN;
    const entry: CacheEntry = {
      name: created.name,
      prefixHash,
      createdAt: this.now(),
      expiresAt: Number.isFinite(expiry) ? expiry : this.now() + this.ttlMs,
    };
    this.entries.set(key, entry);
    return entry;
  }

  /** Deletes a cachedContent; a 403/404 means it is already gone. */
  private async remove(name: string): Promise<boolean> {
    const client = this.sdk();
    try {
      await runProviderCall(this.name, controlRequest({}), this.options, this.errorContext(), ({ signal, timeoutMs }) =>
        client.caches.delete({ name, config: { abortSignal: signal, httpOptions: { timeout: timeoutMs } } }),
      );
      return true;
    } catch (error) {
      if (error instanceof ProviderError && (error.status === 403 || error.status === 404)) return false;
      throw error;
    }
  }

  private generateContent(
    model: string,
    volatile: string,
    where: { cachedContent?: string; systemInstruction?: string },
    options: SendOptions,
  ): Promise<GenerateContentResponse> {
    const client = this.sdk();
    const maxOutputTokens = options.maxOutputTokens ?? this.options.maxOutputTokens;
    const call = (schema: ReplySchema | undefined): Promise<GenerateContentResponse> =>
      runProviderCall(this.name, controlRequest(options), this.options, this.errorContext(), ({ signal, timeoutMs }) =>
        client.models.generateContent({
          model,
          contents: [{ role: 'user', parts: [{ text: volatile }] }],
          config: {
            ...where,
            abortSignal: signal,
            httpOptions: { timeout: timeoutMs },
            ...(maxOutputTokens ? { maxOutputTokens } : {}),
            ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
            // JSON mode alone already makes a fenced or chatty reply (a wasted retry) much less likely.
            ...(options.replySchema ? { responseMimeType: 'application/json' } : {}),
            ...(schema ? { responseJsonSchema: schema.schema } : {}),
          },
        }),
      );
    return this.schemaSupport.run(options.replySchema, call);
  }

  private reply(response: GenerateContentResponse, model: string, cache: CacheCallInfo, created: boolean): PromptCachedReply {
    const usage = accountUsage(this.name, response.usageMetadata);
    // The tokens of a cache created this turn were written by this turn, as Anthropic counts them.
    return { text: response.text ?? '', model: response.modelVersion || model, usage: created ? asCacheWrite(usage) : usage, cache };
  }

  private sdk(): GoogleGenAI {
    const apiKey = requireKey(this.endpoint);
    // vertexai: false keeps GOOGLE_GENAI_USE_VERTEXAI in the environment from switching backends.
    // Without retryOptions the SDK does not retry at all; one quick retry matches the others.
    this.client ??= new (genaiSdk().GoogleGenAI)({
      apiKey,
      vertexai: false,
      httpOptions: { baseUrl: this.endpoint.baseUrl, retryOptions: { attempts: SDK_MAX_RETRIES + 1, initialDelay: RETRY_INITIAL_DELAY_S } },
    });
    return this.client;
  }

  private errorContext(): { endpoint: string; authHint: string; secret?: string } {
    return { endpoint: this.endpoint.baseUrl, authHint: authHint(this.endpoint), secret: this.endpoint.apiKey };
  }
}

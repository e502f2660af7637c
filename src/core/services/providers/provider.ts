import type { DiscussionCacheState } from '../promptCache/cacheState';

/**
 * The contract every model provider implements (rules, openai, anthropic, gemini, ollama, and in
 * VS Code the Language Model API). A request is split into a stable part (the instructions,
 * identical across a batch, so provider prompt caches can reuse it) and a volatile part (the
 * conversation), which is the order providers must send them in.
 */

/** harvest and summarize: a conversation; tidy: judging whether a store's items say the same or correct each other. */
export type ModelTask = 'harvest' | 'summarize' | 'tidy';

export interface ModelRequest {
  task: ModelTask;
  /** Stable instructions: the harvest or summarize prompt. Sent first. */
  instructions: string;
  /** Volatile content: the rendered conversation (or a chunk of it). Sent after instructions. */
  content: string;
  /** Extra volatile text after the content, e.g. the retry suffix on a second attempt. */
  suffix?: string;
  /** Overrides the provider's default model. */
  model?: string;
  /** Aborts the call (user cancellation). */
  signal?: AbortSignal;
  /** Per-call timeout in milliseconds. */
  timeoutMs?: number;
  /** How this call uses the provider's prompt cache (default: implicit, keyed by the task). */
  cache?: CachePolicy;
  /** The shape the reply must have, for providers with structured output. */
  replySchema?: ReplySchema;
}

/**
 * How one call uses a provider's prompt cache; a policy of the call, not of the client, so the
 * harvest and chat share one adapter per vendor.
 */
export interface CachePolicy {
  /**
   * - `explicit`: the stable prefix may become a provider-side cache resource with a TTL (Gemini's
   *   cachedContent), worth it for a discussion that comes back;
   * - `implicit`: the prefix is placed (and on Anthropic marked) so the provider's own cache can
   *   reuse it, and nothing is created: a harvest batch;
   * - `off`: no markers, no resources.
   */
  mode: 'explicit' | 'implicit' | 'off';
  /** The discussion's cache state: a disabled state means `off`; Gemini re-adopts the resource it names. */
  state?: DiscussionCacheState;
  /** Key of the adapter's per-discussion bookkeeping (default: state.discussionId, else 'default'). */
  key?: string;
}

/** A JSON Schema the reply must satisfy (generated from a zod schema, see harvestReplySchema). */
export interface ReplySchema {
  /** A name the APIs that want one show to the model, `[a-zA-Z0-9_-]`. */
  name: string;
  schema: Record<string, unknown>;
}

/** Token counts of one call, as the provider reported them. */
export interface TokenUsage {
  /** All prompt tokens, including those read from or written to the provider's prompt cache. */
  inputTokens?: number;
  outputTokens?: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
}

export interface ModelReply {
  text: string;
  model?: string;
  usage?: TokenUsage;
}

export interface Provider {
  /** Registry name: 'rules', 'openai', 'anthropic', 'gemini', 'ollama', 'vscode-lm'. */
  readonly name: string;
  /** What the user sees, e.g. "openai (gpt-4o-mini at http://127.0.0.1:8080/v1)". */
  readonly label: string;
  /** True when no network or model is involved (the rules extractor). */
  readonly offline: boolean;
  /** The model it calls when a request names none, where known (a harvest's budget prices its estimate with it). */
  readonly defaultModel?: string;
  generate(request: ModelRequest): Promise<ModelReply>;
}

/** Settings shared by the direct providers; endpoints and keys resolve as endpoints.ts says. */
export interface ProviderOptions {
  model?: string;
  baseUrl?: string;
  apiKey?: string;
  timeoutMs?: number;
  /** Environment to read keys and base URLs from (defaults to process.env). */
  env?: NodeJS.ProcessEnv;
}

export type ProviderErrorKind = 'unavailable' | 'auth' | 'rate-limit' | 'server' | 'timeout' | 'cancelled' | 'bad-request';

/** A failure talking to a provider, classified so the harvest can record a clear error. */
export class ProviderError extends Error {
  constructor(
    readonly provider: string,
    readonly kind: ProviderErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(`${provider}: ${message}`);
    this.name = 'ProviderError';
  }
}

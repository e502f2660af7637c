/**
 * The contract every model provider implements (rules, openai, anthropic, gemini, ollama, and in
 * VS Code the Language Model API). A request is split into a stable part (the instructions,
 * identical across a batch, so provider prompt caches can reuse it) and a volatile part (the
 * conversation), which is the order providers must send them in.
 */

export type ModelTask = 'harvest' | 'summarize';

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
  generate(request: ModelRequest): Promise<ModelReply>;
}

/** Settings shared by the direct providers; keys come from the usual environment variables. */
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

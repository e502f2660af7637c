/**
 * Google Gemini API through the official `@google/genai` SDK.
 */

import { GoogleGenAI, type GenerateContentResponseUsageMetadata } from '@google/genai';
import type { ModelReply, ModelRequest, Provider, ProviderOptions, TokenUsage } from './provider';
import { NO_KEY_PLACEHOLDER, SDK_MAX_RETRIES, firstEnv, runProviderCall } from './providerCall';
import { missingKeyError } from './providerErrors';

/** Model used when neither the options nor the request name one. */
export const GEMINI_DEFAULT_MODEL = 'gemini-2.5-flash';
const DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com';
const KEY_VARS = ['GEMINI_API_KEY', 'GOOGLE_API_KEY'] as const;
// GOOGLE_GEMINI_BASE_URL is the SDK's own variable; read here so options.env governs both.
const BASE_URL_VARS = ['GEMINI_BASE_URL', 'GOOGLE_GEMINI_BASE_URL'] as const;
/** First backoff of the SDK's retry, in seconds (the SDK's default of 1 s doubles with jitter). */
const RETRY_INITIAL_DELAY_S = 0.5;

/**
 * Provider for Gemini models. The instructions are the system instruction, which Gemini's
 * implicit caching can reuse across a batch; the conversation is the user content.
 */
export class GeminiProvider implements Provider {
  readonly name = 'gemini';
  readonly offline = false;
  readonly label: string;
  private readonly model: string;
  private readonly baseUrl: string;
  private readonly apiKey: string | undefined;
  private readonly customEndpoint: boolean;
  private client: GoogleGenAI | undefined;

  constructor(private readonly options: ProviderOptions = {}) {
    const env = options.env ?? process.env;
    this.model = options.model ?? GEMINI_DEFAULT_MODEL;
    const custom = options.baseUrl ?? firstEnv(env, BASE_URL_VARS);
    this.customEndpoint = custom !== undefined;
    this.baseUrl = (custom ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    this.apiKey = options.apiKey ?? firstEnv(env, KEY_VARS) ?? (this.customEndpoint ? NO_KEY_PLACEHOLDER : undefined);
    this.label = `gemini ${this.model} @ ${this.baseUrl}`;
  }

  async generate(request: ModelRequest): Promise<ModelReply> {
    if (!this.apiKey) throw missingKeyError(this.name, KEY_VARS, BASE_URL_VARS[0]);
    // vertexai: false keeps GOOGLE_GENAI_USE_VERTEXAI in the environment from switching backends.
    this.client ??= new GoogleGenAI({
      apiKey: this.apiKey,
      vertexai: false,
      httpOptions: {
        baseUrl: this.baseUrl,
        // Without retryOptions the SDK does not retry at all; one quick retry matches the others.
        retryOptions: { attempts: SDK_MAX_RETRIES + 1, initialDelay: RETRY_INITIAL_DELAY_S },
      },
    });
    const client = this.client;
    const model = request.model ?? this.model;
    const authHint = this.customEndpoint
      ? `check GEMINI_API_KEY, if the server at ${this.baseUrl} needs a key`
      : 'check that GEMINI_API_KEY (or GOOGLE_API_KEY) holds a valid key';
    return runProviderCall(this.name, request, this.options, { endpoint: this.baseUrl, authHint }, async ({ signal, timeoutMs }) => {
      const response = await client.models.generateContent({
        model,
        contents: [{ role: 'user', parts: [{ text: request.content + (request.suffix ?? '') }] }],
        config: {
          systemInstruction: request.instructions,
          abortSignal: signal,
          httpOptions: { timeout: timeoutMs },
          // JSON mode makes a fenced or chatty reply (a wasted retry) much less likely.
          ...(request.task === 'harvest' ? { responseMimeType: 'application/json' } : {}),
        },
      });
      return { text: response.text ?? '', model: response.modelVersion || model, usage: usageOf(response.usageMetadata) };
    });
  }
}

/** Gemini counts cached tokens inside promptTokenCount and bills thinking as output. */
function usageOf(usage: GenerateContentResponseUsageMetadata | undefined): TokenUsage | undefined {
  if (!usage) return undefined;
  const thoughts = usage.thoughtsTokenCount ?? 0;
  return {
    inputTokens: usage.promptTokenCount,
    outputTokens: usage.candidatesTokenCount === undefined && !thoughts ? undefined : (usage.candidatesTokenCount ?? 0) + thoughts,
    cacheReadTokens: usage.cachedContentTokenCount,
  };
}

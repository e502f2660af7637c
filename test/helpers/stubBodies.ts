/**
 * Wire formats for the loopback stub servers: how each provider's HTTP API shapes a successful
 * reply and an error, and where each puts the system prompt and the user content of a request.
 * Shapes follow the providers' public API references (fields the SDKs read, plus the usual
 * extras), so the official SDKs parse them as they would the real thing.
 */

/** The provider APIs the stubs speak. */
export type StubKind = 'openai' | 'anthropic' | 'gemini' | 'ollama';

/** Token counts a reply step may force; unset ones are estimated (chars / 4). */
export interface StubUsage {
  /** All prompt tokens, cached ones included (Anthropic's input_tokens gets the uncached rest). */
  input?: number;
  output?: number;
  cacheRead?: number;
  cacheWrite?: number;
}

/** The parts of a request body the tests care about, the same for every kind. */
export interface StubPrompt {
  model: string;
  /** The system prompt / instructions, '' when absent. */
  system: string;
  /** The user message text (all user parts joined). */
  user: string;
}

/** A rough token count, deterministic so tests can assert it. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Where a kind puts the model, the system prompt and the user text. `pathModel` is the URL's. */
export function promptOf(kind: StubKind, body: any, pathModel?: string): StubPrompt {
  const model = String(pathModel ?? body?.model ?? '');
  if (kind === 'gemini') {
    return {
      model,
      system: partsText(
        body?.systemInstruction?.parts ?? (typeof body?.systemInstruction === 'string' ? [{ text: body.systemInstruction }] : []),
      ),
      user: (body?.contents ?? [])
        .filter((c: any) => c?.role !== 'model')
        .map((c: any) => partsText(c?.parts ?? []))
        .join('\n'),
    };
  }
  const messages: any[] = Array.isArray(body?.messages) ? body.messages : [];
  const textOf = (content: any): string =>
    typeof content === 'string' ? content : Array.isArray(content) ? content.map((p: any) => p?.text ?? '').join('') : '';
  const system =
    kind === 'anthropic'
      ? textOf(body?.system)
      : messages
          .filter((m) => m?.role === 'system' || m?.role === 'developer')
          .map((m) => textOf(m.content))
          .join('\n');
  const user = messages
    .filter((m) => m?.role === 'user')
    .map((m) => textOf(m.content))
    .join('\n');
  return { model, system, user };
}

function partsText(parts: any[]): string {
  return parts.map((p) => (typeof p?.text === 'string' ? p.text : '')).join('');
}

/** Input token split of one reply, simulating a prompt cache keyed on the system prompt. */
export interface UsageCounts {
  system: number;
  user: number;
  output: number;
  /** True when an earlier reply of this stub had the same system prompt. */
  cached: boolean;
  forced?: StubUsage;
}

/** A successful reply body, as the provider's API returns it. */
export function replyBody(kind: StubKind, prompt: StubPrompt, text: string, counts: UsageCounts, serial: number): unknown {
  const f = counts.forced ?? {};
  const total = f.input ?? counts.system + counts.user;
  const output = f.output ?? counts.output;
  const cacheRead = f.cacheRead ?? (counts.cached ? counts.system : 0);
  const cacheWrite = f.cacheWrite ?? (counts.cached ? 0 : counts.system);
  const created = 1_767_225_600 + serial;
  switch (kind) {
    case 'openai':
      return {
        id: `chatcmpl-stub${serial}`,
        object: 'chat.completion',
        created,
        model: prompt.model,
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: text, refusal: null, annotations: [] },
            logprobs: null,
            finish_reason: 'stop',
          },
        ],
        usage: {
          prompt_tokens: total,
          completion_tokens: output,
          total_tokens: total + output,
          prompt_tokens_details: { cached_tokens: cacheRead, audio_tokens: 0 },
          completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
        },
        service_tier: 'default',
        system_fingerprint: 'fp_stub',
      };
    case 'anthropic':
      return {
        id: `msg_stub${serial}`,
        type: 'message',
        role: 'assistant',
        model: prompt.model,
        content: [{ type: 'text', text }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: {
          // Anthropic's input_tokens excludes the cached and cache-written parts.
          input_tokens: Math.max(0, total - cacheRead - cacheWrite),
          cache_creation_input_tokens: cacheWrite,
          cache_read_input_tokens: cacheRead,
          output_tokens: output,
          service_tier: 'standard',
        },
      };
    case 'gemini':
      return {
        candidates: [{ content: { parts: [{ text }], role: 'model' }, finishReason: 'STOP', index: 0 }],
        usageMetadata: {
          promptTokenCount: total,
          candidatesTokenCount: output,
          totalTokenCount: total + output,
          // Like the real API, the field is absent when nothing came from the cache.
          ...(cacheRead ? { cachedContentTokenCount: cacheRead } : {}),
          promptTokensDetails: [{ modality: 'TEXT', tokenCount: total }],
        },
        modelVersion: prompt.model,
        responseId: `stub-response-${serial}`,
      };
    case 'ollama':
      return {
        model: prompt.model,
        created_at: new Date(created * 1000).toISOString(),
        message: { role: 'assistant', content: text },
        done_reason: 'stop',
        done: true,
        total_duration: 1_250_000_000,
        load_duration: 50_000_000,
        prompt_eval_count: total,
        prompt_eval_duration: 400_000_000,
        eval_count: output,
        eval_duration: 800_000_000,
      };
  }
}

const STATUS_TEXT: Record<number, [string, string, string]> = {
  // status: [openai type/code, anthropic type, gemini status]
  400: ['invalid_request_error', 'invalid_request_error', 'INVALID_ARGUMENT'],
  401: ['invalid_api_key', 'authentication_error', 'UNAUTHENTICATED'],
  403: ['permission_denied', 'permission_error', 'PERMISSION_DENIED'],
  404: ['model_not_found', 'not_found_error', 'NOT_FOUND'],
  429: ['rate_limit_exceeded', 'rate_limit_error', 'RESOURCE_EXHAUSTED'],
  500: ['server_error', 'api_error', 'INTERNAL'],
  503: ['server_error', 'api_error', 'UNAVAILABLE'],
  529: ['server_error', 'overloaded_error', 'UNAVAILABLE'],
};

const MESSAGES: Record<number, string> = {
  400: 'Invalid request.',
  401: 'Incorrect API key provided: sk-stub***. You can find your API key in your account settings.',
  403: 'Your key does not have access to this model.',
  404: 'The model does not exist or you do not have access to it.',
  429: 'Rate limit reached for requests. Please try again in 20s.',
  500: 'The server had an error while processing your request. Sorry about that!',
  503: 'The service is temporarily unavailable.',
  529: 'Overloaded',
};

/** An error body in the provider's own shape. */
export function errorBody(kind: StubKind, status: number, message = MESSAGES[status] ?? `HTTP ${status}`): unknown {
  const [openaiCode, anthropicType, geminiStatus] = STATUS_TEXT[status] ?? ['error', 'api_error', 'UNKNOWN'];
  switch (kind) {
    case 'openai':
      return {
        error: {
          message,
          type: status >= 500 ? 'server_error' : status === 429 ? 'requests' : 'invalid_request_error',
          param: null,
          code: openaiCode,
        },
      };
    case 'anthropic':
      return { type: 'error', error: { type: anthropicType, message }, request_id: 'req_stub' };
    case 'gemini':
      return { error: { code: status, message, status: geminiStatus } };
    case 'ollama':
      return { error: message };
  }
}

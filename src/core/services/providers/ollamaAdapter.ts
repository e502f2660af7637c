/**
 * A local Ollama server through the official `ollama` client, for the harvest and for chat. The
 * stable prefix is the system message; Ollama reuses the evaluated prompt of the previous call by
 * itself and reports no cache use, so every call is recorded as uncached. A reply schema goes as
 * the `format` field (Ollama's structured output).
 */
import { stablePrefixHash } from '../promptCache/cacheBreakpoints';
import { accountUsage } from '../promptCache/cacheUsage';
import type { BuiltContext } from '../promptCache/contextLayers';
import { VENDOR_ENDPOINTS, resolveEndpoint, type Endpoint } from './endpoints';
import {
  SchemaSupport,
  controlRequest,
  generateThroughContext,
  requireMessage,
  type AdapterOptions,
  type PromptCachedReply,
  type ModelAdapter,
  type SendOptions,
} from './modelAdapter';
import type { ModelReply, ModelRequest, ReplySchema } from './provider';
import { runProviderCall } from './providerCall';
import { ollamaSdk } from './vendorSdks';

/** Model used when neither the options nor the request name one. */
export const OLLAMA_DEFAULT_MODEL = VENDOR_ENDPOINTS.ollama.defaultModel;
/**
 * Context window asked of the server. Ollama's default is a few thousand tokens and it silently
 * drops the start of a longer prompt (the instructions); a transcript under the summarize
 * threshold (64 KB) plus instructions and reply fits in this. Fixed, because a per-call value
 * would make Ollama reload the model whenever it changed.
 */
export const OLLAMA_NUM_CTX = 32_768;

/**
 * Models served by Ollama. The client has no timeout or cancellation for non-streamed calls, so
 * each call gets a fetch bound to the call's AbortSignal.
 */
export class OllamaAdapter implements ModelAdapter {
  readonly name = 'ollama';
  readonly offline = false;
  readonly label: string;
  private readonly model: string;

  /** The model a request without one is sent to. */
  get defaultModel(): string {
    return this.model;
  }
  private readonly endpoint: Endpoint;
  /** An older Ollama rejects a schema as `format`; plain JSON mode still goes. */
  private readonly schemaSupport = new SchemaSupport();

  constructor(private readonly options: AdapterOptions = {}) {
    this.model = options.model ?? OLLAMA_DEFAULT_MODEL;
    this.endpoint = resolveEndpoint('ollama', options);
    this.label = `ollama ${this.model} @ ${this.endpoint.baseUrl}`;
  }

  async send(context: BuiltContext, options: SendOptions = {}): Promise<PromptCachedReply> {
    const user = requireMessage(this.name, context);
    const stable = context.text.slice(0, context.stablePrefixLength);
    const model = options.model ?? this.model;
    const errorContext = {
      endpoint: this.endpoint.baseUrl,
      authHint: 'check the proxy in front of Ollama and its credentials',
      unreachableHint: 'is Ollama running? Start it with `ollama serve`, or point OLLAMA_HOST / --base-url at it',
    };
    const maxTokens = options.maxOutputTokens ?? this.options.maxOutputTokens;
    const chat = (schema: ReplySchema | undefined) =>
      runProviderCall(this.name, controlRequest(options), this.options, errorContext, async ({ signal }) => {
        const client = new (ollamaSdk().Ollama)({ host: this.endpoint.baseUrl, fetch: boundFetch(signal) });
        return client.chat({
          model,
          stream: false,
          messages: [...(stable ? [{ role: 'system', content: stable }] : []), { role: 'user', content: user }],
          // The schema where the server takes one, else JSON mode for any request that wants JSON.
          ...(schema ? { format: schema.schema } : options.replySchema ? { format: 'json' } : {}),
          options: {
            num_ctx: OLLAMA_NUM_CTX,
            ...(maxTokens ? { num_predict: maxTokens } : {}),
            ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
          },
        });
      });
    const response = await this.schemaSupport.run(options.replySchema, chat);
    return {
      text: response.message?.content ?? '',
      model: response.model || model,
      usage: accountUsage(this.name, response),
      cache: {
        provider: this.name,
        mode: 'off',
        prefixHash: stablePrefixHash(context, model),
        fallbackReason: 'Ollama reports no prompt cache use',
      },
    };
  }

  generate(request: ModelRequest): Promise<ModelReply> {
    return generateThroughContext(this, request);
  }

  /** Ollama's prompt reuse is internal to the server; there is nothing to evict. */
  async invalidate(): Promise<boolean> {
    return false;
  }
}

/** A fetch that aborts with `signal` as well as with whatever signal the client passes. */
function boundFetch(signal: AbortSignal): typeof fetch {
  return (input, init) => fetch(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, signal]) : signal });
}

/**
 * A local Ollama server through the official `ollama` client.
 */

import { Ollama } from 'ollama';
import type { ModelReply, ModelRequest, Provider, ProviderOptions } from './provider';
import { firstEnv, runProviderCall } from './providerCall';

/** Model used when neither the options nor the request name one. */
export const OLLAMA_DEFAULT_MODEL = 'llama3.2';
const DEFAULT_HOST = 'http://127.0.0.1:11434';
/**
 * Context window asked of the server. Ollama's default is a few thousand tokens and it silently
 * drops the start of a longer prompt (the instructions); a transcript under the summarize
 * threshold (64 KB) plus instructions and reply fits in this. Fixed, because a per-call value
 * would make Ollama reload the model whenever it changed.
 */
export const OLLAMA_NUM_CTX = 32_768;

/**
 * Provider for models served by Ollama. The client has no timeout or cancellation for
 * non-streamed calls, so each call gets a fetch bound to the call's AbortSignal.
 */
export class OllamaProvider implements Provider {
  readonly name = 'ollama';
  readonly offline = false;
  readonly label: string;
  private readonly model: string;
  private readonly host: string;

  constructor(private readonly options: ProviderOptions = {}) {
    const env = options.env ?? process.env;
    this.model = options.model ?? OLLAMA_DEFAULT_MODEL;
    this.host = (options.baseUrl ?? firstEnv(env, ['OLLAMA_HOST']) ?? DEFAULT_HOST).replace(/\/+$/, '');
    this.label = `ollama ${this.model} @ ${this.host}`;
  }

  async generate(request: ModelRequest): Promise<ModelReply> {
    const model = request.model ?? this.model;
    const context = {
      endpoint: this.host,
      authHint: 'check the proxy in front of Ollama and its credentials',
      unreachableHint: 'is Ollama running? Start it with `ollama serve`, or point OLLAMA_HOST / --base-url at it',
    };
    return runProviderCall(this.name, request, this.options, context, async ({ signal }) => {
      const client = new Ollama({ host: this.host, fetch: boundFetch(signal) });
      const response = await client.chat({
        model,
        stream: false,
        messages: [
          { role: 'system', content: request.instructions },
          { role: 'user', content: request.content + (request.suffix ?? '') },
        ],
        ...(request.task === 'harvest' ? { format: 'json' } : {}),
        options: { num_ctx: OLLAMA_NUM_CTX },
      });
      return {
        text: response.message?.content ?? '',
        model: response.model || model,
        usage: { inputTokens: response.prompt_eval_count, outputTokens: response.eval_count },
      };
    });
  }
}

/** A fetch that aborts with `signal` as well as with whatever signal the client passes. */
function boundFetch(signal: AbortSignal): typeof fetch {
  return (input, init) => fetch(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, signal]) : signal });
}

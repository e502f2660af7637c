/**
 * Optional embeddings for hybrid search, through the official SDKs: OpenAI (and any
 * OpenAI-compatible `/v1/embeddings` server via a base URL), Gemini (`batchEmbedContents`) and
 * Ollama (`/api/embed`). Every provider takes a base URL, so tests run the real client code
 * against loopback stubs.
 */
import type { GoogleGenAI } from '@google/genai';
import type { OpenAI } from 'openai';
import { redactKey, requireKey, resolveEndpoint } from '../providers/endpoints';
import { genaiSdk, ollamaSdk, openaiSdk } from '../providers/vendorSdks';
import { redactSecrets } from '../../model/safety/redact';

/** Read before each vendor's own base URL variables: embeddings may live on another server than chat. */
const EMBED_BASE_URL_VARS = ['LORE_EMBED_BASE_URL'] as const;

const EMBEDDING_PROVIDERS = ['openai', 'gemini', 'ollama'] as const;
export type EmbeddingProviderName = (typeof EMBEDDING_PROVIDERS)[number];

/** Default models: small, cheap, and what each provider documents for retrieval. */
const DEFAULT_EMBEDDING_MODELS: Record<EmbeddingProviderName, string> = {
  openai: 'text-embedding-3-small',
  gemini: 'gemini-embedding-001',
  ollama: 'nomic-embed-text',
};

/** Texts per request (Gemini's batch limit is 100). */
export const EMBED_BATCH_SIZE = 64;
/** Longest text sent; transcript chunks are far below, this guards hand-written giants. */
const MAX_EMBED_CHARS = 8000;
const DEFAULT_EMBED_TIMEOUT_MS = 60_000;

export interface EmbeddingOptions {
  provider: EmbeddingProviderName;
  model?: string;
  baseUrl?: string;
  apiKey?: string;
  timeoutMs?: number;
  /** Environment for keys and base URLs (defaults to process.env). */
  env?: NodeJS.ProcessEnv;
}

/** Turns texts into vectors. */
export interface Embedder {
  readonly provider: EmbeddingProviderName;
  readonly model: string;
  /** What the user sees, e.g. "openai text-embedding-3-small @ http://127.0.0.1:8080/v1". */
  readonly label: string;
  /** One vector per text, in order. Rejects with a readable message on failure. */
  embed(texts: string[]): Promise<Float32Array[]>;
}

/** Creates an embedder for a provider. */
export function createEmbedder(options: EmbeddingOptions): Embedder {
  const model = options.model ?? DEFAULT_EMBEDDING_MODELS[options.provider];
  const timeoutMs = options.timeoutMs ?? DEFAULT_EMBED_TIMEOUT_MS;
  const endpoint = resolveEndpoint(options.provider, options, EMBED_BASE_URL_VARS);
  switch (options.provider) {
    case 'openai': {
      const baseURL = endpoint.baseUrl;
      let client: OpenAI | undefined;
      return wrap('openai', model, endpoint.baseUrl, endpoint.apiKey, async (texts) => {
        client ??= new (openaiSdk().OpenAI)({ apiKey: requireKey(endpoint), baseURL, maxRetries: 1, timeout: timeoutMs });
        // encoding_format float: OpenAI-compatible servers do not all speak the SDK's default base64.
        const response = await client.embeddings.create({ model, input: texts, encoding_format: 'float' });
        return [...response.data].sort((a, b) => a.index - b.index).map((d) => d.embedding as number[]);
      });
    }
    case 'gemini': {
      const baseUrl = endpoint.baseUrl;
      let client: GoogleGenAI | undefined;
      return wrap('gemini', model, baseUrl, endpoint.apiKey, async (texts) => {
        client ??= new (genaiSdk().GoogleGenAI)({
          apiKey: requireKey(endpoint),
          vertexai: false,
          httpOptions: { baseUrl, timeout: timeoutMs },
        });
        const response = await client.models.embedContent({ model, contents: texts });
        return (response.embeddings ?? []).map((e) => e.values ?? []);
      });
    }
    case 'ollama': {
      const host = endpoint.baseUrl;
      let client: import('ollama').Ollama | undefined;
      return wrap('ollama', model, host, undefined, async (texts) => {
        // The client has no timeout of its own; bound each request.
        client ??= new (ollamaSdk().Ollama)({
          host,
          fetch: (input, init) => fetch(input, { ...init, signal: AbortSignal.timeout(timeoutMs) }),
        });
        return (await client.embed({ model, input: texts })).embeddings;
      });
    }
  }
}

function wrap(
  provider: EmbeddingProviderName,
  model: string,
  endpoint: string,
  apiKey: string | undefined,
  call: (texts: string[]) => Promise<number[][]>,
): Embedder {
  const label = `${provider} ${model} @ ${endpoint}`;
  return {
    provider,
    model,
    label,
    async embed(texts) {
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += EMBED_BATCH_SIZE) {
        // The embedding-request boundary (documents and queries alike): redact, then cut.
        const batch = texts.slice(i, i + EMBED_BATCH_SIZE).map((t) => redactSecrets(t).slice(0, MAX_EMBED_CHARS));
        let vectors: number[][];
        try {
          vectors = await call(batch);
        } catch (error) {
          throw new Error(`${label}: ${redactKey(firstLine(error), apiKey)}`, { cause: error });
        }
        if (vectors.length !== batch.length || vectors.some((v) => !Array.isArray(v) || v.length === 0)) {
          throw new Error(`${label}: expected ${batch.length} embeddings, got ${vectors.length}`);
        }
        for (const v of vectors) out.push(Float32Array.from(v));
      }
      return out;
    },
  };
}

function firstLine(error: unknown): string {
  return String((error as Error)?.message ?? error)
    .split('\n')[0]
    .slice(0, 300);
}

/**
 * The embedder the environment asks for: LORE_EMBED_PROVIDER (openai | gemini | ollama), with
 * LORE_EMBED_MODEL and LORE_EMBED_BASE_URL. Undefined when none is set (lexical search).
 */
export function embedderFromEnv(env: NodeJS.ProcessEnv = process.env): Embedder | undefined {
  const provider = env.LORE_EMBED_PROVIDER?.trim().toLowerCase();
  if (!provider) return undefined;
  if (!(EMBEDDING_PROVIDERS as readonly string[]).includes(provider)) {
    throw new Error(`LORE_EMBED_PROVIDER must be one of ${EMBEDDING_PROVIDERS.join(', ')}, not "${provider}"`);
  }
  return createEmbedder({ provider: provider as EmbeddingProviderName, model: env.LORE_EMBED_MODEL?.trim() || undefined, env });
}

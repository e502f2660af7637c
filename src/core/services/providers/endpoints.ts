/**
 * Where each vendor is reached and with which key: environment variable names, default base URLs
 * and models, the override order (explicit option or flag or setting, then the environment, then
 * the default), whether a key is present, and how a key is kept out of messages. The adapters,
 * embeddings, the CLI and the extension all resolve endpoints here, so a variable name or a
 * default changes in one place.
 */
import { redactSecrets } from '../../model/safety/redact';
import { ProviderError } from './provider';

/** Vendors reached over the network (the rules extractor and vscode-lm have no endpoint). */
export const NETWORK_VENDORS = ['openai', 'anthropic', 'gemini', 'ollama'] as const;
export type NetworkVendor = (typeof NETWORK_VENDORS)[number];

/** What Lore knows about reaching one vendor. */
export interface VendorEndpoint {
  defaultBaseUrl: string;
  defaultModel: string;
  /** Environment variables holding the key, first non-empty wins; empty when the API takes none. */
  keyVars: readonly string[];
  /** Environment variables overriding the base URL, first non-empty wins. */
  baseUrlVars: readonly string[];
}

export const VENDOR_ENDPOINTS: Record<NetworkVendor, VendorEndpoint> = {
  openai: {
    defaultBaseUrl: 'https://api.openai.com/v1',
    defaultModel: 'gpt-4o-mini',
    keyVars: ['OPENAI_API_KEY'],
    baseUrlVars: ['OPENAI_BASE_URL'],
  },
  anthropic: {
    defaultBaseUrl: 'https://api.anthropic.com',
    defaultModel: 'claude-haiku-4-5',
    keyVars: ['ANTHROPIC_API_KEY'],
    baseUrlVars: ['ANTHROPIC_BASE_URL'],
  },
  // GOOGLE_GEMINI_BASE_URL is the SDK's own variable; read here so an explicit env governs both.
  gemini: {
    defaultBaseUrl: 'https://generativelanguage.googleapis.com',
    defaultModel: 'gemini-2.5-flash',
    keyVars: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
    baseUrlVars: ['GEMINI_BASE_URL', 'GOOGLE_GEMINI_BASE_URL'],
  },
  ollama: { defaultBaseUrl: 'http://127.0.0.1:11434', defaultModel: 'llama3.2', keyVars: [], baseUrlVars: ['OLLAMA_HOST'] },
};

/** Vendors whose API needs a key (the extension stores these in SecretStorage). */
export const KEYED_VENDORS = NETWORK_VENDORS.filter((v) => VENDOR_ENDPOINTS[v].keyVars.length > 0);

/** True when `name` is a network vendor. */
export function isNetworkVendor(name: string): name is NetworkVendor {
  return (NETWORK_VENDORS as readonly string[]).includes(name);
}

/** Key placeholder for custom endpoints: local OpenAI-compatible servers ignore it, SDKs demand one. */
export const NO_KEY_PLACEHOLDER = 'not-needed';

/** Overrides of one endpoint, from options, a CLI flag or a setting. */
export interface EndpointOverrides {
  baseUrl?: string;
  apiKey?: string;
  /** Environment to read keys and base URLs from (defaults to process.env). */
  env?: NodeJS.ProcessEnv;
}

/** A resolved endpoint. */
export interface Endpoint {
  vendor: NetworkVendor;
  /** Without a trailing slash. */
  baseUrl: string;
  /** Undefined when no key was found for an endpoint that needs one. */
  apiKey?: string;
  /** True when the base URL came from an override rather than the vendor's default. */
  customEndpoint: boolean;
}

/** The first non-empty value among the named environment variables. */
function firstEnv(env: NodeJS.ProcessEnv, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value) return value;
  }
  return undefined;
}

/**
 * Resolves base URL and key: the override first, then the environment (`extraBaseUrlVars` are
 * read before the vendor's own, e.g. LORE_EMBED_BASE_URL), then the default. A custom endpoint
 * gets a placeholder key when none is set, since a local server or proxy may need none.
 */
export function resolveEndpoint(
  vendor: NetworkVendor,
  overrides: EndpointOverrides = {},
  extraBaseUrlVars: readonly string[] = [],
): Endpoint {
  const spec = VENDOR_ENDPOINTS[vendor];
  const env = overrides.env ?? process.env;
  const custom = overrides.baseUrl?.trim() || firstEnv(env, [...extraBaseUrlVars, ...spec.baseUrlVars]);
  const customEndpoint = custom !== undefined;
  const needsKey = spec.keyVars.length > 0;
  const apiKey =
    overrides.apiKey?.trim() ||
    (needsKey ? firstEnv(env, spec.keyVars) : undefined) ||
    (customEndpoint || !needsKey ? NO_KEY_PLACEHOLDER : undefined);
  return { vendor, baseUrl: (custom ?? spec.defaultBaseUrl).replace(/\/+$/, ''), apiKey, customEndpoint };
}

/** True when a call to the endpoint has a credential to send (or needs none). */
export function hasKey(endpoint: Endpoint): boolean {
  return endpoint.apiKey !== undefined;
}

/** The key, or a ProviderError of kind 'auth' naming the variables to set. */
export function requireKey(endpoint: Endpoint): string {
  if (endpoint.apiKey !== undefined) return endpoint.apiKey;
  const spec = VENDOR_ENDPOINTS[endpoint.vendor];
  throw new ProviderError(
    endpoint.vendor,
    'auth',
    `no API key: set ${spec.keyVars.join(' or ')} in the environment (or pass --base-url / ${spec.baseUrlVars[0]} for a local server that needs no key)`,
  );
}

/** Advice after an authentication failure, naming the variable that holds the key. */
export function authHint(endpoint: Endpoint): string {
  if (endpoint.vendor === 'ollama') return 'check the proxy in front of Ollama and its credentials';
  const vars = VENDOR_ENDPOINTS[endpoint.vendor].keyVars;
  return endpoint.customEndpoint
    ? `check ${vars[0]}, if the server at ${endpoint.baseUrl} needs a key`
    : `check that ${vars[0]}${vars.length > 1 ? ` (or ${vars.slice(1).join(', ')})` : ''} holds a valid key`;
}

/**
 * Text safe to show or log: the endpoint's own key replaced (whatever its shape), then the
 * general secret rules applied, since a server may echo a key back in an error.
 */
export function redactKey(text: string, apiKey: string | undefined): string {
  const plain = apiKey && apiKey !== NO_KEY_PLACEHOLDER && apiKey.length >= 6 ? text.split(apiKey).join('[REDACTED:api-key]') : text;
  return redactSecrets(plain);
}

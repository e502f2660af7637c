/**
 * Turns whatever an SDK (or fetch) threw into a ProviderError whose kind the harvest can act on
 * and whose message tells the user what happened and what to do next.
 */

import { redactKey } from './endpoints';
import { ProviderError, type ProviderErrorKind } from './provider';

/** What the classifier needs to know beyond the thrown value, to write useful messages. */
export interface ErrorContext {
  /** Where the call went (base URL or host), for "cannot reach …" messages. */
  endpoint: string;
  /** Per-call deadline, for "no reply within …" messages. */
  timeoutMs: number;
  /** Advice after an auth failure, e.g. "check OPENAI_API_KEY". */
  authHint: string;
  /** Advice when the server cannot be reached, replacing the generic one. */
  unreachableHint?: string;
  /** The key sent, kept out of the message should the server or the SDK echo it. */
  secret?: string;
}

/** Network error codes (Node / undici) that mean the server could not be reached at all, in words. */
const UNREACHABLE_CODES: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'no such host',
  EAI_AGAIN: 'the host name could not be looked up',
  ECONNRESET: 'the connection was reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EPIPE: 'the connection was closed',
  UND_ERR_SOCKET: 'the connection was closed',
  UND_ERR_CLOSED: 'the connection was closed',
  CERT_HAS_EXPIRED: 'its certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its certificate is self-signed',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its certificate cannot be verified',
};
const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** Builds the error for a caller abort; shared so every provider words it the same way. */
export function cancelledError(provider: string): ProviderError {
  return new ProviderError(provider, 'cancelled', 'cancelled by the user before the model replied');
}

/** Builds the error for a call that outlived its deadline. */
export function timeoutError(provider: string, timeoutMs: number): ProviderError {
  return new ProviderError(
    provider,
    'timeout',
    `no reply within ${formatDuration(timeoutMs)}; the server may be overloaded or the model slow on this input — try again, or raise the timeout`,
  );
}

/** Classifies an error thrown by an SDK call. ProviderErrors pass through unchanged. */
export function toProviderError(provider: string, error: unknown, context: ErrorContext): ProviderError {
  if (error instanceof ProviderError) return error;
  const status = httpStatus(error);
  const result = status === undefined ? classifyTransport(provider, error, context) : classifyStatus(provider, status, error, context);
  // Server text is quoted into the message; a key echoed back must not reach a log or a ledger.
  result.message = redactKey(result.message, context.secret);
  result.cause = error;
  return result;
}

function classifyStatus(provider: string, status: number, error: unknown, context: ErrorContext): ProviderError {
  const detail = serverDetail(error)?.replace(/[.;:\s]+$/, '');
  const what = (label: string): string => `${label} (HTTP ${status})${detail ? `: ${detail}` : ''}`;
  const make = (kind: ProviderErrorKind, label: string, advice: string): ProviderError =>
    new ProviderError(provider, kind, `${what(label)}; ${advice}`, status);
  if (status === 401 || status === 403)
    return make('auth', status === 401 ? 'authentication failed' : 'permission denied', context.authHint);
  // Gemini answers a wrong key with 400 API_KEY_INVALID rather than 401.
  if (status === 400 && detail && /API[_ ]KEY[_ ]INVALID|API key not valid/i.test(detail)) {
    return make('auth', 'invalid API key', context.authHint);
  }
  if (status === 402) return make('auth', 'payment required', "check the account's billing and credit");
  if (status === 429) return make('rate-limit', 'rate limited', 'wait and run the harvest again');
  if (status === 408 || status === 504) return make('timeout', 'the server timed out', 'try again later, or with a smaller conversation');
  if (status === 529) return make('server', 'the provider is overloaded', 'wait and run the harvest again');
  if (status >= 500) return make('server', 'server error', 'the provider had a problem; try again later');
  if (status === 404) return make('bad-request', 'not found', 'check the model name and the base URL');
  if (status === 413) return make('bad-request', 'request too large', 'the conversation is too large for this endpoint');
  return make('bad-request', 'request rejected', 'check the model name, and that the conversation fits the model');
}

function classifyTransport(provider: string, error: unknown, context: ErrorContext): ProviderError {
  const codes = errorChain(error)
    .map((e) => e.code)
    .filter((c): c is string => typeof c === 'string');
  const text = errorChain(error)
    .map((e) => `${e.name ?? ''} ${e.message ?? ''}`)
    .join(' | ');
  if (codes.some((c) => TIMEOUT_CODES.has(c)) || /timed? ?out|TimeoutError/i.test(text)) {
    return timeoutError(provider, context.timeoutMs);
  }
  const unreachable = codes.find((c) => Object.hasOwn(UNREACHABLE_CODES, c));
  if (unreachable || /fetch failed|connection error|ConnectionError|socket hang up|network/i.test(text)) {
    const advice = context.unreachableHint ?? 'check the network, that the server is running, and the base URL';
    // fetch refuses a few ports outright (6000, 9, …) before trying to connect.
    const why = unreachable ? UNREACHABLE_CODES[unreachable] : /\bbad port\b/i.test(text) ? 'a port fetch never connects to' : undefined;
    return new ProviderError(provider, 'unavailable', `cannot reach ${context.endpoint}${why ? ` (${why})` : ''}; ${advice}`);
  }
  // An abort we did not ask for comes from an SDK's own per-attempt timer.
  if (/AbortError|aborted/i.test(text)) return timeoutError(provider, context.timeoutMs);
  const message = errorChain(error)[0]?.message ?? String(error);
  return new ProviderError(provider, 'bad-request', `unexpected error: ${clip(message)}`);
}

interface ErrorLike {
  name?: string;
  message?: string;
  code?: unknown;
  cause?: unknown;
}

/** The error and its causes (SDKs wrap fetch errors, which wrap socket errors). */
function errorChain(error: unknown): ErrorLike[] {
  const chain: ErrorLike[] = [];
  let current: unknown = error;
  while (current && typeof current === 'object' && chain.length < 5) {
    chain.push(current as ErrorLike);
    const next = (current as ErrorLike).cause;
    // undici reports connect failures of dual-stack hosts as an AggregateError of attempts.
    if (!next && current instanceof AggregateError && current.errors.length > 0) current = current.errors[0];
    else current = next;
  }
  return chain;
}

/** HTTP status of an SDK error: `status` (openai, anthropic, genai) or `status_code` (ollama). */
function httpStatus(error: unknown): number | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const record = error as { status?: unknown; status_code?: unknown };
  const status = typeof record.status === 'number' ? record.status : record.status_code;
  return typeof status === 'number' && status >= 400 && status <= 599 ? status : undefined;
}

/** The server's own explanation, short, from whichever field the SDK put it in. */
function serverDetail(error: unknown): string | undefined {
  const record = error as { apiMessage?: unknown; error?: unknown; message?: unknown };
  if (typeof record.apiMessage === 'string' && record.apiMessage) return clip(record.apiMessage);
  if (typeof record.error === 'string' && record.error) return clip(record.error);
  const bodyMessage = messageOf(record.error);
  if (bodyMessage) return clip(bodyMessage);
  if (typeof record.message !== 'string') return undefined;
  const brace = record.message.indexOf('{');
  if (brace >= 0) {
    try {
      const parsed = messageOf(JSON.parse(record.message.slice(brace)));
      if (parsed) return clip(parsed);
    } catch {
      // not JSON: fall through to the plain message
    }
  }
  const plain = record.message.replace(/^\d{3}\s*/, '').trim();
  return plain ? clip(plain) : undefined;
}

/** `{message}`, `{error: {message}}` or `{error: "text"}`, as the various APIs shape them. */
function messageOf(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const record = body as { message?: unknown; error?: unknown };
  if (typeof record.message === 'string' && record.message) return record.message;
  if (typeof record.error === 'string' && record.error) return record.error;
  if (record.error && typeof record.error === 'object') return messageOf(record.error);
  return undefined;
}

function clip(text: string, max = 240): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : flat.slice(0, max - 1) + '…';
}

function formatDuration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}

/**
 * Loopback HTTP stub servers that speak each model provider's real HTTP API, so the official
 * SDKs (and the CLI, through `--base-url`) can be tested without a network or a key.
 *
 * Routes and the `baseUrl` to pass as `--base-url` (or as ProviderOptions.baseUrl):
 *
 * | kind        | route                                         | baseUrl                    |
 * |-------------|-----------------------------------------------|----------------------------|
 * | `openai`    | `POST /v1/chat/completions` (any OpenAI-compatible server) | `http://127.0.0.1:PORT/v1` |
 * | `anthropic` | `POST /v1/messages`                           | `http://127.0.0.1:PORT`    |
 * | `gemini`    | `POST /v1beta/models/{model}:generateContent` | `http://127.0.0.1:PORT`    |
 * |             | (also `/v1/…`, the API version @google/genai 3 uses) |                            |
 * | `ollama`    | `POST /api/chat`                              | `http://127.0.0.1:PORT` (the host) |
 *
 * Each stub plays a script, one step per request to its route, in order:
 * - `{ reply: 'text' }`: a 200 with the model's text and usage (estimated, or `usage` to force);
 * - `{ status: 429 | 500 | 401 | …, body?, headers? }`: an error in the provider's own shape;
 * - `{ hang: true }`: never answers (until the client gives up or the stub closes);
 * - `(body, request) => step`: decides from the request, e.g. reply differently on a retry.
 * After the script, `whenExhausted` is played (default: a 400 saying the script ran out, which no
 * SDK retries). Every request to the route is recorded in `requests`, body parsed, with `prompt` giving the
 * model, system prompt and user text in a provider-neutral shape.
 *
 * @example
 * const stub = await startStub('openai', [{ reply: 'not json' }, { reply: '{"facts":[]}' }]);
 * // lore harvest --provider openai --base-url ${stub.baseUrl} …
 * assert.ok(stub.requests[1].prompt.user.endsWith(RETRY_SUFFIX));
 * await stub.close();
 */

import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { errorBody, estimateTokens, promptOf, replyBody, type StubKind, type StubPrompt, type StubUsage } from './stubBodies';

export type { StubKind, StubPrompt, StubUsage } from './stubBodies';

/** A request the stub received. */
export interface StubRequest {
  /** 0-based position among requests to the provider route. */
  index: number;
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** Parsed JSON body (undefined when the body was not JSON). */
  body: any;
  prompt: StubPrompt;
  /** Set when the client dropped the connection before the stub answered (abort, timeout). */
  droppedByClient: boolean;
}

/** One scripted answer. */
export type StubStep =
  | { reply: string; usage?: StubUsage; delayMs?: number }
  | { status: number; body?: unknown; headers?: Record<string, string> }
  | { hang: true }
  | ((body: any, request: StubRequest) => StubStep);

export interface StubOptions {
  /** Played for every request after the script runs out. */
  whenExhausted?: StubStep;
}

/** A running stub. */
export interface StubServer {
  kind: StubKind;
  /** The value a user would pass as `--base-url` for this provider. */
  baseUrl: string;
  port: number;
  /** Every request received, in order. */
  requests: StubRequest[];
  /** Stops the server, dropping hanging connections. */
  close(): Promise<void>;
}

/** Starts a stub for `kind` on 127.0.0.1 with a free port. */
export async function startStub(kind: StubKind, steps: StubStep[], options: StubOptions = {}): Promise<StubServer> {
  const script = [...steps];
  const requests: StubRequest[] = [];
  const seenSystems = new Set<string>();
  let served = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const path = (req.url ?? '/').split('?')[0];
      const pathModel = routeOf(kind, req.method ?? 'GET', path);
      if (pathModel === undefined) {
        sendJson(res, 404, errorBody(kind, 404, `stub: no route ${req.method} ${path} for ${kind}`));
        return;
      }
      let body: any;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        body = undefined;
      }
      const request: StubRequest = {
        index: requests.length,
        method: req.method ?? 'GET',
        path,
        headers: req.headers,
        body,
        prompt: promptOf(kind, body, pathModel || undefined),
        droppedByClient: false,
      };
      requests.push(request);
      res.on('close', () => {
        if (!res.writableFinished) request.droppedByClient = true;
      });
      let step: StubStep | undefined = script.shift() ?? options.whenExhausted;
      while (typeof step === 'function') step = step(body, request);
      if (!step) {
        sendJson(res, 400, errorBody(kind, 400, `stub: script exhausted, no step for request #${request.index + 1}`));
        return;
      }
      if ('hang' in step) return;
      if ('status' in step) {
        sendJson(res, step.status, step.body ?? errorBody(kind, step.status), step.headers);
        return;
      }
      const { reply, usage, delayMs } = step;
      const counts = {
        system: estimateTokens(request.prompt.system),
        user: estimateTokens(request.prompt.user),
        output: estimateTokens(reply),
        cached: seenSystems.has(request.prompt.system),
        forced: usage,
      };
      seenSystems.add(request.prompt.system);
      const payload = replyBody(kind, request.prompt, reply, counts, ++served);
      if (delayMs) setTimeout(() => sendJson(res, 200, payload), delayMs);
      else sendJson(res, 200, payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    kind,
    baseUrl: baseUrlFor(kind, port),
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A base URL for `kind` on a loopback port nothing listens on (for "connection refused"). */
export async function closedPortBaseUrl(kind: StubKind): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return baseUrlFor(kind, port);
}

/** The `--base-url` value for a stub of `kind` on `port`. */
export function baseUrlFor(kind: StubKind, port: number): string {
  return kind === 'openai' ? `http://127.0.0.1:${port}/v1` : `http://127.0.0.1:${port}`;
}

/** The model named in the path ('' when the model is in the body), or undefined: no route. */
function routeOf(kind: StubKind, method: string, path: string): string | undefined {
  if (method !== 'POST') return undefined;
  switch (kind) {
    case 'openai':
      return path === '/v1/chat/completions' || path === '/chat/completions' ? '' : undefined;
    case 'anthropic':
      return path === '/v1/messages' ? '' : undefined;
    case 'gemini': {
      const match = /^\/v1(?:beta|alpha)?\/models\/([^/:]+):generateContent$/.exec(path);
      return match ? decodeURIComponent(match[1]) : undefined;
    }
    case 'ollama':
      return path === '/api/chat' ? '' : undefined;
  }
}

function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/**
 * `lore mcp --http PORT`: Lore's MCP server over Streamable HTTP, bound to 127.0.0.1 only, so
 * several agents on one machine can share one server process (and one search index per store),
 * and so the official conformance suite, which speaks HTTP, can test it.
 *
 * Two eras share the one endpoint, /mcp:
 *   - a client that opens with `initialize` (revisions up to 2025-11-25) gets a session of its own:
 *     the SDK's StreamableHTTPServerTransport and a Lore server of its own, named by the
 *     Mcp-Session-Id header the SDK hands out, with the GET stream for notifications;
 *   - a request of revision 2026-07-28 (stateless: it names its revision in `_meta`) is served
 *     by one shared Lore server through StatelessExchange, with the revision's HTTP rules: the
 *     MCP-Protocol-Version header must match `_meta` (else 400, HeaderMismatch), an unknown
 *     revision is 400, an unknown method is 404.
 * A request whose Host or Origin is not this machine's loopback is refused with 403 (a web page
 * in a browser cannot reach the store through DNS rebinding).
 */
import * as http from 'node:http';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, isJSONRPCRequest, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import { LORE_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS, ProtocolEraTransport } from './protocolEras';
import { touches, type FollowedStore, type StoreChange } from './storeChanges';

/** The one path served. */
export const MCP_HTTP_PATH = '/mcp';
/** The largest request body read (as stdio's line limit). */
const MAX_BODY_BYTES = 10 * 1024 * 1024;
const VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
const CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities';
const SUBSCRIPTION_KEY = 'io.modelcontextprotocol/subscriptionId';
/** Methods of the initialize era that 2026-07-28 removed: a modern request for one is "not found". */
const REMOVED_METHODS = new Set(['initialize', 'ping', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe']);
/** HeaderMismatch in 2026-07-28: an HTTP header disagrees with the request body. */
const HEADER_MISMATCH = -32020;
/** UnsupportedProtocolVersionError in 2026-07-28. */
const UNSUPPORTED_PROTOCOL_VERSION = -32022;
/** How long a stateless request may take before it is answered with an error. */
const STATELESS_TIMEOUT_MS = 120_000;

/** A Lore server connected to one transport; `close` ends it. */
export type ServerFactory = () => {
  connect(transport: Transport): Promise<void>;
  close(): Promise<void> | void;
  /** The store the server serves, for `subscriptions/listen` streams. */
  store: FollowedStore;
};

export interface LoopbackHttpOptions {
  port: number;
  log?: (message: string) => void;
}

/** The hosts a loopback request may name (with the port the server listens on). */
function loopbackHosts(port: number): Set<string> {
  return new Set(['127.0.0.1', 'localhost', '[::1]'].map((host) => `${host}:${port}`));
}

/** Whether a browser's Origin is this machine (a page elsewhere must not reach the store). */
function loopbackOrigin(origin: string | undefined): boolean {
  if (origin === undefined) return true;
  try {
    return ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(origin).hostname);
  } catch {
    return false;
  }
}

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function errorReply(id: RequestId | null, code: number, message: string, data?: unknown): JSONRPCMessage {
  return { jsonrpc: '2.0', id, error: { code, message, ...(data === undefined ? {} : { data }) } } as unknown as JSONRPCMessage;
}

async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new Error(`the request is over the ${MAX_BODY_BYTES}-byte limit`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const isInitialize = (message: unknown): boolean => (message as { method?: unknown })?.method === 'initialize';

/** A message's `_meta`, if it has one. */
function metaOf(message: unknown): Record<string, unknown> | undefined {
  const meta = (message as { params?: { _meta?: unknown } })?.params?._meta;
  return meta && typeof meta === 'object' && !Array.isArray(meta) ? (meta as Record<string, unknown>) : undefined;
}

/** The revision a message names in `_meta`, if any. */
const metaVersion = (message: unknown): unknown => metaOf(message)?.[VERSION_KEY];

/** What a 2026-07-28 request lacks of the `_meta` every request must carry, if anything. */
function missingMeta(message: JSONRPCMessage): string | undefined {
  if (!isJSONRPCRequest(message)) return undefined;
  const meta = metaOf(message);
  if (!meta) return 'the request has no _meta';
  if (meta[VERSION_KEY] === undefined) return `_meta has no ${VERSION_KEY}`;
  const capabilities = meta[CAPABILITIES_KEY];
  if (!capabilities || typeof capabilities !== 'object' || Array.isArray(capabilities)) return `_meta has no ${CAPABILITIES_KEY} object`;
  return undefined;
}

/** The name a request's Mcp-Name header must repeat (revision 2026-07-28's standard headers), if any. */
function nameOf(message: JSONRPCMessage): string | undefined {
  if (!isJSONRPCRequest(message)) return undefined;
  const params = (message.params ?? {}) as Record<string, unknown>;
  const value =
    message.method === 'tools/call' || message.method === 'prompts/get'
      ? params.name
      : message.method === 'resources/read'
        ? params.uri
        : undefined;
  return typeof value === 'string' ? value : undefined;
}

/** How a request's Mcp-Method and Mcp-Name headers disagree with its body, if they do. */
function headerMismatch(req: http.IncomingMessage, message: JSONRPCMessage): string | undefined {
  if (!isJSONRPCRequest(message)) return undefined;
  const header = (name: string) => {
    const value = req.headers[name];
    return typeof value === 'string' ? value.trim() : undefined;
  };
  if (header('mcp-method') !== message.method)
    return `the Mcp-Method header (${header('mcp-method') ?? 'missing'}) is not the body's method ${message.method}`;
  const name = nameOf(message);
  if (name !== undefined && header('mcp-name') !== name)
    return `the Mcp-Name header (${header('mcp-name') ?? 'missing'}) is not the body's ${name}`;
  return undefined;
}

/** The notifications a `subscriptions/listen` asked for that Lore sends (its lists of tools and prompts never change). */
function agreedFilter(message: JSONRPCMessage): { resourcesListChanged?: true; resourceSubscriptions?: string[] } {
  const asked = ((message as { params?: { notifications?: Record<string, unknown> } }).params?.notifications ?? {}) as Record<
    string,
    unknown
  >;
  return {
    ...(asked.resourcesListChanged === true ? { resourcesListChanged: true as const } : {}),
    ...(Array.isArray(asked.resourceSubscriptions)
      ? { resourceSubscriptions: asked.resourceSubscriptions.filter((uri): uri is string => typeof uri === 'string') }
      : {}),
  };
}

/**
 * The transport of the shared server for stateless (2026-07-28) requests: each HTTP request's
 * message goes in under an id of the exchange's own (two clients may both send id 1), and its
 * response comes back to that HTTP request under the client's id.
 */
class StatelessExchange implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private next = 0;
  private readonly waiting = new Map<RequestId, { clientId: RequestId; answer: (message: JSONRPCMessage) => void }>();

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage, _options?: TransportSendOptions): Promise<void> {
    // Only responses go back: a stateless request gets its one answer (a notification the server
    // sends meanwhile, such as progress, has no stream to go on).
    if (!('id' in message) || message.id === undefined || !('result' in message || 'error' in message)) return;
    const waiting = this.waiting.get(message.id);
    if (!waiting) return;
    this.waiting.delete(message.id);
    waiting.answer({ ...message, id: waiting.clientId } as JSONRPCMessage);
  }

  async close(): Promise<void> {
    this.onclose?.();
  }

  /** Hands a request to the server and resolves with its response. */
  request(message: JSONRPCMessage & { id: RequestId }): Promise<JSONRPCMessage> {
    const id = `lore-http-${++this.next}`;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        resolve(errorReply(message.id, ErrorCode.RequestTimeout, 'Request timed out'));
      }, STATELESS_TIMEOUT_MS);
      this.waiting.set(id, {
        clientId: message.id,
        answer: (reply) => {
          clearTimeout(timer);
          resolve(reply);
        },
      });
      this.onmessage?.({ ...message, id });
    });
  }

  /** Hands a notification to the server. */
  notify(message: JSONRPCMessage): void {
    this.onmessage?.(message);
  }
}

/** The HTTP status 2026-07-28 gives a JSON-RPC reply. */
function statusOf(reply: JSONRPCMessage): number {
  if (!('error' in reply)) return 200;
  const code = (reply as { error: { code: number } }).error.code;
  if (code === ErrorCode.MethodNotFound) return 404;
  if (code === HEADER_MISMATCH || code === UNSUPPORTED_PROTOCOL_VERSION || code === -32021) return 400;
  return 200;
}

/** Serves MCP on http://127.0.0.1:PORT/mcp until `signal` aborts; resolves with the bound port once listening. */
export async function serveLoopbackHttp(
  createServer: ServerFactory,
  options: LoopbackHttpOptions,
): Promise<{ port: number; closed: Promise<void>; close(): Promise<void> }> {
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; server: ReturnType<ServerFactory> }>();
  const exchange = new StatelessExchange();
  let shared: ReturnType<ServerFactory> | undefined;
  let hosts = new Set<string>();

  const statelessServer = async (): Promise<ReturnType<ServerFactory>> => {
    if (!shared) {
      shared = createServer();
      await shared.connect(new ProtocolEraTransport(exchange));
    }
    return shared;
  };

  /**
   * `subscriptions/listen`: a stream that opens with the acknowledgement of what Lore agreed to
   * send, then carries the store's changes the client asked for, until the client goes.
   */
  const listen = async (
    req: http.IncomingMessage,
    res: http.ServerResponse,
    message: JSONRPCMessage & { id: RequestId },
  ): Promise<void> => {
    const { store } = await statelessServer();
    const filter = agreedFilter(message);
    const tag = { [SUBSCRIPTION_KEY]: message.id };
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const event = (notification: unknown) => res.write(`event: message\ndata: ${JSON.stringify(notification)}\n\n`);
    event({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications: filter, _meta: tag } });
    const off = store.changes.on((change: StoreChange) => {
      for (const uri of filter.resourceSubscriptions ?? [])
        if (touches(change, uri)) event({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri, _meta: tag } });
      if (change.listChanged && filter.resourcesListChanged)
        event({ jsonrpc: '2.0', method: 'notifications/resources/list_changed', params: { _meta: tag } });
    });
    req.once('close', off);
    res.once('close', off);
    await store.follow();
  };

  const stateful = async (req: http.IncomingMessage, res: http.ServerResponse, body: unknown): Promise<void> => {
    const server = createServer();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, server });
      },
    });
    transport.onclose = () => {
      const id = transport.sessionId;
      if (id && sessions.delete(id)) void server.close();
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const stateless = async (req: http.IncomingMessage, res: http.ServerResponse, message: JSONRPCMessage): Promise<void> => {
    const version = metaVersion(message);
    const header = req.headers['mcp-protocol-version'];
    const id = isJSONRPCRequest(message) ? message.id : null;
    if (version !== undefined && header !== undefined && header !== version) {
      sendJson(
        res,
        400,
        errorReply(id, HEADER_MISMATCH, `MCP-Protocol-Version header ${String(header)} does not match _meta ${String(version)}`),
      );
      return;
    }
    if (version !== undefined && !LORE_PROTOCOL_VERSIONS.includes(String(version))) {
      sendJson(
        res,
        400,
        errorReply(id, UNSUPPORTED_PROTOCOL_VERSION, `Unsupported protocol version: ${String(version)}`, {
          supported: [...LORE_PROTOCOL_VERSIONS],
          requested: String(version),
        }),
      );
      return;
    }
    const mismatch = headerMismatch(req, message);
    if (mismatch) {
      sendJson(res, 400, errorReply(id, HEADER_MISMATCH, `Header mismatch: ${mismatch}`));
      return;
    }
    const missing = missingMeta(message);
    if (missing) {
      sendJson(res, 400, errorReply(id, ErrorCode.InvalidParams, `Invalid params: ${missing}`));
      return;
    }
    if (isJSONRPCRequest(message) && REMOVED_METHODS.has(message.method)) {
      sendJson(
        res,
        404,
        errorReply(id, ErrorCode.MethodNotFound, `Method not found: ${message.method} is not part of revision 2026-07-28`),
      );
      return;
    }
    if (isJSONRPCRequest(message) && message.method === 'subscriptions/listen') return listen(req, res, message);
    await statelessServer();
    const to = exchange;
    if (!isJSONRPCRequest(message)) {
      to.notify(message);
      res.writeHead(202).end();
      return;
    }
    const reply = await to.request(message);
    sendJson(res, statusOf(reply), reply);
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (!hosts.has(req.headers.host ?? '') || !loopbackOrigin(req.headers.origin)) {
      sendJson(
        res,
        403,
        errorReply(null, ErrorCode.InvalidRequest, 'Forbidden: this server answers only this machine (loopback host and origin)'),
      );
      return;
    }
    if (url.pathname !== MCP_HTTP_PATH) {
      sendJson(res, 404, errorReply(null, ErrorCode.InvalidRequest, `Not found: MCP is served on ${MCP_HTTP_PATH}`));
      return;
    }
    const sessionId = req.headers['mcp-session-id'];
    const session = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (req.method !== 'POST') {
      if (session) await session.transport.handleRequest(req, res);
      else
        sendJson(res, 405, errorReply(null, ErrorCode.InvalidRequest, 'Method not allowed: POST a JSON-RPC message (or name a session)'));
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(await readBody(req));
    } catch (error) {
      sendJson(res, 400, errorReply(null, ErrorCode.ParseError, `Parse error: ${(error as Error).message}`));
      return;
    }
    if (session) return session.transport.handleRequest(req, res, body);
    if (typeof sessionId === 'string') {
      sendJson(res, 404, errorReply(null, ErrorCode.InvalidRequest, 'Session not found: initialize again'));
      return;
    }
    const modern =
      !Array.isArray(body) &&
      ((body as { method?: unknown })?.method === 'server/discover' ||
        metaVersion(body) !== undefined ||
        (MODERN_PROTOCOL_VERSIONS as readonly string[]).includes(String(req.headers['mcp-protocol-version'])));
    if (modern) return stateless(req, res, body as JSONRPCMessage);
    if (Array.isArray(body) ? body.some(isInitialize) : isInitialize(body)) return stateful(req, res, body);
    sendJson(res, 400, errorReply(null, ErrorCode.InvalidRequest, 'Bad Request: initialize first, or name the revision in _meta'));
  };

  const httpServer = http.createServer((req, res) => {
    handle(req, res).catch((error: Error) => {
      options.log?.(`lore mcp: an HTTP request failed (${error.message})`);
      sendJson(res, 500, errorReply(null, ErrorCode.InternalError, 'Internal error'));
    });
  });
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(options.port, '127.0.0.1', () => resolve());
  });
  const port = (httpServer.address() as AddressInfo).port;
  hosts = loopbackHosts(port);
  const closed = new Promise<void>((resolve) => httpServer.once('close', () => resolve()));
  return {
    port,
    closed,
    close: async () => {
      for (const { transport } of sessions.values()) await transport.close().catch(() => undefined);
      await shared?.close();
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}

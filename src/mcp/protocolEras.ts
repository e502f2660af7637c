/**
 * Serving MCP revision 2026-07-28 beside the older ones, over the same stdio process. The SDK
 * (1.32, the newest on npm) knows revisions up to 2025-11-25, which open with an `initialize`
 * handshake. Revision 2026-07-28 drops the handshake: a client may probe with `server/discover`,
 * and every request names its revision and capabilities in `_meta`; results carry `resultType`,
 * and list, read and discover results carry caching hints. This file adds that much around the
 * SDK's server, so that:
 *   - `initialize` (any older revision) is served by the SDK exactly as before;
 *   - `server/discover` answers with the supported revisions, capabilities, server info and
 *     instructions (so a dual-era client's probe finds a modern server);
 *   - a request whose `_meta` names 2026-07-28 is served by the same handlers, its result marked
 *     as the revision requires; one naming a revision Lore does not know gets
 *     UnsupportedProtocolVersionError (-32022) with the supported list.
 * Lore's server sends no requests of its own to a modern client (roots/list is only asked of a
 * client that declared the roots capability at initialize), as the revision requires.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  SUPPORTED_PROTOCOL_VERSIONS,
  isJSONRPCRequest,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type RequestId,
  type ServerCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

/** The revisions without an initialize handshake that Lore serves. */
export const MODERN_PROTOCOL_VERSIONS = ['2026-07-28'] as const;
/** Every revision Lore serves, newest first. */
export const LORE_PROTOCOL_VERSIONS: readonly string[] = [...MODERN_PROTOCOL_VERSIONS, ...SUPPORTED_PROTOCOL_VERSIONS];

const VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
const SERVER_INFO_KEY = 'io.modelcontextprotocol/serverInfo';
/** UnsupportedProtocolVersionError's code in 2026-07-28. */
const UNSUPPORTED_PROTOCOL_VERSION = -32022;

/**
 * Caching hints of the results that take them: what a server offers changes only with a new
 * Lore, what a store holds at any time (and belongs to one user).
 */
const CACHE_HINTS: Record<string, { ttlMs: number; cacheScope: 'public' | 'private' }> = {
  'server/discover': { ttlMs: 3_600_000, cacheScope: 'public' },
  'tools/list': { ttlMs: 3_600_000, cacheScope: 'public' },
  'prompts/list': { ttlMs: 3_600_000, cacheScope: 'public' },
  'resources/templates/list': { ttlMs: 3_600_000, cacheScope: 'public' },
  'resources/list': { ttlMs: 0, cacheScope: 'private' },
  'resources/read': { ttlMs: 0, cacheScope: 'private' },
  // The Skills extension's list and get (skills.ts): playbooks are store content, as reads are.
  'skills/list': { ttlMs: 0, cacheScope: 'private' },
  'skills/get': { ttlMs: 0, cacheScope: 'private' },
};

const DiscoverRequestSchema = z.object({ method: z.literal('server/discover'), params: z.object({}).passthrough().optional() });

/** Answers `server/discover` with what the SDK's server would say at initialize. */
export function registerDiscover(server: Server, info: { name: string; version: string }, instructions: string): void {
  // The SDK keeps the merged capabilities private; they are what initialize answers with.
  const capabilities = () => (server as unknown as { getCapabilities(): ServerCapabilities }).getCapabilities();
  server.setRequestHandler(DiscoverRequestSchema, () => ({
    supportedVersions: [...LORE_PROTOCOL_VERSIONS],
    capabilities: capabilities(),
    instructions,
    _meta: { [SERVER_INFO_KEY]: info },
  }));
}

/** The revision a request names in its `_meta`, if any. */
function requestedVersion(message: JSONRPCMessage): unknown {
  const meta = (message as { params?: { _meta?: Record<string, unknown> } }).params?._meta;
  return meta && typeof meta === 'object' ? meta[VERSION_KEY] : undefined;
}

/**
 * Wraps the transport the server is connected to: checks the revision modern requests name, and
 * marks their results as that revision requires.
 */
export class ProtocolEraTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  /** Modern requests not answered yet, with their method and the resource a read names. */
  private readonly modern = new Map<RequestId, { method: string; uri?: unknown }>();

  constructor(private readonly inner: Transport) {}

  start(): Promise<void> {
    this.inner.onmessage = (message, extra) => this.receive(message, extra);
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (error) => this.onerror?.(error);
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (('result' in message || 'error' in message) && 'id' in message && message.id !== undefined && this.modern.has(message.id)) {
      const { method, uri } = this.modern.get(message.id)!;
      this.modern.delete(message.id);
      if ('result' in message) message = { ...message, result: { ...message.result, resultType: 'complete', ...CACHE_HINTS[method] } };
      // A resource that cannot be read is named in the error's data (SEP-2164), for the client to drop it.
      else if (method === 'resources/read' && typeof uri === 'string' && message.error.data === undefined)
        message = { ...message, error: { ...message.error, data: { uri } } };
    }
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    if (isJSONRPCRequest(message)) {
      const version = requestedVersion(message);
      const modern = message.method === 'server/discover' || (MODERN_PROTOCOL_VERSIONS as readonly string[]).includes(version as string);
      if (version !== undefined && !LORE_PROTOCOL_VERSIONS.includes(version as string)) {
        void this.inner.send({
          jsonrpc: '2.0',
          id: message.id,
          error: {
            code: UNSUPPORTED_PROTOCOL_VERSION,
            message: `Unsupported protocol version: ${String(version)}`,
            data: { supported: [...LORE_PROTOCOL_VERSIONS], requested: String(version) },
          },
        });
        return;
      }
      if (modern) this.modern.set(message.id, { method: message.method, uri: message.params?.uri });
    }
    this.onmessage?.(message, extra);
  }
}

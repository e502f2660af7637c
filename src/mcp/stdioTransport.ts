/**
 * The MCP stdio transport Lore serves on, in place of the SDK's StdioServerTransport. The SDK's
 * reader (1.32) closes the transport when a line passes its 10 MB buffer limit (the server then
 * exits 0, or stays alive but deaf when something else holds stdin), and it drops a line that is
 * not JSON or not a valid JSON-RPC message (a `params` that is a string) without a reply, so the
 * client waits for its timeout. Here each such line gets a JSON-RPC error reply, with the
 * request's id when it can be read (else null, as JSON-RPC 2.0 says), and the next line is served.
 */
import type { Readable, Writable } from 'node:stream';
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  JSONRPCMessageSchema,
  isJSONRPCNotification,
  isJSONRPCRequest,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { stripInvisible } from '../core/model/safety/invisibleChars';
import { formatBytes } from '../core/model/format';
import { wellFormedStrings } from '../core/base/wellFormedText';
import { BoundedLineSplitter, type LineEvent } from './boundedLines';

/** The largest request line served; as the SDK's limit, so Lore accepts what the SDK would. */
const MCP_MAX_LINE_BYTES = STDIO_DEFAULT_MAX_BUFFER_SIZE;
/** A JSON escape of a UTF-16 surrogate (\ud83d), the only way a lone one reaches a decoded line. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;
/** A JSON escape that may stand for a control character (or a backslash before b, f or u in the text: read as one, to be safe). */
const ESCAPED_CONTROL = /\\[bfu]/;
/** After stdin ends, how long requests still running may take to answer before the transport closes. */
const MCP_DRAIN_MS = 10_000;

export interface LoreStdioTransportOptions {
  maxLineBytes?: number;
  /** Diagnostics for refused lines (stderr in the CLI). */
  log?: (message: string) => void;
}

/** A JSON-RPC error response (the SDK's type requires an id; JSON-RPC allows null when unknown). */
interface ErrorReply {
  jsonrpc: '2.0';
  id: RequestId | null;
  error: { code: number; message: string };
}

function requestIdOf(value: unknown): RequestId | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const { id, method } = value as { id?: unknown; method?: unknown };
  // Only a request's id: an invalid response or notification is answered with null.
  if (method === undefined) return null;
  return typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id)) ? id : null;
}

/** What is wrong with a parsed line that is not a JSON-RPC message, as code and message. */
function invalidMessage(value: unknown): { code: number; message: string } {
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    return {
      code: ErrorCode.InvalidRequest,
      message: `Invalid Request: expected a JSON-RPC 2.0 message object, not ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value}`,
    };
  }
  const message = value as Record<string, unknown>;
  if (message.jsonrpc !== '2.0') return { code: ErrorCode.InvalidRequest, message: 'Invalid Request: "jsonrpc" must be "2.0"' };
  if ('method' in message && typeof message.method !== 'string')
    return { code: ErrorCode.InvalidRequest, message: 'Invalid Request: "method" must be a string' };
  if ('params' in message && (typeof message.params !== 'object' || message.params === null || Array.isArray(message.params))) {
    return { code: ErrorCode.InvalidParams, message: 'Invalid params: "params" must be an object' };
  }
  return { code: ErrorCode.InvalidRequest, message: 'Invalid Request: not a valid JSON-RPC 2.0 request, notification or response' };
}

const REQUEST_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);

/**
 * A request as JSONRPCRequestSchema accepts it, told without zod, when it carries no `_meta`
 * (whose shape the schema checks): most requests of every call. The SDK's handler checks its
 * params against the method's own schema either way; the message schemas parsed each request
 * twice more, a tenth of a search call.
 */
function isPlainRequest(value: unknown): value is JSONRPCMessage & { id: RequestId } {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const { jsonrpc, id, method, params } = value as Record<string, unknown>;
  if (jsonrpc !== '2.0' || typeof method !== 'string') return false;
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return false;
  if (params !== undefined && (typeof params !== 'object' || params === null || Array.isArray(params) || '_meta' in params)) return false;
  return Object.keys(value).every((key) => REQUEST_KEYS.has(key));
}

export class LoreStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly lines: BoundedLineSplitter;
  private started = false;
  private closed = false;
  /** Requests handed to the server and not answered yet. */
  private readonly pending = new Set<RequestId>();
  /** Stdin has ended: close once the pending requests are answered. */
  private ending = false;
  private drainTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly stdin: Readable = process.stdin,
    private readonly stdout: Writable = process.stdout,
    private readonly options: LoreStdioTransportOptions = {},
  ) {
    this.lines = new BoundedLineSplitter(options.maxLineBytes ?? MCP_MAX_LINE_BYTES);
  }

  async start(): Promise<void> {
    if (this.started) throw new Error('LoreStdioTransport already started');
    this.started = true;
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onStreamError);
    // The client going away shows as stdin ending (or stdout breaking): the session is over.
    this.stdin.on('end', this.onEnd);
    this.stdin.on('close', this.onEnd);
    this.stdout.on('error', this.onStdoutError);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    await this.write(agentSafeLine(message));
    const answered = ('result' in message || 'error' in message) && 'id' in message ? message.id : undefined;
    if (answered !== undefined) this.settle(answered);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.drainTimer);
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onStreamError);
    this.stdin.off('end', this.onEnd);
    this.stdin.off('close', this.onEnd);
    this.stdout.off('error', this.onStdoutError);
    // Pause only a stdin nobody else reads, as the SDK's transport does.
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.lines.clear();
    this.onclose?.();
  }

  private readonly onData = (chunk: Buffer | string): void => {
    for (const event of this.lines.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk)) this.handle(event);
  };

  private readonly onStreamError = (error: Error): void => {
    this.onerror?.(error);
  };

  private readonly onStdoutError = (error: Error): void => {
    // EPIPE and the like: nobody is listening any more.
    this.onerror?.(error);
    void this.close();
  };

  private readonly onEnd = (): void => {
    // Requests piped in just before the end (`printf '…' | lore mcp`) still get their answers.
    this.ending = true;
    if (this.pending.size === 0) void this.close();
    else this.drainTimer ??= setTimeout(() => void this.close(), MCP_DRAIN_MS);
  };

  private handle(event: LineEvent): void {
    if ('oversized' in event) {
      const { bytes, id } = event.oversized;
      this.options.log?.(`lore mcp: refused a request of ${formatBytes(bytes)} (the limit is ${formatBytes(this.lines.maxLineBytes)})`);
      this.reply(
        id ?? null,
        ErrorCode.InvalidRequest,
        `Request too large: ${bytes} bytes, over the ${this.lines.maxLineBytes}-byte limit of this server; send less per request`,
      );
      return;
    }
    const line = event.line;
    if (line.trim() === '') return;
    let value: unknown;
    try {
      // Every string an agent sends is made well-formed here, the one door of every tool's input.
      // A line decoded from UTF-8 holds a lone surrogate only through a \uD8xx–\uDFxx escape, so
      // the (slower) reviver runs only when the line has one.
      value = SURROGATE_ESCAPE.test(line) ? JSON.parse(line, wellFormedStrings) : JSON.parse(line);
    } catch (error) {
      this.options.log?.(`lore mcp: refused a line that is not JSON (${(error as Error).message})`);
      this.reply(null, ErrorCode.ParseError, `Parse error: ${(error as Error).message}`);
      return;
    }
    if (isPlainRequest(value)) {
      this.pending.add(value.id);
      this.deliver(value);
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      const problem = invalidMessage(value);
      this.options.log?.(`lore mcp: refused an invalid message (${problem.message})`);
      this.reply(requestIdOf(value), problem.code, problem.message);
      return;
    }
    if (isJSONRPCRequest(parsed.data)) this.pending.add(parsed.data.id);
    // A cancelled request gets no answer from the server.
    else if (isJSONRPCNotification(parsed.data) && parsed.data.method === 'notifications/cancelled')
      this.settle(parsed.data.params?.requestId as RequestId);
    this.deliver(parsed.data);
  }

  private deliver(message: JSONRPCMessage): void {
    try {
      this.onmessage?.(message);
    } catch (error) {
      this.onerror?.(error as Error);
    }
  }

  /** A request was answered (or cancelled); after stdin ended, the last one closes the transport. */
  private settle(id: RequestId): void {
    this.pending.delete(id);
    if (this.ending && this.pending.size === 0) void this.close();
  }

  private reply(id: RequestId | null, code: number, message: string): void {
    const reply: ErrorReply = { jsonrpc: '2.0', id, error: { code, message } };
    this.write(JSON.stringify(reply) + '\n').catch((error: Error) => this.onerror?.(error));
  }

  private write(text: string): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      if (this.stdout.write(text)) resolve();
      else this.stdout.once('drain', resolve);
    });
  }
}

/**
 * A message as the line the client reads, every string in it without invisible characters
 * (safety/invisibleChars): every reply an agent gets (tools' text and structured content,
 * resources, prompts) passes here, so no tool can hand one through by forgetting to strip.
 */
function agentSafeLine(message: JSONRPCMessage): string {
  // Almost every message has no such character: the line is then serialized once, without a
  // function called per value. JSON escapes control characters below U+0020 (\b, \f, \u00XX)
  // and leaves every other invisible one as it is, so a line with neither an invisible character
  // nor one of those escapes holds no string that stripping would change.
  const plain = JSON.stringify(message);
  if (!ESCAPED_CONTROL.test(plain) && stripInvisible(plain) === plain) return plain + '\n';
  // The request id is the client's, echoed as it came: the client matches the reply by it.
  return (
    JSON.stringify(message, function (this: unknown, key: string, value: unknown) {
      return typeof value === 'string' && !(this === message && key === 'id') ? stripInvisible(value) : value;
    }) + '\n'
  );
}

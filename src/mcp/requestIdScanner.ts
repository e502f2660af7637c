/**
 * Finds the `id` of a JSON-RPC request that is too large to keep in memory, by scanning its
 * bytes as they stream past. The SDK's client writes `id` after `params`, at the very end of
 * the line, so the scan cannot stop early; it keeps only a few bytes of state. Answering an
 * oversized request with its own id lets the client fail that call at once instead of waiting
 * for a timeout.
 */
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
/** An id longer than this is not worth echoing back. */
const MAX_ID_BYTES = 256;

function isWhitespace(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}

/**
 * Feed it the bytes of one line, in order; `id` is then the value of the top-level `"id"` key
 * when the line is a JSON object with a string or integer id. Works on bytes: every JSON
 * delimiter is ASCII, and UTF-8 never uses ASCII bytes inside a multi-byte character.
 */
export class RequestIdScanner {
  private started = false;
  private failed = false;
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** At depth 1, the next string is a key. */
  private expectKey = false;
  private key: number[] | undefined;
  private lastKey = '';
  private value: number[] | undefined;
  private found: RequestId | undefined;

  feed(bytes: Uint8Array): void {
    for (let i = 0; i < bytes.length && !this.failed; i++) this.step(bytes[i]);
  }

  /** The id found so far (the last one, as JSON.parse would keep it). */
  get id(): RequestId | undefined {
    return this.failed ? undefined : this.found;
  }

  private step(byte: number): void {
    if (this.inString) {
      if (this.escaped) this.escaped = false;
      else if (byte === BACKSLASH) this.escaped = true;
      else if (byte === QUOTE) this.inString = false;
      if (this.inString) this.key?.push(byte);
      else if (this.key) {
        this.lastKey = this.key.length <= 8 ? Buffer.from(this.key).toString('latin1') : '';
        this.key = undefined;
      }
      this.capture(byte);
      return;
    }
    if (isWhitespace(byte)) return;
    if (!this.started) {
      this.started = true;
      if (byte !== OPEN_BRACE) this.failed = true;
      this.depth = 1;
      this.expectKey = true;
      return;
    }
    if (this.depth === 1) {
      if (byte === COMMA || byte === CLOSE_BRACE) {
        this.finishValue();
        this.expectKey = true;
      } else if (byte === COLON) {
        this.expectKey = false;
        if (this.lastKey === 'id') this.value = [];
        return;
      } else if (byte === QUOTE && this.expectKey) {
        this.key = [];
        this.inString = true;
        return;
      }
    }
    if (byte === QUOTE) this.inString = true;
    else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) this.depth++;
    else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) this.depth--;
    if (this.depth >= 1) this.capture(byte);
  }

  private capture(byte: number): void {
    if (!this.value) return;
    if (this.value.length >= MAX_ID_BYTES) this.value = undefined;
    else this.value.push(byte);
  }

  private finishValue(): void {
    if (!this.value) return;
    try {
      const parsed: unknown = JSON.parse(Buffer.from(this.value).toString('utf8'));
      if (typeof parsed === 'string' || (typeof parsed === 'number' && Number.isInteger(parsed))) this.found = parsed;
    } catch {
      // Not a primitive value (an object, or cut short): no usable id.
    }
    this.value = undefined;
  }
}

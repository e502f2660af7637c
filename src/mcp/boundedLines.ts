/**
 * Splits a byte stream into newline-delimited lines, holding at most `maxLineBytes` of one line
 * in memory. A longer line is dropped as it streams past and reported once its end arrives, with
 * its size and the request id found in it, so that the reader can answer it and go on with the
 * next line. (The SDK's own reader instead throws on the whole buffer and closes the transport.)
 */
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import { RequestIdScanner } from './requestIdScanner';

const NEWLINE = 0x0a;

export type LineEvent = { line: string } | { oversized: { bytes: number; id: RequestId | undefined } };

export class BoundedLineSplitter {
  private parts: Buffer[] = [];
  private size = 0;
  /** Set while the current line is too long: its bytes go to the scanner, not to memory. */
  private scanner: RequestIdScanner | undefined;

  constructor(readonly maxLineBytes: number) {}

  /** The complete lines (and oversized-line reports) that `chunk` finishes, in order. */
  push(chunk: Buffer): LineEvent[] {
    const events: LineEvent[] = [];
    let start = 0;
    while (start <= chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      const piece = chunk.subarray(start, newline === -1 ? chunk.length : newline);
      this.add(piece);
      if (newline === -1) break;
      events.push(this.endLine());
      start = newline + 1;
    }
    return events;
  }

  /** Drops whatever is buffered. */
  clear(): void {
    this.parts = [];
    this.size = 0;
    this.scanner = undefined;
  }

  private add(piece: Buffer): void {
    if (piece.length === 0) return;
    this.size += piece.length;
    if (!this.scanner && this.size > this.maxLineBytes) {
      this.scanner = new RequestIdScanner();
      for (const part of this.parts) this.scanner.feed(part);
      this.parts = [];
    }
    if (this.scanner) this.scanner.feed(piece);
    // Copied: a slice would keep the whole chunk it came from alive.
    else this.parts.push(Buffer.from(piece));
  }

  private endLine(): LineEvent {
    const event: LineEvent = this.scanner
      ? { oversized: { bytes: this.size, id: this.scanner.id } }
      : { line: Buffer.concat(this.parts, this.size).toString('utf8').replace(/\r$/, '') };
    this.clear();
    return event;
  }
}

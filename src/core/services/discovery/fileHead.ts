/**
 * The start of a file, read without the rest: discovery tells a session's workspace from its
 * header (Codex's session_meta, Continue's workspaceDirectory, the Copilot CLI's session.start),
 * so listing thousands of sessions costs one small read each.
 */
import * as fs from 'node:fs';
import { readStoreFile, openStoreFile } from '../../base/readText';

/** How much of a file a header is looked for in. */
export const HEAD_BYTES = 64 * 1024;

/**
 * Enough of a first record that says where a session ran: Codex's session_meta puts `cwd` before
 * its base instructions (tens of KB), so a listing of thousands of rollouts reads 8 KB of each,
 * not most of the file.
 */
export const SMALL_HEAD_BYTES = 8 * 1024;

/** Up to `bytes` bytes from the start of a file as UTF-8 text, or undefined when it cannot be read. */
export function readHead(file: string, bytes = HEAD_BYTES): string | undefined {
  return readOpened(file, (fd) => {
    const buffer = Buffer.alloc(bytes);
    const read = fs.readSync(fd, buffer, 0, buffer.length, 0);
    return buffer.subarray(0, read).toString('utf8');
  });
}

/** Up to `bytes` bytes from the end of a file as UTF-8 text (its first character may be cut), or undefined when it cannot be read. */
export function readTail(file: string, bytes = HEAD_BYTES): string | undefined {
  return readOpened(file, (fd) => {
    const start = Math.max(0, fs.fstatSync(fd).size - bytes);
    const buffer = Buffer.alloc(bytes);
    const read = fs.readSync(fd, buffer, 0, buffer.length, start);
    return buffer.subarray(0, read).toString('utf8');
  });
}

/** What `read` makes of the file opened for reading, closed after; undefined when it cannot be opened or read. */
function readOpened<T>(file: string, read: (fd: number) => T): T | undefined {
  let fd: number;
  try {
    fd = openStoreFile(file);
  } catch {
    return undefined;
  }
  try {
    return read(fd);
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

/** The first line of a head parsed as JSON; undefined when it is not JSON or runs past the head. */
export function firstJsonLine(head: string): unknown {
  const end = head.indexOf('\n');
  if (end < 0) return undefined;
  try {
    return JSON.parse(head.slice(0, end));
  } catch {
    return undefined;
  }
}

/** A whole (small) JSON file parsed, or undefined when it is missing, too large or not JSON. */
export function readJsonFile(file: string, maxBytes = 16 * 1024 * 1024): unknown {
  try {
    if (fs.statSync(file).size > maxBytes) return undefined;
    return JSON.parse(readStoreFile(file, 'utf8').replace(/^\ufeff/, ''));
  } catch {
    return undefined;
  }
}

/**
 * The value of the first `"key": "…"` string in a JSON text's head, for documents too large to
 * parse whole just to learn one field near their start.
 */
export function jsonStringField(head: string, key: string): string | undefined {
  const match = new RegExp(`"${key}"\\s*:\\s*("(?:[^"\\\\]|\\\\.)*")`).exec(head);
  if (!match) return undefined;
  try {
    return JSON.parse(match[1]) as string;
  } catch {
    return undefined;
  }
}

/** A byte range of a file read as whole lines. */
export interface FileLines {
  /** The complete lines read (a line cut by the range's start, or not yet ended at its end, is left out). */
  text: string;
  /** Offset just past the last complete line: where a later read of appended records starts. */
  end: number;
  /** Bytes before the range that were not read (0 when it starts at the file's start). */
  skipped: number;
}

/**
 * The complete lines of `file` from `from` (default: the last `maxBytes` of it) to its end, for
 * session logs of hundreds of MB whose recent records are at the tail. A line the agent is still
 * writing (no newline yet) is left for the next read. Undefined when the file cannot be read.
 */
export function readLines(file: string, options: { from?: number; maxBytes: number }): FileLines | undefined {
  return readOpened(file, (fd) => {
    const size = fs.fstatSync(fd).size;
    const start = Math.max(options.from ?? 0, size - options.maxBytes, 0);
    const buffer = Buffer.alloc(size - start);
    const read = fs.readSync(fd, buffer, 0, buffer.length, start);
    let bytes = buffer.subarray(0, read);
    let first = 0;
    // Started inside a line (a bounded read): its rest is not a record.
    if (start > (options.from ?? 0)) {
      const newline = bytes.indexOf(0x0a);
      first = newline < 0 ? bytes.length : newline + 1;
    }
    const lastNewline = bytes.lastIndexOf(0x0a);
    const endInBuffer = lastNewline < first ? first : lastNewline + 1;
    bytes = bytes.subarray(first, endInBuffer);
    return { text: bytes.toString('utf8'), end: start + endInBuffer, skipped: start + first - (options.from ?? 0) };
  });
}

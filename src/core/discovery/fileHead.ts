/**
 * The start of a file, read without the rest: discovery tells a session's workspace from its
 * header (Codex's session_meta, Continue's workspaceDirectory, the Copilot CLI's session.start),
 * so listing thousands of sessions costs one small read each.
 */
import * as fs from 'node:fs';

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
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const buffer = Buffer.alloc(bytes);
    const read = fs.readSync(fd, buffer, 0, buffer.length, 0);
    return buffer.subarray(0, read).toString('utf8');
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
    return JSON.parse(fs.readFileSync(file, 'utf8').replace(/^\ufeff/, ''));
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

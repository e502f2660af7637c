/**
 * Text that round-trips every byte. Category and note files are the user's: a line in Latin-1 or
 * with stray binary must come back exactly as it was after Lore appends to the file. Decoding
 * maps each byte that is not part of valid UTF-8 to a lone surrogate U+DC80–U+DCFF (Python's
 * "surrogateescape"); encoding turns those back into the original bytes. Valid UTF-8 never
 * decodes to a lone surrogate, so the mapping is unambiguous, and all string code (regexes,
 * splitting, comparisons) works unchanged on the decoded text.
 */
import { isUtf8 } from 'node:buffer';

const ESCAPE_BASE = 0xdc00;
/** A low surrogate in the escape range with no high surrogate before it. */
const ESCAPED_BYTE = /(?<![\ud800-\udbff])[\udc80-\udcff]/;

/** Length of the valid UTF-8 sequence starting at `i`, or 0 when the byte there starts none. */
function sequenceLength(bytes: Buffer, i: number): number {
  const b0 = bytes[i];
  if (b0 < 0x80) return 1;
  const cont = (k: number) => i + k < bytes.length && (bytes[i + k] & 0xc0) === 0x80;
  if (b0 >= 0xc2 && b0 <= 0xdf) return cont(1) ? 2 : 0;
  if (b0 >= 0xe0 && b0 <= 0xef) {
    const b1 = bytes[i + 1];
    // No overlong forms (E0 80–9F) and no surrogates (ED A0–BF).
    if (!cont(1) || !cont(2) || (b0 === 0xe0 && b1 < 0xa0) || (b0 === 0xed && b1 > 0x9f)) return 0;
    return 3;
  }
  if (b0 >= 0xf0 && b0 <= 0xf4) {
    const b1 = bytes[i + 1];
    if (!cont(1) || !cont(2) || !cont(3) || (b0 === 0xf0 && b1 < 0x90) || (b0 === 0xf4 && b1 > 0x8f)) return 0;
    return 4;
  }
  return 0;
}

/** Decodes bytes to a string from which `encodeLossless` restores them exactly. */
export function decodeLossless(bytes: Buffer): string {
  if (isUtf8(bytes)) return bytes.toString('utf8');
  let out = '';
  let start = 0;
  let i = 0;
  while (i < bytes.length) {
    const n = sequenceLength(bytes, i);
    if (n > 0) {
      i += n;
      continue;
    }
    out += bytes.toString('utf8', start, i) + String.fromCharCode(ESCAPE_BASE + bytes[i]);
    i++;
    start = i;
  }
  return out + bytes.toString('utf8', start, i);
}

/** Encodes text as UTF-8, turning escaped bytes (see decodeLossless) back into themselves. */
export function encodeLossless(text: string): Buffer {
  if (!ESCAPED_BYTE.test(text)) return Buffer.from(text, 'utf8');
  const parts: Buffer[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0xdc80 || code > 0xdcff) continue;
    const previous = i > 0 ? text.charCodeAt(i - 1) : 0;
    if (previous >= 0xd800 && previous <= 0xdbff) continue; // The second half of a real pair.
    parts.push(Buffer.from(text.slice(start, i), 'utf8'), Buffer.of(code - ESCAPE_BASE));
    start = i + 1;
  }
  parts.push(Buffer.from(text.slice(start), 'utf8'));
  return Buffer.concat(parts);
}

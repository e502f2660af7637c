/** Lore's token estimate (design.md: bytes / 4), one rule for the dry run, recall, the context compiler and @lore's model. */
import { BYTES_PER_TOKEN } from './constants';

/** The estimated tokens of a text: its UTF-8 bytes / 4, rounded up. */
export function estimateTokens(text: string): number {
  return Math.ceil(Buffer.byteLength(text, 'utf8') / BYTES_PER_TOKEN);
}

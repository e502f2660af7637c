/**
 * The fallback importer: any text file (notes, a pasted chat, a prompt log) is one user turn
 * holding the whole text. It scores lowest so every real format wins detection.
 */
import type { Conversation, Importer } from '../../model/conversation';
import { conversationIdFromPath } from './conversationId';
import { cleanText, countSkip, emptyConversation, finishConversation, trimBlankLines } from './importSupport';

/** How much of the start is sampled to decide that a file is binary. */
const BINARY_SAMPLE = 4096;
/** Share of replacement or control characters above which a text is taken for binary. */
const BINARY_RATIO = 0.1;

function detect(fileName: string): number {
  return /\.(?:md|markdown|txt)$/i.test(fileName) ? 0.1 : 0.05;
}

function parse(rawText: string, sourcePath: string): Conversation {
  const skipped: Record<string, number> = {};
  const conv = emptyConversation(conversationIdFromPath(sourcePath), 'plain', sourcePath);
  if (looksBinary(rawText)) {
    // Bytes decoded as text are no conversation; sending them to a model would only waste tokens.
    countSkip(skipped, 'binary');
    return finishConversation(conv, skipped);
  }
  const text = trimBlankLines(cleanText(rawText).replace(/^\ufeff/, ''));
  const heading = /^# (.+)$/m.exec(text.slice(0, BINARY_SAMPLE));
  if (heading && heading[1].trim() !== '') conv.title = heading[1].trim();
  if (text !== '') conv.turns.push({ role: 'user', text });
  return finishConversation(conv, skipped);
}

/** True when much of the sample is U+FFFD (undecodable bytes) or control characters. */
export function looksBinary(text: string): boolean {
  const sample = text.slice(0, BINARY_SAMPLE);
  if (sample.length === 0) return false;
  let bad = 0;
  for (let i = 0; i < sample.length; i++) {
    const c = sample.charCodeAt(i);
    // NULs are not counted: they are stripped anyway (UTF-16 text read as UTF-8 is full of them).
    if (c === 0xfffd || (c > 0 && c < 32 && c !== 9 && c !== 10 && c !== 13 && c !== 12)) bad++;
  }
  return bad / sample.length > BINARY_RATIO;
}

/** The plain-text fallback importer. */
export const plainText: Importer = { format: 'plain', label: 'plain text', detect, parse };

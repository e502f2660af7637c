/**
 * Picks the importer for a file and runs it. Detection asks every importer for a score from the
 * file name and the first characters of the text; the highest wins, ties going to the earlier
 * importer in IMPORTERS. Importing never throws: a failing importer falls back to plain text.
 */
import type { Conversation, ConversationFormat, Importer } from './conversation';
import { aider } from './aider';
import { claudeCode } from './claudeCode';
import { codex } from './codex';
import { conversationIdFromPath, sanitizeConversationId } from './conversationId';
import { copilotChat } from './copilotChat';
import { loreTranscript } from './loreTranscript';
import { plainText } from './plainText';
import { specstory } from './specstory';

// Re-exported so callers find the id helpers next to importConversation; they live in
// conversationId.ts because every importer needs them and this module imports every importer.
export { conversationIdFromPath, sanitizeConversationId };

/** How much of a file detection looks at. */
export const DETECT_HEAD_CHARS = 16 * 1024;

/** Every importer, in tie-break order (most specific formats first, plain text last). */
export const IMPORTERS: readonly Importer[] = [loreTranscript, claudeCode, codex, aider, specstory, copilotChat, plainText];

/** The importer for a format. */
export function importerFor(format: ConversationFormat): Importer {
  return IMPORTERS.find((i) => i.format === format) ?? plainText;
}

/** The most likely format of a file, from its name (or path) and the start of its text. */
export function detectFormat(fileName: string, head: string): ConversationFormat {
  return pick(fileName, head).format;
}

function pick(fileName: string, head: string): Importer {
  const sample = head.length > DETECT_HEAD_CHARS ? head.slice(0, DETECT_HEAD_CHARS) : head;
  let best: Importer = plainText;
  let bestScore = -1;
  for (const importer of IMPORTERS) {
    let score = 0;
    try {
      score = importer.detect(fileName, sample);
    } catch {
      score = 0;
    }
    if (score > bestScore) {
      best = importer;
      bestScore = score;
    }
  }
  return best;
}

/**
 * Reads a conversation file's text with the importer detection picks. `filePath` is recorded as
 * the conversation's source and used for the file-stem id. Never throws.
 */
export function importConversation(filePath: string, text: string): Conversation {
  const importer = pick(filePath, text);
  try {
    return importer.parse(text, filePath);
  } catch {
    // An importer bug must not stop a batch import: keep the file's text as plain text.
    try {
      const conv = plainText.parse(text, filePath);
      conv.skipped = { ...conv.skipped, [`importer-error:${importer.format}`]: 1 };
      return conv;
    } catch {
      return { id: conversationIdFromPath(filePath), format: 'plain', sourcePath: filePath, turns: [], skipped: { 'importer-error:plain': 1 } };
    }
  }
}

/**
 * Importer for Gemini CLI chat sessions, `~/.gemini/tmp/<project>/chats/session-<time>-<id>.json`
 * (one `ConversationRecord`, older CLIs) or `.jsonl` (current CLIs): a metadata line
 * (`{sessionId, projectHash, startTime, …}`), then each message record appended whole every time it
 * changes (the last copy of an id wins, in first-seen order), `{$set: {…}}` metadata updates (a
 * `summary` becomes the title) and `{$rewindTo: id}`, which drops that message and everything after
 * it. `user` messages give user turns, `gemini` messages agent turns with their tool calls as tool
 * lines; thoughts, tool results and `info` / `error` / `warning` notices are dropped.
 * Written from google-gemini/gemini-cli packages/core/src/services/chatRecordingService.ts
 * (`loadConversationRecord`, commit 016443b5) and chatRecordingTypes.ts.
 */
import type { Conversation, Importer, Turn } from '../../model/conversation';
import { conversationIdFromPath, sanitizeConversationId } from './conversationId';
import {
  addToolInOrder,
  arr,
  cleanText,
  countSkip,
  emptyConversation,
  finishConversation,
  forEachJsonLine,
  isObject,
  obj,
  str,
  trimBlankLines,
  type JsonObject,
} from './importSupport';
import { genericSummary, toolLine } from './toolSummary';

/** Tool call states that mean the call did not do its work. */
const FAILED_STATUS = new Set(['error', 'cancelled']);

function detect(fileName: string, head: string): number {
  if (!/"sessionId"\s*:/.test(head) || !/"projectHash"\s*:/.test(head)) return 0;
  // The key pair is Gemini CLI's own; a session file name makes it certain.
  return /(?:^|[/\\])session-[^/\\]*\.jsonl?$/i.test(fileName) ? 0.95 : 0.9;
}

interface Session {
  metadata: JsonObject;
  messages: JsonObject[];
}

function parse(rawText: string, sourcePath: string): Conversation {
  const skipped: Record<string, number> = {};
  const conv = emptyConversation(conversationIdFromPath(sourcePath), 'gemini-cli', sourcePath);
  const text = cleanText(rawText);
  const session = wholeRecord(text) ?? replayLog(text, skipped);
  const sessionId = str(session.metadata.sessionId);
  if (sessionId) conv.id = sanitizeConversationId(sessionId);
  conv.title = str(session.metadata.summary);
  for (const message of session.messages) messageTurn(conv, message, skipped);
  conv.startedAt = conv.turns.find((t) => t.at)?.at ?? str(session.metadata.startTime);
  return finishConversation(conv, skipped);
}

/** The older layout: the whole session as one JSON object with a `messages` array. */
function wholeRecord(text: string): Session | undefined {
  const start = text.trimStart();
  // A JSONL log's first line is a whole object too: only a document that ends there is one record.
  if (!start.startsWith('{')) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(start);
  } catch {
    return undefined;
  }
  if (!isObject(data) || !Array.isArray(data.messages)) return undefined;
  return { metadata: data, messages: data.messages.filter(isObject) };
}

/** The current layout: replays the log the way Gemini CLI does when it resumes a session. */
function replayLog(text: string, skipped: Record<string, number>): Session {
  let metadata: JsonObject = {};
  const messages = new Map<string, JsonObject>();
  forEachJsonLine(text, skipped, (record) => {
    if (typeof record.$rewindTo === 'string') {
      const ids = [...messages.keys()];
      const from = ids.indexOf(record.$rewindTo);
      // An unknown id rewinds the whole session, as Gemini CLI does.
      for (const id of from < 0 ? ids : ids.slice(from)) messages.delete(id);
    } else if (typeof record.id === 'string') {
      // Map.set keeps a re-written message at the place it was first seen.
      messages.set(record.id, record);
    } else if (isObject(record.$set)) {
      metadata = { ...metadata, ...record.$set };
    } else if (typeof record.sessionId === 'string' && typeof record.projectHash === 'string') {
      metadata = { ...metadata, ...record };
    } else {
      countSkip(skipped, 'unknown');
    }
  });
  // Gemini CLI keeps a `messages` list in the metadata only for sessions it moved from the old layout.
  const own = [...messages.values()];
  return { metadata, messages: own.length > 0 ? own : arr(metadata.messages).filter(isObject) };
}

function messageTurn(conv: Conversation, message: JsonObject, skipped: Record<string, number>): void {
  const type = str(message.type) ?? 'unknown';
  const at = str(message.timestamp);
  if (type === 'user') {
    conv.turns.push({ role: 'user', text: trimBlankLines(contentText(message.content, skipped)), ...(at ? { at } : {}) });
    return;
  }
  if (type !== 'gemini') {
    // info / error / warning notices are the CLI's, not either side's words.
    countSkip(skipped, type);
    return;
  }
  conv.model ??= str(message.model);
  if (arr(message.thoughts).length > 0) countSkip(skipped, 'thinking');
  let turn: Turn = { role: 'assistant', text: trimBlankLines(contentText(message.content, skipped)), ...(at ? { at } : {}) };
  conv.turns.push(turn);
  // A message's calls were made after its text was written.
  for (const call of arr(message.toolCalls)) {
    if (!isObject(call)) continue;
    const line = toolLine(str(call.name) ?? 'tool', genericSummary(obj(call.args) ?? {}));
    const status = str(call.status);
    turn = addToolInOrder(conv.turns, turn, status && FAILED_STATUS.has(status) ? `${line} → ${status}` : line);
  }
}

/** A message's text: a string, or the `text` of its parts (`PartListUnion`); other parts are counted. */
function contentText(content: unknown, skipped: Record<string, number>): string {
  if (typeof content === 'string') return content;
  const parts = Array.isArray(content) ? content : isObject(content) ? [content] : [];
  let text = '';
  for (const part of parts) {
    if (typeof part === 'string') text += part;
    else if (isObject(part) && part.thought === true) countSkip(skipped, 'thinking');
    else if (isObject(part) && typeof part.text === 'string') text += part.text;
    else countSkip(skipped, 'part');
  }
  return text;
}

/** The Gemini CLI importer. */
export const geminiCli: Importer = { format: 'gemini-cli', label: 'Gemini CLI session', detect, parse };

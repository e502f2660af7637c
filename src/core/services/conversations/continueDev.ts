/**
 * Importer for Continue's chat sessions, `~/.continue/sessions/<session id>.json`:
 * `{sessionId, title, workspaceDirectory, history: [{message, contextItems, toolCallState?, …}]}`.
 * Each history item holds one chat message: `user` and `assistant` messages become turns (an
 * assistant's `toolCalls` tool lines), while `thinking` messages, `tool` results, `system` prompts
 * and the attached context items (whole files, terminal output) are dropped. The session file has
 * no times; Continue keeps the creation date in its separate sessions.json index.
 * Written from continuedev/continue core/index.d.ts (`Session`, `ChatHistoryItem`, `ChatMessage`,
 * `ToolCallDelta`), read at main in 2026-11 and at 00461e59 for the older string-only messages.
 */
import type { Conversation, Importer, Turn } from '../../model/conversation';
import { conversationIdFromPath, sanitizeConversationId } from './conversationId';
import {
  addToolInOrder,
  arr,
  countSkip,
  emptyConversation,
  finishConversation,
  isObject,
  obj,
  parseJsonDocument,
  str,
  trimBlankLines,
  type JsonObject,
} from './importSupport';
import { genericSummary, toolLine } from './toolSummary';

/** Where Continue keeps sessions: `.continue/sessions/<id>.json`. */
const SESSION_PATH = /[/\\]\.continue[/\\]sessions[/\\][^/\\]+\.json$/i;
/**
 * A session that opens with its history, as Continue wrote them until it ordered the keys (late
 * 2024: `{history, title, sessionId, workspaceDirectory, checkpoints}`): the other keys may lie
 * megabytes on, past any head, so the first item's keys (a `ChatHistoryItem`'s `message`,
 * `contextItems` or `editorState`) are what tells. Parsing the whole file confirms it.
 */
const HISTORY_FIRST = /^\ufeff?\s*\{\s*"history"\s*:\s*\[\s*\{\s*"(?:message|contextItems|editorState)"\s*:/;

function detect(fileName: string, head: string): number {
  const inSessions = SESSION_PATH.test(fileName);
  const byShape = HISTORY_FIRST.test(head) ? (inSessions ? 0.9 : 0.7) : 0;
  if (!/"sessionId"\s*:/.test(head) || !/"history"\s*:/.test(head)) return byShape;
  if (/"workspaceDirectory"\s*:/.test(head)) return /[/\\]\.continue[/\\]sessions[/\\]/.test(fileName) ? 0.95 : 0.9;
  return Math.max(byShape, inSessions ? 0.8 : 0);
}

function parse(rawText: string, sourcePath: string): Conversation {
  const skipped: Record<string, number> = {};
  const conv = emptyConversation(conversationIdFromPath(sourcePath), 'continue', sourcePath);
  const data = parseJsonDocument(
    rawText,
    skipped,
    (v): v is JsonObject & { history: unknown[] } => isObject(v) && Array.isArray(v.history),
  );
  if (!data) return finishConversation(conv, skipped);
  const sessionId = str(data.sessionId);
  if (sessionId) conv.id = sanitizeConversationId(sessionId);
  // "New Session" is Continue's placeholder until it names the session.
  const title = str(data.title);
  if (title && title !== 'New Session') conv.title = title;
  conv.cwd = str(data.workspaceDirectory)?.replace(/^file:\/\//, '');
  conv.model = str(data.chatModelTitle);
  for (const item of data.history) {
    const entry = obj(item);
    const message = obj(entry?.message);
    if (!message) {
      countSkip(skipped, 'malformed');
      continue;
    }
    if (arr(entry?.contextItems).length > 0) countSkip(skipped, 'context-items');
    if (message.role === 'user') conv.turns.push({ role: 'user', text: trimBlankLines(messageText(message.content, skipped)) });
    else if (message.role === 'assistant') assistantTurns(conv, message, skipped);
    else countSkip(skipped, str(message.role) ?? 'unknown');
  }
  return finishConversation(conv, skipped);
}

/** An assistant message: its text, then the tool calls it made after writing it. */
function assistantTurns(conv: Conversation, message: JsonObject, skipped: Record<string, number>): void {
  let turn: Turn = { role: 'assistant', text: trimBlankLines(messageText(message.content, skipped)) };
  conv.turns.push(turn);
  for (const call of arr(message.toolCalls)) {
    const fn = obj(obj(call)?.function);
    if (!fn) continue;
    turn = addToolInOrder(conv.turns, turn, toolLine(str(fn.name) ?? 'tool', genericSummary(jsonArguments(fn.arguments))));
  }
}

/** A tool call's arguments, which arrive as a JSON string (streamed deltas, joined). */
function jsonArguments(value: unknown): JsonObject {
  if (isObject(value)) return value;
  if (typeof value !== 'string') return {};
  try {
    const parsed: unknown = JSON.parse(value);
    return isObject(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

/** `MessageContent`: a string, or parts of which the `text` ones are words and `imageUrl` ones images. */
function messageText(content: unknown, skipped: Record<string, number>): string {
  if (typeof content === 'string') return content;
  const texts: string[] = [];
  for (const part of arr(content)) {
    if (isObject(part) && part.type === 'text' && typeof part.text === 'string') texts.push(part.text);
    else countSkip(skipped, isObject(part) ? (str(part.type) ?? 'part') : 'part');
  }
  return texts.join('\n\n');
}

/** The Continue session importer. */
export const continueDev: Importer = { format: 'continue', label: 'Continue session', detect, parse };
